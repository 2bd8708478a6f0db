# The pit's link to a board (link.TableLink): the table's own host interface over its
# operator's link, a pyserial URL (a board's USB, `tapis table --host-port` on a pty), in a
# session under the table's device key (firmware/hostlink.py; docs/protocol.md, "The host
# interface"). The board's own numbers: events from its event log (EVENTS), deal records
# recalled from its journal (DEALS: the finished deals only) and numbered by their deal, its
# state from its NOTICE (SUBSCRIBE). What a cut link loses is asked again by number.
import threading
import time

from tapis.firmware import events as E
from tapis.firmware import hostops as H
from tapis.host.pit.link import ACTIONS, LinkLost, LinkRefused, TableLink

_STATES = ("running", "locked", "disabled")
# the board's tilts (its log marks those that lock; an attack or a shoe's fault is one too, and
# the host's own disable is none): the pit's alerts
_TILTS = E.LOCKS + (E.ATTACK, E.SHOE)
_MAX_GAMES = 255  # a DEALS asks for this many games at most (a byte)


def event(e):
    """A board's event log entry as the pit stores it."""
    d, at = e.get("d", ""), e.get("t", 0)  # (its clock: seconds since boot on a board without one)
    return {"seq": e["n"], "at": at if isinstance(at, (int, float)) and at > 1e9 else time.time(),
            "kind": e["c"], "tilt": e["c"] in _TILTS or bool(e.get("l")) and e["c"] != H.DISABLED,
            "who": e.get("w") or "", "detail": d if isinstance(d, str) else str(d)}


def _collect(chunks, frames):
    """RECORD frames [i, n, k, kn] + JSON chunks gathered into `chunks`: the answer's
    entries once it is whole ([] for [0, 0, 0, 0]), else None."""
    import json

    from tapis.firmware import wire as W
    for _a, _s, t, p in frames:
        if t != W.RECORD or len(p) < 4:
            continue
        if p[1] == 0:
            return []
        chunks.setdefault("n", p[1])
        chunks.setdefault(p[0], {})[p[2]] = (p[3], bytes(p[4:]))
    n = chunks.get("n")
    if n is None or len(chunks) - 1 < n or any(len(chunks[i]) != next(iter(chunks[i].values()))[0]
                                                for i in range(n) if i in chunks):
        return None
    return [json.loads(b"".join(chunks[i][k][1] for k in sorted(chunks[i]))) for i in range(n)]


