# The shoe's plain-text dialect (docs/protocol.md): one line per event, ASCII, ending in
# LF (CR LF accepted): a card code (`KH`, `TS` or `10S`), or `ERR <code> [args]` for a
# fault, with the fault letters of wire.py: `ERR U` card not read, `ERR F KH` card face
# up, `ERR D 7S 8S` two cards together, `ERR J` jam, `ERR E` empty, `ERR C` cut card,
# `ERR T 1` dealt out of turn (seat). Simple readers and some real shoes speak it; a
# line becomes the CARD or FAULT payload a framed shoe would have sent. Also the names
# of frame types, for people reading traffic.
from .. import wire as W
from ..cards import CardError, name, parse
from .device import PAIR

TYPE_NAMES = {W.CARD: "CARD", W.FAULT: "FAULT", W.DRAW: "DRAW", W.SHUFFLE: "SHUFFLE",
              W.BUTTON: "BUTTON", W.SHOW: "SHOW", W.ACK: "ACK", W.NAK: "NAK", W.HELLO: "HELLO",
              W.PING: "PING", W.POLL: "POLL", W.RECALL: "RECALL", W.RECORD: "RECORD",
              W.SUPERVISE: "SUPERVISE", W.COUNT: "COUNT", W.VERIFY: "VERIFY", W.CHECKED: "CHECKED",
              PAIR: "PAIR"}  # frames in words (PAIR: device.py, on a device's own port)
JAM = 0x4A  # "J": a jam, as a text-dialect shoe reports it; the board asks again for what is due
FAULT_MEANINGS = {W.UNREAD: "card not read", W.FACE_UP: "card delivered face up",
                  W.DOUBLE: "two cards delivered together", JAM: "jam", W.EMPTY: "shoe empty",
                  W.CUT: "cut card reached", W.OUT_OF_TURN: "dealt out of turn"}
CARD_ARGS = (W.FACE_UP, W.DOUBLE)  # faults whose argument bytes are card codes
MAX_LINE = 256  # a longer run of bytes without a line end is garbage


class TextError(ValueError):
    pass


def fault_line(payload):
    """A FAULT payload -> its text line without ERR, e.g. b"F\\x1b" -> "F KH"."""
    if not payload:
        return "?"
    code = payload[0]
    words = [chr(code)]
    for b in payload[1:]:
        if code in CARD_ARGS:
            try:
                words.append(name(b))
            except CardError:
                words.append("%02X" % b)
        else:
            words.append(str(b))
    return " ".join(words)


def meaning(payload):
    return FAULT_MEANINGS.get(payload[0], "unknown fault") if payload else "unknown fault"


def parse_line(line):
    """A text-dialect line -> (CARD, code) or (FAULT, payload bytes); TextError if neither."""
    words = line.strip().split()
    if not words:
        raise TextError("an empty line")
    if words[0].upper() == "ERR":
        if len(words) < 2 or len(words[1]) != 1 or not words[1].isalpha():
            raise TextError("ERR needs a one-letter fault code, got %r" % (line,))
        code = ord(words[1].upper())
        try:
            args = [parse(w) if code in CARD_ARGS else int(w) for w in words[2:]]
        except (CardError, ValueError):
            raise TextError("bad fault argument in %r" % (line,))
        for a in args:
            if not 0 <= a < 256:
                raise TextError("fault argument out of range in %r" % (line,))
        return W.FAULT, bytes([code] + args)
    if len(words) != 1:
        raise TextError("expected one card code or ERR, got %r" % (line,))
    try:
        return W.CARD, parse(words[0])
    except CardError as e:
        raise TextError(str(e))


def card_line(code):
    return (name(code) + "\n").encode()


def fault_text(payload):
    """A FAULT payload as the dialect's whole line, e.g. "ERR F KH"."""
    return "ERR " + fault_line(payload)
