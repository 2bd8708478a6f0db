# A device's end of the table as built, which the board itself never loads: its end of
# the RS-485 bus (bus.py has the controller's) and the view a display rebuilds from SHOW
# payloads (link/drivers.py has the encoder and the format). The emulated devices run it; a
# real panel or display would.
from .. import wire as W
from ..link.bus import say
from ..link.frames import encode
from ..link.link import Link

_DEEP = 8  # a view's lists and dicts nest no deeper (a payload nesting more is refused)
_KEEP = 8  # frames a device keeps after they are acknowledged (Device)


class Device(Link):
    """A device's end of a link. ACK and POLL go plain, so one forged may acknowledge a
    frame the controller never took: a device keeps its last _KEEP frames acknowledged,
    and when the controller's next ACK, NAK or POLL (whose SEQ is the last frame it took)
    shows one it did not take, they are pending again and sent again (taken_back)."""

    def done(self, p, f):
        d = getattr(p, "kept", None)
        if d is None:
            d = p.kept = []
        d.append(f)
        del d[:-_KEEP]

    def take(self, addr, seq, ftype, payload, out):
        t = ftype & 0x7F
        p = self.peers.get(addr)
        if p is not None and not p.greet and getattr(p, "kept", None):
            if t == W.NAK and payload[:1] == bytes((W.NAK_ORDER,)) and self._took(addr, p, (seq - 1) & 255):
                return
            if t == W.POLL:
                self._took(addr, p, seq)
        Link.take(self, addr, seq, ftype, payload, out)
        if t == W.ACK and p is not None and not p.pending and getattr(p, "kept", None):
            self._took(addr, p, seq)

    def _took(self, addr, p, seq):
        """The controller took this end's frames up to `seq`: those kept after it are
        pending again, first, and sent again. True if any."""
        back = [f for f in p.kept if 0 < (f[0] - seq) & 255 < 128]
        if not back:
            return False
        p.kept = [f for f in p.kept if f not in back]
        self.count(p, "taken_back")
        for f in back:
            f[3] = 0
        p.pending = back + [f for f in p.pending if f not in back]
        self.resend(addr, p)
        return True


class BusDevice(Device):
    """A device's end of the bus: it hears every frame on the line, takes those for its
    own addresses, and speaks only when the bus is handed to it."""

    def __init__(self, port, device, serial=b"", addrs=(), **kw):
        Link.__init__(self, port, device, serial, speaks=addrs, **kw)
        self.addrs = tuple(addrs)
        self.held = []

    def put(self, addr, frame):
        if frame not in self.held:  # a HELLO goes first: what follows it may be of its session
            if frame[3] & 0x7F == W.HELLO:
                self.held.insert(0, frame)
            else:
                self.held.append(frame)

    def waiting(self, addr):
        return len(self.held)

    def take(self, addr, seq, ftype, payload, out):
        if addr in self.addrs:
            Device.take(self, addr, seq, ftype, payload, out)

    def poll(self, now_ms=None):
        out = Link.poll(self, now_ms)
        addr = self.turn
        if addr is not None:
            self.turn = None
            for a in self.peers:  # what just came is acknowledged in this answer
                p = self.peers[a]
                if p.ack_due:
                    p.ack_due = False
                    self.control(a, W.ACK, p.rx)
            frames = self.held or [encode(addr, 0, W.POLL)]
            self.held = []
            say(self.port, frames, self.seal)
        return out


class Decoder:
    """A display's side: feed(payload) -> the whole view, as a new dict."""

    def __init__(self):
        self.view = None
        self.strings = []

    def feed(self, data):
        """The view `data` makes; ValueError, and nothing changed, for a payload that does not
        decode (the display asks for the view whole: EmuDisplay): no payload makes it raise
        anything else."""
        strings = self.strings
        n = len(strings)
        try:
            return self._feed(data)
        except (IndexError, KeyError, TypeError, UnicodeError, ValueError) as e:
            self.strings = strings[:n] if data[:1] != b"F" else []
            if data[:1] == b"F":
                self.view = None
            raise ValueError("a SHOW payload that does not decode: %r" % (e,))

    def _feed(self, data):
        if data[:1] == b"F":
            view = {}
            self.strings = []
        elif data[:1] == b"D" and self.view is not None:
            view = dict(self.view)
        else:
            raise ValueError("a SHOW payload begins with F, or D after an F: %r" % (bytes(data[:8]),))
        i = 1
        n = len(data)
        while i < n:
            if data[i] == 0xFF:
                k, i = self._str(data, i + 1)
                view.pop(k, None)
                continue
            k, i = self._str(data, i)
            view[k], i = self._value(data, i)
        self.view = view
        return view

    def _str(self, d, i):
        t = d[i]
        if 0xA0 <= t < 0xFF:
            return self.strings[t - 0xA0], i + 1
        if t == 0x89:
            return self.strings[d[i + 1]], i + 2
        if t == 0x88:
            n = d[i + 1]
            s = bytes(d[i + 2:i + 2 + n]).decode()
            self.strings.append(s)
            return s, i + 2 + n
        if t == 0x8A:
            n = d[i + 1] << 8 | d[i + 2]
            return bytes(d[i + 3:i + 3 + n]).decode(), i + 3 + n
        raise ValueError("not a string at byte %d: 0x%02x" % (i, t))

    def _value(self, d, i, depth=0):
        if depth > _DEEP:
            raise ValueError("a view nested deeper than %d" % _DEEP)
        t = d[i]
        if t < 0x80:
            return t, i + 1
        if t == 0x80:
            return None, i + 1
        if t == 0x81 or t == 0x82:
            return t == 0x82, i + 1
        if 0x8C <= t <= 0x8F:
            return t - 0x90, i + 1
        if t == 0x83:
            v = d[i + 1] << 8 | d[i + 2]
            return v - 65536 if v >= 32768 else v, i + 3
        if t == 0x84:
            v = d[i + 1] << 24 | d[i + 2] << 16 | d[i + 3] << 8 | d[i + 4]
            return v - (1 << 32) if v >= 1 << 31 else v, i + 5
        if t == 0x85:
            n = d[i + 1]
            i += 2
            out = []
            for _ in range(n):
                x, i = self._value(d, i, depth + 1)
                out.append(x)
            return out, i
        if t == 0x86:
            n = d[i + 1]
            i += 2
            out = {}
            for _ in range(n):
                k, i = self._str(d, i)
                out[k], i = self._value(d, i, depth + 1)
            return out, i
        if t == 0x87:
            n = d[i + 1]
            return list(d[i + 2:i + 2 + n]), i + 2 + n
        return self._str(d, i)


# ---- pairing (`tapis pair`): on the device's own port, never on the bus --------------------
PAIR = 0x06  # host -> device: [] who are you; [address, key(32)]*: keep these keys. The
# device answers PAIR [type] + serial to both (the board never loads this: it derives the keys)


def answer_pair(payload, device, serial, keys):
    """A device's answer to a PAIR frame's payload; `keys` ({address: key}) takes what the
    host provisions. ValueError for a payload that is neither."""
    if len(payload) % 33:
        raise ValueError("a PAIR payload is [address, 32-byte key]*, not %d bytes" % len(payload))
    for i in range(0, len(payload), 33):
        keys[payload[i]] = bytes(payload[i + 1:i + 33])
    return bytes((device,)) + bytes(serial)
