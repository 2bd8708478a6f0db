"""The dealer shoe from the host: decode its traffic in either dialect, and act as one.

Two dialects (docs/protocol.md):
- frames: the framed protocol of every link (firmware/protocol.py);
- text: one line per event, ASCII, ending in LF (CR LF accepted): a card code (`KH`, `TS`
  or `10S`), or `ERR <code> [args]` for a fault: `ERR U` card not read, `ERR F KH` card
  delivered face up, `ERR D 7S 8S` two cards together, `ERR J` jam, `ERR E` empty,
  `ERR C` cut card reached, `ERR T 1` dealt out of turn (seat).
The monitor detects the dialect from the first thing it can decode: a frame with a good CRC,
or a whole line that is a card or an ERR.
"""
from tapis.firmware import deck, protocol as P
from tapis.firmware.cards import CardError, name, parse

FAULTS = {"U": "card not read", "F": "card delivered face up", "D": "two cards delivered together",
          "J": "jam", "E": "shoe empty", "C": "cut card reached", "T": "dealt out of turn"}
_CARD_ARGS = "FD"  # faults whose argument bytes are card codes (T's is a seat number)
PACKS = {32: deck.deck32, 36: deck.deck36, 52: deck.deck52}
MAX_LINE = 256


class TextError(ValueError):
    pass


def fault_text(payload):
    """FAULT payload bytes -> the text dialect's line, e.g. b"F\\x1b" -> "ERR F KH"."""
    if not payload:
        return "ERR ?"
    code = chr(payload[0])
    args = payload[1:]
    if code in _CARD_ARGS:
        words = []
        for b in args:
            try:
                words.append(name(b))
            except CardError:
                words.append("%02X" % b)
    else:
        words = [str(b) for b in args]
    return " ".join(["ERR", code] + words)


def parse_line(line):
    """A text-dialect line -> ("CARD", code) or ("FAULT", payload bytes); TextError if neither."""
    words = line.strip().split()
    if not words:
        raise TextError("an empty line")
    if words[0].upper() == "ERR":
        if len(words) < 2 or len(words[1]) != 1 or not words[1].isalpha():
            raise TextError("ERR needs a one-letter fault code, got %r" % (line,))
        code = words[1].upper()
        try:
            args = [parse(w) if code in _CARD_ARGS else int(w) for w in words[2:]]
        except (CardError, ValueError):
            raise TextError("bad fault argument in %r" % (line,)) from None
        if not all(0 <= a < 256 for a in args):
            raise TextError("fault argument out of range in %r" % (line,))
        return "FAULT", bytes([ord(code)] + args)
    if len(words) != 1:
        raise TextError("expected one card code or ERR, got %r" % (line,))
    try:
        return "CARD", parse(words[0])
    except CardError as e:
        raise TextError(str(e)) from None


def card_line(code):
    return (name(code) + "\n").encode()


def describe_frame(addr, seq, ftype, payload):
    ev = {"dialect": "frames", "addr": addr, "seq": seq,
          "type": P.TYPE_NAMES.get(ftype, "0x%02X" % ftype)}
    payload = bytes(payload)
    if ftype == P.CARD and len(payload) == 1:
        try:
            ev["card"] = name(payload[0])
        except CardError:
            ev["card"] = "?%02X" % payload[0]
    elif ftype == P.FAULT:
        ev["fault"] = fault_text(payload)[4:]
        ev["meaning"] = FAULTS.get(ev["fault"][:1], "unknown fault")
    elif ftype in (P.DRAW, P.SHUFFLE) and len(payload) == 1:
        ev["n" if ftype == P.DRAW else "pack"] = payload[0]
    elif payload:
        ev["payload"] = payload.hex()
    return ev


def describe_text(kind, value, line):
    if kind == "CARD":
        return {"dialect": "text", "type": "CARD", "card": name(value)}
    fault = fault_text(value)[4:]
    return {"dialect": "text", "type": "FAULT", "fault": fault,
            "meaning": FAULTS.get(fault[:1], "unknown fault")}


class Monitor:
    """feed(bytes) -> decoded events (dicts); the dialect is fixed by the first success."""

    def __init__(self, dialect=None):
        self.dialect = dialect  # None: detect; "frames" or "text"
        self.decoder = P.Decoder()
        self.text = b""

    def feed(self, data):
        events = []
        if self.dialect in (None, "frames"):
            frames = self.decoder.feed(data)
            if frames and self.dialect is None:
                self.dialect, self.text = "frames", b""
            events += [describe_frame(*f) for f in frames]
        if self.dialect in (None, "text"):
            self.text += data
            while b"\n" in self.text:
                raw, self.text = self.text.split(b"\n", 1)
                line = raw.decode("ascii", "replace").strip()
                if not line:
                    continue
                try:
                    kind, value = parse_line(line)
                except TextError as e:
                    if self.dialect == "text":
                        events.append({"dialect": "text", "type": "GARBLED", "line": line, "error": str(e)})
                    continue
                if self.dialect is None:
                    self.dialect = "text"
                    self.decoder = P.Decoder()
                events.append(describe_text(kind, value, line))
            if len(self.text) > MAX_LINE:
                self.text = self.text[-MAX_LINE:]
        return events


def render(ev):
    """One readable line for an event (no timestamp)."""
    if ev["dialect"] == "frames":
        head = "frames %02X #%03d %-7s" % (ev["addr"], ev["seq"], ev["type"])
    else:
        head = "text   %-7s" % ev["type"]
    if "card" in ev:
        return head + " " + ev["card"]
    if "fault" in ev:
        return head + " %s (%s)" % (ev["fault"], ev["meaning"])
    if "n" in ev:
        return head + " %d cards" % ev["n"]
    if "pack" in ev:
        return head + " pack of %d" % ev["pack"]
    if "line" in ev:
        return head + " %r: %s" % (ev["line"], ev["error"])
    return head + (" " + ev["payload"] if "payload" in ev else "")


def text_pack(pack, decks, rng):
    """The text-dialect emulator's shuffled pack: `decks` packs of `pack` cards."""
    cards = [c for _ in range(decks) for c in PACKS[pack]()]
    return deck.shuffle(cards, rng.below)
