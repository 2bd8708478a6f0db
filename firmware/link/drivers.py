# Drivers for the table's devices, each over a Link (link.py): none builds its port, so
# tests and the simulator hand them pipes, and the board hands them UARTs (main.py).
#
# A display's view on the wire (the Encoder below; docs/protocol.md, "SHOW"): only what
# changed since the last SHOW, compactly. The view is the dict a game's table adapter returns (the same the
# TUI and the bots read); a display rebuilds it exactly as JSON would have carried it
# (tuples as lists, dict keys as strings).
#
# A SHOW payload is "F" (a whole view: the display forgets what it had) or "D" (changes),
# then (key, value) pairs and 0xFF key for a key removed. Values, by their first byte:
#   0x00-0x7F  the int 0..127            0x80 None   0x81 False   0x82 True
#   0x83 int16  0x84 int32 (signed, big-endian)         0x8C-0x8F  the int -4..-1
#   0x85 n items: a list     0x86 n (key, value): a dict     0x87 n bytes: a list of ints 0..255
#   0x88 n bytes: a string, kept in the table as its next entry
#   0xA0-0xFE: string 0..94 of the table     0x89 i: string i of the table (95 and up)
#   0x8A hi lo bytes: a string not kept
# Keys are strings. The table (at most _TABLE strings, of at most _SHORT bytes) starts
# empty with each "F": both ends keep it (offboard/device.py has a display's Decoder).
from .. import wire as W
from ..compat import const

_TABLE = const(64)
_SHORT = const(24)
_REFS = const(95)  # strings referred to in one byte


class Encoder:
    """The controller's side, one per display: encode(view) -> a SHOW payload or None."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.sent = None  # type: dict | None  # {key: its value encoded, strings spelt out} the display has
        self.strings = b"\xff"  # the table: each string followed by 0xFF, a byte UTF-8 never has

    def encode(self, view):
        """The payload that brings the display from what it has to `view`; None if the
        same. A whole view after reset()."""
        sent = self.sent
        whole = sent is None
        if sent is None:
            sent = self.sent = {}
            self.strings = b"\xff"
        out = bytearray(b"F" if whole else b"D")
        mark = len(out)
        for k in view:
            plain = bytearray()  # the value on its own, to compare: strings spelt out
            self._value(view[k], plain, False)
            if len(plain) <= 3:  # kept as an int, which takes no heap: 1 then its bytes
                was = 1
                for x in plain:
                    was = was << 8 | x
            else:
                was = bytes(plain)  # a bytearray would hold spare room
            if sent.get(k) != was:
                self._str(str(k), out)
                self._value(view[k], out)
                sent[k] = was
        for k in list(sent):
            if k not in view:
                out.append(0xFF)
                self._str(k, out)
                del sent[k]
        if len(out) == mark and not whole:
            return None
        return bytes(out)

    def _str(self, s, out, table=True):
        b = s.encode()
        n = len(b)
        strings = self.strings
        if table:
            at = strings.find(b"\xff" + b + b"\xff")
            if at >= 0:
                i = strings.count(b"\xff", 0, at)  # the strings before it
                if i < _REFS:
                    out.append(0xA0 + i)
                else:
                    out.append(0x89)
                    out.append(i)
                return
        if table and n <= _SHORT and strings.count(b"\xff") <= _TABLE:
            self.strings = strings + b + b"\xff"
            out.append(0x88)
            out.append(n)
        else:
            out.append(0x8A)
            out.append(n >> 8)
            out.append(n & 255)
        out += b

    def _value(self, v, out, table=True):
        if v is None:
            out.append(0x80)
        elif v is True:
            out.append(0x82)
        elif v is False:
            out.append(0x81)
        elif isinstance(v, int):
            if 0 <= v < 128:
                out.append(v)
            elif -4 <= v < 0:
                out.append(0x90 + v)
            elif -32768 <= v < 32768:
                out.append(0x83)
                v &= 0xFFFF
                out.append(v >> 8)
                out.append(v & 255)
            else:
                out.append(0x84)
                v &= 0xFFFFFFFF
                for sh in (24, 16, 8, 0):
                    out.append((v >> sh) & 255)
        elif isinstance(v, str):
            self._str(v, out, table)
        elif isinstance(v, (list, tuple)):
            n = len(v)
            if n > 255:
                raise ValueError("a view's list holds at most 255 items, not %d" % n)
            small = True  # bytes only: ints 0..255, not bools
            for x in v:
                if x is True or x is False or not isinstance(x, int) or not 0 <= x < 256:
                    small = False
                    break
            if small:
                out.append(0x87)
                out.append(n)
                out += bytes(v)
            else:
                out.append(0x85)
                out.append(n)
                for x in v:
                    self._value(x, out, table)
        elif isinstance(v, dict):
            out.append(0x86)
            out.append(len(v))
            for k in v:  # a key as JSON writes it
                self._str("true" if k is True else "false" if k is False else "null" if k is None
                          else str(k), out, table)
                self._value(v[k], out, table)
        else:
            raise ValueError("a view holds None, bools, ints, strings, lists and dicts, not %r" % (v,))



class Shoe:
    """The dealer shoe: told to load a pack and to deliver n cards, it reports each card."""

    def __init__(self, link, addr=W.SHOE):
        self.link, self.addr = link, addr

    def shuffle(self, size):
        self.link.send(self.addr, W.SHUFFLE, bytes((size,)))

    def draw(self, n):
        self.link.send(self.addr, W.DRAW, bytes((n,)))


class Display:
    """A display shows a view (Encoder: only what changed goes on the wire). While the
    last SHOW still waits for the bus, a newer view waits too, and goes as one change."""

    def __init__(self, link, addr, every=0):
        """every: at most one SHOW in this many ms, unless the view says it is the
        seat's turn (the bus is shared: a display nobody waits on is sent less often)."""
        self.link, self.addr = link, addr
        self.codec = Encoder()
        self.want = None  # a view not sent yet
        self.every = every
        self.at = -every  # when the last SHOW went

    def show(self, view, now=0):
        self.want = view
        self.flush(now)

    def flush(self, now=0):
        if not self.link.alive(self.addr):
            # what it is sent now is dropped (it has the next view whole, when back): the
            # codec must not count it as shown, or the changes after it would name
            # strings the display never got
            self.codec.reset()
            self.want = None
            return
        want = self.want
        if want is None or self.link.waiting(self.addr):
            return
        if now - self.at < self.every and not want.get("turn"):
            return
        data = self.codec.encode(want)
        self.want = None
        if data is not None:
            self.at = now
            self.link.send(self.addr, W.SHOW, data)

    def reset(self):
        """The display lost what it showed (it was reset): the next view goes whole."""
        self.codec.reset()
