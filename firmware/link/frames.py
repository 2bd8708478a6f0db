# The frame codec of every serial link (docs/protocol.md is the byte-level reference):
#
#   SOF(0xA5) ADDR SEQ TYPE LEN_HI LEN_LO PAYLOAD... CRC_HI CRC_LO
#
# The CRC is CRC-16/CCITT-FALSE over ADDR..PAYLOAD. The decoder is a stream: feed it
# whatever bytes the port had and it returns the whole frames; on a bad CRC or a bad
# length it drops the start byte and resynchronises on the next 0xA5. The names of
# addresses and types are in wire.py.
from array import array

from ..compat import const
from ..wire import MAX_PAYLOAD

SOF = const(0xA5)
_HEADER = const(6)


class FrameError(ValueError):
    pass


# 512 bytes: a list of ints would take twice that of the board's heap. The CRC is linear
# (the entry of i ^ j is the entries' xor), so only the 8 powers of two are shifted out bit
# by bit: the import took 51 ms of the Pico's boot when all 256 were.
_TABLE = array("H", [0])
h = c = 0
for i in range(1, 256):
    if i & (i - 1) == 0:
        h, c = i, i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
        _TABLE.append(c)
    else:
        _TABLE.append(_TABLE[h] ^ _TABLE[i ^ h])
del i, h, c, _


def crc16_table(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), table-driven: the board's path."""
    t = _TABLE
    for b in data:
        crc = (crc << 8 & 0xFF00) ^ t[(crc >> 8) ^ b]
    return crc


# CPython computes the same CRC in C. MicroPython's binascii has no crc_hqx, so a board
# does not import it: on some ports binascii is a module of Python, whose import alone
# costs the board heap and 44 qstrs (the webassembly port's virtual board: 1 KB).
import sys

if sys.implementation.name == "micropython":
    crc16 = crc16_table
else:
    import binascii
    crc16 = binascii.crc_hqx  # type: ignore


def encode(addr, seq, ftype, payload=b""):
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise FrameError("payload of %d bytes exceeds %d" % (n, MAX_PAYLOAD))
    for what, v in (("address", addr), ("sequence", seq), ("type", ftype)):
        if not 0 <= v <= 255:
            raise FrameError("%s %r is not a byte" % (what, v))
    body = bytes((SOF, addr, seq, ftype, n >> 8, n & 255))  # the header: the CRC runs on
    c = crc16(payload, crc16(body[1:], 0xFFFF))  # over the payload, never joined to it
    return body + payload + bytes((c >> 8, c & 255))


class Decoder:
    """Streaming decoder: feed(bytes) -> list of (addr, seq, type, payload).

    max_payload: longer frames are refused at their header (the board's links take only
    short frames from devices). The CRC work per byte received is bounded: a frame is
    checked once when its bytes are all in, and each place a frame might start is tried
    at most once, so a crafted stream costs at most about 2 * (max_payload + 8) bytes of
    CRC a byte (the work done is counted in `crc_bytes`)."""

    def __init__(self, max_payload=MAX_PAYLOAD):
        self.buf = bytearray()
        self.errors = 0  # corrupt frames dropped
        self.max = max_payload
        self.base = 0  # bytes dropped from the front of buf, ever
        self.tried = {}  # absolute offsets of frame starts found bad once whole
        self.crc_bytes = 0

    def feed(self, data):
        self.buf.extend(data)
        frames = []
        buf = self.buf
        while True:
            start = buf.find(bytes((SOF,)))
            if start < 0:
                self.base += len(buf)
                buf[:] = b""
                break
            if start:
                self.base += start
                buf[:start] = b""
            if len(buf) < _HEADER:
                break
            n = buf[4] << 8 | buf[5]
            if n > self.max:
                self._drop()
                continue
            end = _HEADER + n + 2
            if len(buf) < end:
                # is there a complete frame with a good CRC after the first byte? A frame
                # still waiting for its bytes cannot contain one (but for a 2^-16 CRC
                # coincidence): then its length is wrong, and the decoder moves on rather
                # than wait for up to 1 KB
                sof = bytes((SOF,))
                j = buf.find(sof, 1)
                while 0 <= j <= len(buf) - 8:
                    m = buf[j + 4] << 8 | buf[j + 5]
                    if m <= self.max and j + _HEADER + m + 2 <= len(buf) and self._good(j, m):
                        break
                    j = buf.find(sof, j + 1)
                else:
                    break  # the frame's bytes are still coming
                self._drop()  # this length was damaged: it hides frames
                continue
            if self._good(0, n):
                frames.append((buf[1], buf[2], buf[3], bytes(buf[_HEADER:_HEADER + n])))
                self.base += end
                buf[:end] = b""
            else:
                self._drop()
        if len(self.tried) > 64:
            base = self.base
            for k in [k for k in self.tried if k < base]:
                del self.tried[k]
        return frames

    def _good(self, j, n):
        """Does the whole frame at buf[j] (payload n bytes) pass its CRC? Each start is
        checked once: a bad one is remembered."""
        at = self.base + j
        if at in self.tried:
            return False
        buf = self.buf
        end = j + _HEADER + n + 2
        self.crc_bytes += n + _HEADER - 1
        if crc16(buf[j + 1:j + _HEADER + n], 0xFFFF) == (buf[end - 2] << 8 | buf[end - 1]):
            return True
        self.tried[at] = True
        return False

    def _drop(self):
        self.errors += 1
        self.base += 1
        self.buf[:1] = b""


def decode(frame):
    """Decode exactly one whole frame; raise FrameError if it is not one."""
    d = Decoder()
    got = d.feed(frame)
    if len(got) != 1 or d.buf:
        raise FrameError("not a single valid frame: %r" % (bytes(frame),))
    return got[0]
