"""The dealer shoe from the host: decode its traffic in either dialect, and act as one.

Two dialects (docs/protocol.md): frames, the framed protocol of every link
(firmware/link/frames.py), and text, one line per event (firmware/offboard/dialect.py). The monitor
detects the dialect from the first thing it can decode: a frame with a good CRC, or a
whole line that is a card or an ERR. It counts what it saw (`Monitor.summary()`): frames,
CRC errors, resynchronisations, bytes outside any frame, frames sent again (`resent`).

A capture (`tapis shoe monitor --capture FILE`) is JSON lines: a header
{"schema": CAPTURE, "port", "baud", "time"}, then one {"t": seconds, "hex": bytes} per read;
`tapis shoe monitor --from FILE` decodes it again as it was seen live.
"""
import json

from tapis.firmware.offboard import deck
from tapis.firmware.offboard import dialect as D
from tapis.firmware.link import frames as F
from tapis.firmware import wire as W
from tapis.firmware.cards import CardError, name

EVENT = "tapis.shoe.event/1"  # one decoded frame or line (and BYTES, a raw read, with --hex)
SUMMARY = "tapis.shoe.summary/1"  # what the monitor counted, at its end
CAPTURE = "tapis.shoe.capture/1"  # the header line of a capture file
UNSEQUENCED = (W.ACK, W.NAK, W.HELLO)  # never sent again as such: not marked resent
RECENT = 128  # frames remembered per address to tell one sent again


def describe_frame(addr, seq, ftype, payload):
    ev = {"dialect": "frames", "addr": addr, "seq": seq,
          "type": D.TYPE_NAMES.get(ftype, "0x%02X" % ftype)}
    payload = bytes(payload)
    if len(payload) >= 6 and ftype in (W.CARD, W.FAULT, W.DRAW, W.SHUFFLE):
        ev["payload"] = payload.hex()  # sealed (a paired shoe's session): its card unreadable here
    elif ftype == W.CARD and len(payload) == 1:
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


class CountingDecoder(F.Decoder):
    """The firmware's frame decoder, counting for the monitor why it resynchronised: each
    dropped start byte is a resync (Decoder.errors), a CRC error when a whole frame was
    there and its CRC was wrong (else its length was impossible)."""

    def __init__(self):
        F.Decoder.__init__(self)
        self.crc_errors = 0
        self.fed = self.framed = 0

    def _drop(self):
        buf = self.buf
        n = buf[4] << 8 | buf[5] if len(buf) >= 6 else W.MAX_PAYLOAD + 1
        if n <= W.MAX_PAYLOAD and len(buf) >= n + 8:
            self.crc_errors += 1
        F.Decoder._drop(self)

    def feed(self, data):
        self.fed += len(data)
        frames = F.Decoder.feed(self, data)
        self.framed += sum(8 + len(f[3]) for f in frames)
        return frames

    def skipped(self):
        """Bytes that were part of no frame: line noise, and the bytes of corrupt frames."""
        return self.fed - self.framed - len(self.buf)


class Monitor:
    """feed(bytes) -> decoded events (dicts); the dialect is fixed by the first success.
    A frame seen again (same address, sequence, type and payload as one of the last
    RECENT from that address) is marked "resent": the link sent it again."""

    def __init__(self, dialect=None):
        self.dialect = dialect  # None: detect; "frames" or "text"
        self.decoder = CountingDecoder()
        self.text = b""
        self.recent = {}  # addr -> [(seq, type, payload)], oldest first
        self.counts = {"bytes": 0, "frames": 0, "lines": 0, "cards": 0, "faults": 0, "resent": 0,
                       "garbled": 0}

    def feed(self, data):
        self.counts["bytes"] += len(data)
        events = []
        if self.dialect in (None, "frames"):
            frames = self.decoder.feed(data)
            if frames and self.dialect is None:
                self.dialect, self.text = "frames", b""
            events += [self._frame(*f) for f in frames]
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
                        self.counts["lines"] += 1
                        self.counts["garbled"] += 1
                        events.append({"dialect": "text", "type": "GARBLED", "line": line, "error": str(e)})
                    continue
                if self.dialect is None:
                    self.dialect = "text"
                    self.decoder = CountingDecoder()
                self.counts["lines"] += 1
                events.append(self._count(describe_text(kind, value, line)))
            if len(self.text) > D.MAX_LINE:
                self.text = self.text[-D.MAX_LINE:]
        return events

    def _frame(self, addr, seq, ftype, payload):
        ev = describe_frame(addr, seq, ftype, payload)
        self.counts["frames"] += 1
        if ftype not in UNSEQUENCED:
            key = (seq, ftype, bytes(payload))
            seen = self.recent.setdefault(addr, [])
            if key in seen:
                ev["resent"] = True
                self.counts["resent"] += 1
                return ev
            seen.append(key)
            del seen[:-RECENT]
        return self._count(ev)

    def _count(self, ev):
        if ev["type"] == "CARD":
            self.counts["cards"] += 1
        elif ev["type"] == "FAULT":
            self.counts["faults"] += 1
        return ev

    def summary(self):
        """What was seen: "bytes"; "frames" (good ones), "crc_errors", "resyncs", "skipped"
        (bytes in no frame), "resent"; "lines", "garbled" (text); "cards" and "faults" (new
        ones: not counting those resent)."""
        d = self.decoder
        return dict(self.counts, dialect=self.dialect, crc_errors=d.crc_errors, resyncs=d.errors,
                    skipped=d.skipped() if self.dialect != "text" else 0)


