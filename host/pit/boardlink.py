# The pit's link to a board (link.TableLink): the table's own host interface over its
# operator's link, a pyserial URL (a board's USB, `tapis table --host-port` on a pty), in a
# session under the table's device key (firmware/operator/hostlink.py; docs/protocol.md, "The host
# interface"). The board's own numbers: events from its event log (EVENTS), deal records
# recalled from its journal (DEALS: the finished deals only) and numbered by their deal, its
# state from its NOTICE (SUBSCRIBE). What a cut link loses is asked again by number.
import threading
import time

from tapis.firmware import wire as W
from tapis.host.pit.boardfetch import collect, fetch
from tapis.host.pit.link import ACTIONS, LinkLost, LinkRefused, TableLink

_STATES = ("running", "locked", "disabled")


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
            if t == W.NOTICE and len(p) == 9:
                self.counts = (int.from_bytes(p[0:4], "big"), int.from_bytes(p[4:8], "big"))
                self.state = _STATES[p[8]] if p[8] < 3 else "locked"
                self.noticed = True
                if self.wake is not None:
                    self.wake()
            else:
                out.append((a, s, t, p))
        return out

    def ask(self, ftype, payload, until=None):
        """One question, its answer's RECORD entries (JSON), LinkLost when none comes; until
        W.NOTICE: a NOTICE is its answer."""
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
                got = collect(chunks, self._poll())
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
        from tapis.host.operator_link import open_link
        if self.port is None or self.url is not None and self.link is None:
            from tapis.host.ports import open_port
            try:
                if self.port is not None and hasattr(self.port, "close"):
                    self.port.close()
                self.port = open_port(self.url)
            except OSError as e:  # (ports.PortError is one)
                raise LinkLost("%s: cannot open: %s" % (self.where, e.strerror or e)) from None
        self.link = open_link(self.port, self.serial, self.key, self.timeout)  # (as patient as the pit)
        got = self.ask(W.DEALS, bytes(4) + b"\1")  # the last game: the table's game; a first answer
        game = got[-1]["game"] if got else None
        self.ask(W.SUBSCRIBE, b"\1", W.NOTICE)  # answered by a NOTICE: its numbers and state
        return {"table": self.name, "game": game or "unknown", "variant": "", "state": self.state}

    def fetch(self, records, events, limit=500):
        return fetch(self, records, events, limit)

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
        from tapis.firmware.wire import CLEAR
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
        from tapis.firmware.wire import CLEAR
        if action == "verify":
            return self.verify(bytes.fromhex(seed))
        arg = {"clear": 0, "disable": 2, "enable": 3}[action]
        got = self.ask(W.BUTTON, bytes((CLEAR, arg)))
        if not got:
            return "nothing to %s" % action
        return "; ".join("#%d %s: %s" % (e["n"], e["c"], e["d"]) for e in got)

    def answer(self, ftype, payload, want):
        """One question, the payload of its one-frame answer of type `want`; LinkLost when none comes."""
        from tapis.firmware import wire as W
        with self.lock:
            if self.link is None:
                raise LinkLost("%s: the link is down" % self.where)
            try:
                self.link.send(W.HOST, ftype, payload)
            except (OSError, TypeError, ValueError, AttributeError) as e:  # (the port closed under it)
                self.link = None
                raise LinkLost("%s: %s" % (self.where, e)) from None
            deadline = time.monotonic() + self.timeout
            while time.monotonic() < deadline:
                for _a, _s, t, p in self._poll():
                    if t == want:
                        return bytes(p)
                if self.step is not None:
                    self.step()
                else:
                    time.sleep(0.002)
        self.link = None
        raise LinkLost("%s: no answer to 0x%02x" % (self.where, ftype))

    def verify(self, seed):
        from tapis.firmware import wire as W
        p = self.answer(W.VERIFY, seed, W.CHECKED)
        if p[:1] in (b"\0", b"\2"):  # 2: an emulated board's, over the files it runs (no manifest)
            self.emulated = p[:1] == b"\2"
            return p[1:33].hex()
        raise LinkRefused(p[1:].decode(errors="replace"))

    emulated = False  # its last answer was an emulated board's (tapis table --host-port)

    def expected(self, seed):
        """What the board must answer the seed: from what the host flashed to the device it is
        named after (flash_keys.image_path, host/flash/verify.py), or an emulated board's from the
        firmware files here (host/flash/verify.py emulated); None when the host holds none."""
        from tapis.host.keys import image_path
        from tapis.host.flash.verify import emulated, expected, load_kept
        if self.emulated:
            return emulated(bytes.fromhex(seed)).hex()
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
