# The pit's one writer: it asks each table for what came after the last sequence number it
# stored, and stores it in one transaction a round (every table's new deal records and events,
# the seats' meters and the tables' rows together), then tells the pages. Nothing lost: a
# record is taken only as the next number after the last stored (a gap waits for the next
# fetch, a repeat is dropped), the numbers move on only once the transaction has committed,
# and the (table, seq) keys are unique besides. A link that drops is reconnected and asked
# again from the last number stored; a pit restarted on its database asks from there too.
import json
import logging
import threading
import time
from fractions import Fraction

from tapis.host.pit import figures, queries
from tapis.host.pit.link import LinkLost, LinkRefused
from tapis.host.pit.models import Deal, Event, Seat, Table

LIMIT = 500  # records (and events) a table gives in one fetch
POLL = 1.0  # seconds between visits to every table (its state, a lost link) when none wakes the pit
RETRY = 1.0  # seconds before a lost link is tried again
log = logging.getLogger("tapis.pit")


class Feed:
    """The pit's side of one table: its link, whether it is up, and the last numbers stored."""

    def __init__(self, link):
        self.link, self.id, self.up, self.retry_at = link, None, False, 0.0
        self.records = self.events = 0
        self.reconnects = 0
        self.told_state = None  # the state the pages were last told
        self.news = True  # it said it has something new (link.subscribe)


class Ingest:
    def __init__(self, sessions, links, hub=None):
        self.sessions, self.hub = sessions, hub
        self.feeds = [Feed(k) for k in links]
        self.woken = threading.Event()
        self.stopping = threading.Event()
        self.stored = 0  # deal records stored since start (the benchmark's count)
        self.thread = threading.Thread(target=self.run, name="pit ingest", daemon=True)
        for f in self.feeds:
            f.link.subscribe(self._waker(f))
        self.visited = 0.0  # when every table was last visited

    def _waker(self, f):
        def wake():
            f.news = True
            self.woken.set()
        return wake

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.stopping.set()
        self.woken.set()
        if self.thread.is_alive():
            self.thread.join(10)

    def run(self):
        while not self.stopping.is_set():
            self.woken.wait(POLL)
            self.woken.clear()
            try:
                if self.round():
                    self.woken.set()  # more was waiting than one fetch takes
            except Exception:  # the database went away for a moment: the numbers did not move
                log.exception("pit: a round failed; retrying")
                time.sleep(RETRY)

    def connect(self, feed, s):
        """Open a table's link and find (or make) its row: the numbers to ask from."""
        try:
            who = feed.link.connect()
        except LinkRefused as e:
            log.warning("pit: %s", e)
            feed.retry_at = time.time() + 30
            return False
        t = s.get(Table, who["table"])
        if t is None:
            t = Table(id=who["table"], game=who["game"], variant=who["variant"] or "", link=feed.link.where,
                      state=who["state"], connected=True, deals=0, record_seq=0, event_seq=0, first_at=0.0,
                      last_at=0.0, actual=0, theo="0", inexact=0)
            s.add(t)
        feed.id, feed.up, feed.records, feed.events = t.id, True, t.record_seq, t.event_seq
        t.connected = True
        return True

    def round(self):
        """One pass over the tables; True if a table had more than one fetch takes."""
        now, more, told = time.time(), False, []
        every = now - self.visited >= POLL
        if every:
            self.visited = now
        with self.sessions() as s, s.begin():
            moved = []
            for f in self.feeds:
                if not (every or f.news):
                    continue
                f.news = False
                if not f.up:
                    if now < f.retry_at:
                        continue
                    try:
                        if not self.connect(f, s):
                            continue
                        f.reconnects += 1
                    except LinkLost:
                        f.retry_at = now + RETRY
                        continue
                try:
                    got = f.link.fetch(f.records, f.events, LIMIT)
                except LinkLost:
                    f.up, f.retry_at = False, now + RETRY
                    t = s.get(Table, f.id)
                    t.connected = False
                    told.append({"type": "table", "row": queries.row(t), "deals": [], "events": []})
                    continue
                if len(got["records"]) >= LIMIT or len(got["events"]) >= LIMIT:
                    more = f.news = True
                moved.append(self._store(s, f, got, now, told))
        for f, r, e in moved:  # committed: the numbers move on
            f.records, f.events = r, e
        for m in told:
            self.stored += len(m["deals"])
            if self.hub is not None:
                self.hub.publish(m)
        return more

    def _store(self, s, f, got, now, told):
        records, events, state, meters = got["records"], got["events"], got["state"], got["meters"]
        t = s.get(Table, f.id)
        t.state, t.connected = state, True
        seq, deals = f.records, []
        theo = Fraction(t.theo)
        seats = {x.seat: x for x in s.query(Seat).filter(Seat.table_id == t.id)}
        for n, ended, record in records:
            if n != seq + 1:
                if n <= seq:
                    continue  # a repeat: stored already
                break  # a gap: asked again from seq next round
            seq = n
            s.add(Deal(table_id=t.id, seq=n, ended_at=ended, stored_at=now, record=json.dumps(record)))
            fig = figures.of(record)
            t.actual += fig.actual
            theo += fig.theo if fig.exact else 0
            t.inexact += not fig.exact
            t.first_at = t.first_at or ended
            t.last_at, t.deals = ended, t.deals + 1
            for k, (wagered, won, th) in fig.seats.items():
                x = seats.get(k)
                if x is None:
                    x = seats[k] = Seat(table_id=t.id, seat=k, deals=0, wagered=0, won=0, theo="")
                    s.add(x)
                x.deals, x.wagered, x.won = x.deals + 1, x.wagered + wagered, x.won + won
                if th is not None:
                    x.theo = str(Fraction(x.theo or 0) + th)
            deals.append({"seq": n, "ended_at": ended})
        if meters is not None:  # the board's own meters, once a table gives them, are the seats' figures
            for k, m in meters.items():
                x = seats.get(k) or Seat(table_id=t.id, seat=k, deals=0, theo="")
                x.wagered, x.won = m["wagered"], m["won"]
                s.add(x)
        t.theo, t.record_seq = str(theo), seq
        ev, out = f.events, []
        for e in events:
            if e["seq"] != ev + 1:
                if e["seq"] <= ev:
                    continue
                break
            ev = e["seq"]
            s.add(Event(table_id=t.id, seq=ev, at=e["at"], kind=e["kind"], tilt=bool(e["tilt"]),
                        detail=e["detail"] or "", who=e["who"] or ""))
            out.append(dict(e, table=t.id))
        t.event_seq = ev
        if deals or out or state != f.told_state:
            f.told_state = state
            told.append({"type": "table", "row": queries.row(t), "deals": deals, "events": out})
        return f, seq, ev