class BoardLink(TableLink):
    """url: the operator's link (pyserial URL), or port: a Port already open (tests: a pipe,
    with step() running the table in process). key: the table's device key (None: a board
    whose operator's link is unkeyed). name: the table's name on the floor."""

    def __init__(self, url=None, key=None, name=None, port=None, step=None, timeout=5.0, serial=b"tapis-pit"):
        self.url, self.key, self.port, self.step, self.timeout = url, key, port, step, timeout
        self.where, self.name, self.serial = url or "port", name or url or "board", serial
        self.link, self.state, self.counts, self.noticed = None, "running", (0, 0), False
        self.wake, self.lock, self.ms = None, threading.RLock(), 0
        self.last = time.monotonic()
        self.listener, self.closed = None, False

    # ---- the frames ---------------------------------------------------------------------
    def _poll(self):
        from tapis.firmware import wire as W
        self.ms = max(self.ms + 1, int((time.monotonic() - self.last) * 1000) + self.ms)
        self.last = time.monotonic()
        out = []
        try:
            got = self.link.poll(self.ms)
        except (OSError, TypeError, ValueError, AttributeError) as e:  # (a port closed under it)
            self.link = None
            raise LinkLost("%s: %s" % (self.where, e)) from None
        for a, s, t, p in got:
            if t == H.NOTICE and len(p) == 9:
                self.counts = (int.from_bytes(p[0:4], "big"), int.from_bytes(p[4:8], "big"))
                self.state = _STATES[p[8]] if p[8] < 3 else "locked"
                self.noticed = True
                if self.wake is not None:
                    self.wake()
            else:
                out.append((a, s, t, p))
        return out

    def _ask(self, ftype, payload, until=None):
        """One question, its answer's RECORD entries (JSON), LinkLost when none comes; until
        H.NOTICE: a NOTICE is its answer."""
        from tapis.firmware import wire as W
        if self.link is None:
            raise LinkLost("%s: the link is down" % self.where)
        with self.lock:
            if self.link is None:
                raise LinkLost("%s: the link is down" % self.where)
            try:
                self.link.send(W.HOST, ftype, payload)
            except (OSError, TypeError, ValueError, AttributeError) as e:  # (the port closed under it)
                self.link = None
                raise LinkLost("%s: %s" % (self.where, e)) from None
            chunks, self.noticed = {}, False
            deadline = time.monotonic() + self.timeout
            while time.monotonic() < deadline:
                got = _collect(chunks, self._poll())
                if until is not None and self.noticed:
                    return []
                if got is not None:
                    self._poll()  # acknowledge the last ones
                    return got
                if self.step is not None:
                    self.step()
                else:
                    time.sleep(0.002)
        self.link = None  # a session that stopped answering is begun afresh at the next connect
        raise LinkLost("%s: no answer in %.1f s" % (self.where, self.timeout))

    # ---- TableLink ------------------------------------------------------------------------
    def connect(self):
        with self.lock:  # (not while the listener or an action speaks)
            return self._connect()

    def _connect(self):
        from tapis.firmware import wire as W
        from tapis.firmware.hostlink import host_end
        if self.port is None or self.url is not None and self.link is None:
            from tapis.host.ports import open_port
            try:
                if self.port is not None and hasattr(self.port, "close"):
                    self.port.close()
                self.port = open_port(self.url)
            except OSError as e:  # (ports.PortError is one)
                raise LinkLost("%s: cannot open: %s" % (self.where, e.strerror or e)) from None
        self.link = host_end(self.port, self.serial, self.key)
        got = self._ask(H.DEALS, bytes(4) + b"\1")  # the last game: the table's game; a first answer
        game = got[-1]["game"] if got else None
        self._ask(H.SUBSCRIBE, b"\1", H.NOTICE)  # answered by a NOTICE: its numbers and state
        return {"table": self.name, "game": game or "unknown", "variant": "", "state": self.state}

    def fetch(self, records, events, limit=500):
        from tapis.firmware import wire as W
        from tapis.firmware.clears import PAGE
        evs = []
        while len(evs) < limit:
            got = self._ask(W.EVENTS, (events + len(evs)).to_bytes(4, "big"))
            evs += [event(e) for e in got if e["n"] > events + len(evs)]
            if len(got) < PAGE:
                break
        return {"records": self.deals(records, limit), "events": evs[:limit], "state": self.state,
                "meters": None}

    def deals(self, since, limit=500):
        """[(deal, when it came, deal record)] of the finished deals after `since`: the last
        games asked for, one more each time, until their first deal reaches back to since + 1."""
        from tapis.firmware import wire as W
        from tapis.host.recall_show import deal_records
        n = 1
        while True:
            games = self._ask(H.DEALS, since.to_bytes(4, "big") + bytes((n,)))
            if not games:
                return []
            recs = deal_records(games)
            first = min(r["deal"] for r in recs) if recs else since + 2
            if first <= since + 1 or len(games) < n or n >= _MAX_GAMES:
                break
            n += 1
        now, out, want = time.time(), [], since + 1
        for r in sorted((r for r in recs if r.get("complete", True)), key=lambda r: r["deal"]):
            if r["deal"] == want and len(out) < limit:
                out.append((want, now, r))
                want += 1
        return out

    def subscribe(self, wake):
        """wake() at each NOTICE; on a real port a thread listens between the pit's fetches
        (the board's frames acknowledged, so it never counts the pit gone while it is there)."""
        self.wake = wake
        if self.step is None and self.listener is None:
            self.listener = threading.Thread(target=self._listen, name="pit " + self.where, daemon=True)
            self.listener.start()

    def _listen(self):
        while not self.closed:
            time.sleep(0.02)
            if self.link is not None and self.lock.acquire(blocking=False):
                try:
                    if self.link is not None:
                        self._poll()
                except LinkLost:
                    pass
                finally:
                    self.lock.release()

    def act(self, action, who, credential, seed=None):
        """The pit checked the supervisor's credential (web.py); the board's is the session."""
        from tapis.firmware import wire as W
        from tapis.firmware.clears import CLEAR
        if action not in ACTIONS:
            raise ValueError("no action %r: %s" % (action, ", ".join(ACTIONS)))
        with self.lock:
            try:
                if self.link is None:
                    self._connect()
                return self._act(action, seed)
            except LinkLost:  # once more on a fresh session: a supervisor's action is not lost to a cut
                self._connect()
                return self._act(action, seed)

    def _act(self, action, seed):
        from tapis.firmware import wire as W
        from tapis.firmware.clears import CLEAR
        if action == "verify":
            return self.verify(bytes.fromhex(seed))
        arg = {"clear": 0, "disable": 2, "enable": 3}[action]
        got = self._ask(W.BUTTON, bytes((CLEAR, arg)))
        if not got:
            return "nothing to %s" % action
        return "; ".join("#%d %s: %s" % (e["n"], e["c"], e["d"]) for e in got)

    def verify(self, seed):
        from tapis.firmware import wire as W
        with self.lock:
            if self.link is None:
                raise LinkLost("%s: the link is down" % self.where)
            self.link.send(W.HOST, W.VERIFY, seed)
            deadline = time.monotonic() + self.timeout
            while time.monotonic() < deadline:
                for _a, _s, t, p in self._poll():
                    if t == W.CHECKED and p[:1] == b"\0":
                        return p[1:33].hex()
                    if t == W.CHECKED:
                        raise LinkRefused(bytes(p[1:]).decode(errors="replace"))
                if self.step is not None:
                    self.step()
                else:
                    time.sleep(0.002)
        raise LinkLost("%s: no answer to the software check" % self.where)

    def expected(self, seed):
        """What the board must answer the seed: from what the host flashed to the device it is
        named after (flash_keys.image_path, host/verify.py); None when the host holds none."""
        from tapis.host.flash_keys import image_path
        from tapis.host.verify import expected, load_kept
        try:
            files, uf2 = load_kept(image_path(self.name))
            return expected(files, bytes.fromhex(seed), uf2).hex()
        except (OSError, ValueError):
            return None

    def close(self):
        self.closed, self.link = True, None
        if self.url is not None and self.port is not None and hasattr(self.port, "close"):
            self.port.close()
            self.port = None
