"""The dealer shoe from the host: decode its traffic in either dialect, and act as one.

Two dialects (docs/protocol.md): frames, the framed protocol of every link
(firmware/frames.py), and text, one line per event (firmware/dialect.py). The monitor
detects the dialect from the first thing it can decode: a frame with a good CRC, or a
whole line that is a card or an ERR.
"""
from tapis.firmware import deck
from tapis.firmware import dialect as D
from tapis.firmware import frames as F
from tapis.firmware import wire as W
from tapis.firmware.cards import CardError, name


def describe_frame(addr, seq, ftype, payload):
    ev = {"dialect": "frames", "addr": addr, "seq": seq,
          "type": D.TYPE_NAMES.get(ftype, "0x%02X" % ftype)}
    payload = bytes(payload)
    if ftype == W.CARD and len(payload) == 1:
        try:
            ev["card"] = name(payload[0])
        except CardError:
            ev["card"] = "?%02X" % payload[0]
    elif ftype == W.FAULT:
        ev["fault"] = D.fault_line(payload)
        ev["meaning"] = D.meaning(payload)
    elif ftype in (W.DRAW, W.SHUFFLE) and len(payload) == 1:
        ev["n" if ftype == W.DRAW else "pack"] = payload[0]
    elif payload:
        ev["payload"] = payload.hex()
    return ev


def describe_text(kind, value, line):
    if kind == W.CARD:
        return {"dialect": "text", "type": "CARD", "card": name(value)}
    return {"dialect": "text", "type": "FAULT", "fault": D.fault_line(value),
            "meaning": D.meaning(value)}


class Monitor:
    """feed(bytes) -> decoded events (dicts); the dialect is fixed by the first success."""

    def __init__(self, dialect=None):
        self.dialect = dialect  # None: detect; "frames" or "text"
        self.decoder = F.Decoder()
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
                    kind, value = D.parse_line(line)
                except D.TextError as e:
                    if self.dialect == "text":
                        events.append({"dialect": "text", "type": "GARBLED", "line": line, "error": str(e)})
                    continue
                if self.dialect is None:
                    self.dialect = "text"
                    self.decoder = F.Decoder()
                events.append(describe_text(kind, value, line))
            if len(self.text) > D.MAX_LINE:
                self.text = self.text[-D.MAX_LINE:]
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
    cards = [c for _ in range(decks) for c in deck.pack(pack)]
    return deck.shuffle(cards, rng.below)