def render(ev):
    """One readable line for an event (no timestamp)."""
    if ev["type"] == "BYTES":
        return "bytes  %3d: %s" % (len(ev["hex"]) // 2, hex_view(bytes.fromhex(ev["hex"])))
    if ev["dialect"] == "frames":
        head = "frames %02X #%03d %-7s" % (ev["addr"], ev["seq"], ev["type"])
    else:
        head = "text   %-7s" % ev["type"]
    tail = " (resent)" if ev.get("resent") else ""
    if "card" in ev:
        return head + " " + ev["card"] + tail
    if "fault" in ev:
        return head + " %s (%s)" % (ev["fault"], ev["meaning"]) + tail
    if "n" in ev:
        return head + " %d cards" % ev["n"] + tail
    if "pack" in ev:
        return head + " pack of %d" % ev["pack"] + tail
    if "line" in ev:
        return head + " %r: %s" % (ev["line"], ev["error"])
    return head + (" " + ev["payload"] if "payload" in ev else "") + tail


def render_summary(s):
    if s["dialect"] == "text":
        return "%d lines: %d cards, %d faults, %d garbled" % (s["lines"], s["cards"], s["faults"], s["garbled"])
    return ("%d bytes, %d frames: %d cards, %d faults; %d resent, %d CRC errors, %d resyncs, %d bytes "
            "outside any frame" % (s["bytes"], s["frames"], s["cards"], s["faults"], s["resent"],
                                   s["crc_errors"], s["resyncs"], s["skipped"]))


def hex_view(data):
    """Bytes as hex, then as ASCII (dots for the rest): `A5 10 0B  ...`."""
    return "%s  |%s|" % (data.hex(" ").upper(), "".join(chr(b) if 32 <= b < 127 else "." for b in data))


def capture_header(port, baud, time):
    return json.dumps({"schema": CAPTURE, "port": port, "baud": baud, "time": time}) + "\n"


def capture_line(t, data):
    return json.dumps({"t": round(t, 6), "hex": data.hex()}) + "\n"


class CaptureError(ValueError):
    pass


def read_capture(lines):
    """(header, [(t, bytes)]) from a capture's lines; CaptureError saying which line is wrong."""
    lines = iter(lines)
    try:
        header = json.loads(next(lines))
    except StopIteration:
        raise CaptureError("the capture is empty") from None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("schema") != CAPTURE:
        raise CaptureError("not a tapis shoe capture (its first line names no %r)" % CAPTURE)
    chunks = []
    for i, line in enumerate(lines, 2):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            chunks.append((float(rec["t"]), bytes.fromhex(rec["hex"])))
        except (ValueError, KeyError, TypeError):
            raise CaptureError("line %d of the capture is not a read: %r" % (i, line[:60])) from None
    return header, chunks


def text_pack(pack, decks, rng):
    """The streaming emulator's shuffled pack: `decks` packs of `pack` cards."""
    cards = [c for _ in range(decks) for c in deck.pack(pack)]
    return deck.shuffle(cards, rng.below)
