# The pit's one writer: it asks each table for what came after the last sequence number it
# stored, and stores it in one transaction a round (every table's new deal records and events,
# the seats' sums, the boards' meters and the tables' rows together), then tells the pages.
# Nothing lost: a record is taken only as the next number after the last stored (a gap waits
# for the next fetch, a repeat is dropped; deals a board's journal compacted away before the
# pit asked are a pit alert, once, and the pit goes on after them: checks.py), the numbers
# move on only once the transaction has committed, and the (table, seq) keys are unique besides. A link that drops is reconnected and asked
# again from the last number stored; a pit restarted on its database asks from there too.
# A board's RAM clear numbers its deals and events from 1 again: the pit sees the last event
# it stored gone from the board's log as it was (boardfetch's mark), says so (an alert), and
# stores what follows after what it holds (the table's record_base and event_base: the pit's
# numbers are the base plus the board's).
import json
import logging
import threading
import time
from fractions import Fraction

from sqlalchemy import select

from tapis.host.pit import checks, figures, memory, queries
from tapis.host.pit.link import LinkLost, LinkRefused
from tapis.host.pit.models import Deal, Event, Seat, Table

LIMIT = 500  # records (and events) a table gives in one fetch
POLL = 2.0  # seconds at most between two fetches of a table (what its news would have said)
RETRY = 1.0  # seconds before a lost link is tried again
PAUSES = ("disabled", "enabled", "clear")  # events that say a table stopped dealing for a while
log = logging.getLogger("tapis.pit")


class Feed:
    """The pit's side of one table: its link, whether it is up, and the last numbers stored."""

    def __init__(self, link):
        self.link, self.id, self.up, self.retry_at = link, None, False, 0.0
        self.records = self.events = 0  # the table's own numbers (the pit's less the table's bases)
        self.mark = None  # the last event stored, as boardfetch.marked tells it (None: not known)
        self.reconnects = 0
        self.check = checks.Check()  # the records' sums against the board's meters (checks.py)
        self.told_state = None  # the state the pages were last told
        self.news = True  # it said it has something new (link.subscribe)
        self.anew = False  # its log was begun anew: its first events tell a RAM clear from a rollback
        self.visited = 0.0  # when it was last fetched
        self.paused = True  # it may have stopped since its last deal (a lock, a disable, the pit away)


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
            self.woken.wait(RETRY)
            self.woken.clear()
            try:
                if self.round():
                    self.woken.set()  # more was waiting than one fetch takes
            except Exception:  # the database went away for a moment: the numbers did not move
                log.exception("pit: a round failed; retrying")
                time.sleep(RETRY)

    def connect(self, f, now):
        """Open a table's link; the first time, find (or make) its row: the numbers to ask from."""
        try:
            who = f.link.connect()
        except LinkLost:
            f.retry_at = now + RETRY
            return False
        except LinkRefused as e:
            log.warning("pit: %s", e)
            f.retry_at = now + 30
            return False
        with self.sessions() as s, s.begin():
            t = s.get(Table, who["table"])
            if t is None:
                t = Table(id=who["table"], game=who["game"], variant=who["variant"] or "", link=f.link.where,
                          state=who["state"], connected=True, deals=0, record_seq=0, event_seq=0, record_base=0,
                          event_base=0, first_at=0.0, last_at=0.0, actual=0, theo="0", inexact=0, seen_generation=0,
                          seen_deals=0, suspect="", dealing_s=0.0, dealt=0)
                s.add(t)
            if f.id is None:  # a pit (re)started on its database asks from what it holds
                f.id, f.records, f.events = t.id, t.record_seq - t.record_base, t.event_seq - t.event_base
            t.connected, f.up = True, True
        f.reconnects += 1
        return True

    def round(self):
        """The tables with news (and any not visited for POLL seconds, or whose lost link is
        due a retry) fetched, then what they gave stored in one transaction. True if a table
        had more than one fetch takes."""
        now, more, told, got, lost = time.time(), False, [], [], []
        for f in self.feeds:
            if not (f.news or now - f.visited >= POLL) or (not f.up and now < f.retry_at):
                continue
            f.news, f.visited = False, now
            if not f.up and not self.connect(f, now):
                continue
            try:  # the links are asked outside the transaction: it stays short
                g = f.link.fetch(f.records, f.events, LIMIT)
            except LinkLost:
                f.up, f.retry_at = False, now + RETRY
                lost.append(f)
                continue
            if len(g["records"]) >= LIMIT or len(g["events"]) >= LIMIT:
                more = f.news = True
            if g["records"] or g["events"] or g["meters"] is not None or g.get("gap") or g["state"] != f.told_state:
                got.append((f, g))
        if not got and not lost:
            return more
        moved = []
        with self.sessions() as s, s.begin():
            ids = [f.id for f in lost] + [f.id for f, _g in got]
            tables = {t.id: t for t in s.scalars(select(Table).where(Table.id.in_(ids)))}
            seats = {}
            for x in s.scalars(select(Seat).where(Seat.table_id.in_([f.id for f, _g in got]))):
                seats.setdefault(x.table_id, {})[x.seat] = x
            for f in lost:
                tables[f.id].connected = False
                told.append({"type": "table", "row": queries.row(tables[f.id]), "deals": [], "events": [],
                             "alerts": []})
            for f, g in got:
                moved.append(self._store(s, f, tables[f.id], seats.setdefault(f.id, {}), g, now, told))
        for f, r, e, c, m in moved:  # committed: the numbers move on
            f.records, f.events, f.check, f.mark = r, e, c, m
        for m in told:
            self.stored += len(m["deals"])
            if self.hub is not None:
                self.hub.publish(m)
        return more

    def _store(self, s, f, t, seats, got, now, told):
        records, events, state, meters = got["records"], got["events"], got["state"], got["meters"]
        t.state, t.connected = state, True
        back = memory.meters(s, t, meters, now) if meters is not None else []  # (memory.py)
        if f.anew and events:  # the first events of a log begun anew: a RAM clear's, or rolled back
            f.anew, back = False, back + memory.began_again(s, t, events, now)
        if begun_anew(f, got):  # asked with numbers the board no longer means: asked again from 1
            a = checks.alert(s, t, "ram-clear", RESTARTED % (t.record_seq + 1, t.event_seq + 1), now,
                             t.record_seq + 1, t.event_seq + 1)
            log.warning("pit: %s: %s", t.id, a["detail"])
            t.record_base, t.event_base, f.anew = t.record_seq, t.event_seq, True
            f.told_state = state
            told.append({"type": "table", "row": queries.row(t), "deals": [], "events": [], "alerts": back + [a]})
            return f, 0, 0, checks.Check(), None
        base = t.record_base
        seq, deals, alerts, check = f.records, [], back, f.check.copy()  # (f's moves on once committed)
        over = got.get("over")
        if over is not None and over < seq:  # its journal put back: said, and the deals it plays
            alerts += memory.journal(s, t, over, seq, now)  # from there stored after the pit's
            t.record_base = base = t.record_seq - over
            seq, check = over, checks.Check()
        gap = got.get("gap")
        if gap is not None and gap[0] == seq + 1:  # the table no longer has them: said once, then on
            alerts.append(checks.compacted(s, t, gap, now))
            seq, check = gap[1], checks.Check()
            log.warning("pit: %s: %s", t.id, alerts[-1]["detail"])
        theo = Fraction(t.theo)
        if state != "running" or any(e["tilt"] or e["kind"] in PAUSES for e in events):
            f.paused = True  # the time since its last deal is not dealing time
        for n, ended, record in records:
            if n != seq + 1:
                if n <= seq:
                    continue  # a repeat: stored already
                meters = meters and dict(meters, whole=False)  # (they count records not stored yet)
                break  # a gap: asked again from seq next round
            seq = n
            s.add(Deal(table_id=t.id, seq=base + n, ended_at=ended, stored_at=now, record=json.dumps(record)))
            fig = figures.of(record)
            check.add(fig)
            t.actual += fig.actual
            theo += fig.theo if fig.exact else 0
            t.inexact += not fig.exact
            t.first_at = t.first_at or ended
            if not f.paused and t.last_at:
                t.dealing_s, t.dealt = t.dealing_s + max(ended - t.last_at, 0.0), t.dealt + 1
            t.last_at, t.deals, f.paused = ended, t.deals + 1, False
            for k, (wagered, won, th) in fig.seats.items():
                x = seats.get(k)
                if x is None:
                    x = seats[k] = Seat(table_id=t.id, seat=k, deals=0, wagered=0, won=0, theo="")
                    s.add(x)
                x.deals, x.wagered, x.won = x.deals + 1, x.wagered + wagered, x.won + won
                if th is not None:
                    x.theo = str(Fraction(x.theo or 0) + th)
            deals.append({"seq": base + n, "ended_at": ended})
        f.paused = f.paused or state != "running"
        if meters is not None:  # the board's own, kept beside the records' sums, which check them
            check, said = checks.meters(s, t, meters, base + seq, check, now)
            alerts += said
        t.theo, t.record_seq = str(theo), base + seq
        ev, out, mark = f.events, [], got.get("mark", f.mark)
        for e in events:
            if e["seq"] != ev + 1:
                if e["seq"] <= ev:
                    continue
                break
            ev, mark = e["seq"], e.pop("mark", None)
            s.add(Event(table_id=t.id, seq=t.event_base + ev, at=e["at"], kind=e["kind"], tilt=bool(e["tilt"]),
                        detail=e["detail"] or "", who=e["who"] or ""))
            out.append(dict(e, seq=t.event_base + ev, table=t.id))
        t.event_seq = t.event_base + ev
        if deals or out or alerts or state != f.told_state:
            f.told_state = state
            told.append({"type": "table", "row": queries.row(t), "deals": deals, "events": out, "alerts": alerts})
        return f, seq, ev, check, mark


RESTARTED = ("the table's numbers began again (a RAM clear): its deal 1 is the pit's deal %d, "
             "its event 1 the pit's event %d")


def begun_anew(f, got):
    """Whether a board's event log was begun anew since the pit's last fetch (a RAM clear):
    the last event stored (f.events, its mark f.mark) is no longer there as it was: another
    entry with its number, or none and none after it (gone, and not by the log's own
    compaction, which keeps what follows). A table that gives no mark (the floor's) never is."""
    if "mark" not in got or not f.events:
        return False
    if got["mark"] is None:
        return not got["events"]
    return f.mark is not None and got["mark"] != f.mark
