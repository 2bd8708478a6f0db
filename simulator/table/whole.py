# Clean frames handed whole (simulator/table/clock.py, issue 33.3). A wire (wires.py) moves a few
# bytes a millisecond; a lazy end is handed each clean frame whole instead, in the
# millisecond its last byte arrives. Its reader's decoder (firmware/link/frames.py) finds the same
# frame in the same millisecond: a frame is clean when a decoder at rest takes it in exactly
# as it would a few bytes at a time (clean() below), and the end takes it whole only if its
# decoder is at rest when the first byte comes. A frame a bus device would only hear go by
# (to another address) is not handed over at all: its decoder would end where it began.
# Anything else (a collision, a corrupted frame, a frame too long for the reader, a decoder
# not at rest) goes to the end a millisecond at a time, as always; what was held back of a
# frame is handed over at once when it must (a collision, the end of a lazy run), as the
# bytes a reader stepped each millisecond would have read already.
#
# A write is a segment of the writer's tx: [bytes not on the line yet, the frame if clean,
# the ends that take it a millisecond at a time, the ends handed it whole], the two lists
# made when its first byte goes.
from tapis.firmware.link.frames import SOF, crc16


class WholeEnd:
    """A WireEnd's part: what its reader's decoder is, and what it may ignore."""

    def __init__(self):
        self.segs = []  # this end's writes still in tx, oldest first
        self.queued = 0  # the bytes segs account for (tx cleared behind their back: none clean)
        self.lazy = False
        self.holding = None  # the segment of the clean frame coming to it whole
        self.synced = False  # the reader's decoder takes each clean frame whole, as it comes
        self.banked = 0  # bytes in inbox handed over late: a reader stepped each ms had them
        self.max_in = 1024  # the longest payload the reader's decoder takes
        self.longest = -1  # the longest frame it may be handed whole (lazy: max_in + 8; -1: none)
        self.at_rest = None  # () -> the reader's decoder holds no bytes
        self.ignores = None  # (address) -> a whole clean frame to it changes nothing at the reader

    def bank(self, data):
        """Bytes that came over earlier milliseconds, handed over now (a reader stepped
        each millisecond would have read them then: no overrun)."""
        self.inbox += data
        self.banked += len(data)

    def unheld(self):
        """What came of the frame it is to be handed whole, handed over now: the reader takes
        the rest of it a millisecond at a time (a collision, the end of a lazy run)."""
        seg = self.holding
        if seg is not None:
            self.holding = None
            frame = seg[1]
            self.bank(frame[:len(frame) - seg[0]])
            seg[3].remove(self)
            seg[2].append(self)
        self.synced = False

    def takes_whole(self, frame):
        """A clean frame begins: is this end handed it whole? Its decoder must be at rest
        when its first byte comes, as it is after a clean frame taken whole."""
        if len(frame) > self.longest:  # not lazy; or too long; or a millisecond's bytes
            self.synced = False  # overrun its buffer (they go a millisecond at a time)
            return False
        if not self.synced:
            self.synced = not self.inbox and self.holding is None and self.at_rest()
        return self.synced


class WholeLine:
    """A Wire's part: clean frames carried to the ends, milliseconds of credit at once."""

    def __init__(self):
        self.lazy = False  # some end is lazy: writes are checked for clean frames
        self.written = False  # written to since clock.py last looked

    def alone(self):
        """The one end talking, if its bytes on the line now are of a clean frame handed
        whole to every other end: nothing shows of it before its last byte (else None)."""
        one = None
        for e in self.ends:
            if e.tx:
                if one is not None:
                    return None
                one = e
        if one is None or one.queued != len(one.tx) or not one.segs:
            return None
        seg = one.segs[0]
        return one if seg[2] is not None and not seg[2] and seg[0] else None

    def wake(self, now):
        """The first millisecond after `now` in which step shows something (bytes in an
        inbox), with no more writes meanwhile: advance() may take the ones before at once."""
        if not self.busy:
            return 1 << 62
        e = self.alone()
        if e is None:
            return now + 1
        c, left, per = self.credit[e], e.segs[0][0], self.per_ms
        while True:
            now += 1
            c += per
            k = int(c)
            if k >= left:
                return now
            c -= k
            left -= k

    def advance(self, now):
        """Step up to `now`, milliseconds before wake() in which only credit is spent at once."""
        while self.at < now:
            if not self.busy:
                self.at = now
                return
            e = self.alone()
            if e is None:
                self.step(self.at + 1)
                continue
            c, seg, per = self.credit[e], e.segs[0], self.per_ms
            left, n, m = seg[0], 0, self.at
            while m < now:
                k = int(c + per)
                if k >= left:
                    break
                c += per
                c -= k
                left -= k
                n += k
                m += 1
                if k:
                    e.spoke = m
            if m == self.at:  # its last byte goes in the next millisecond
                self.step(m + 1)
                continue
            self.credit[e] = c
            seg[0] = left
            e.queued -= n
            del e.tx[:n]
            e.sent += n
            self.bytes += n
            self.at = m

    def spent(self, e, n):
        """n bytes of e's writes went on the line (their segments used up)."""
        segs = e.segs
        e.queued -= n
        while n and segs:
            k = min(n, segs[0][0])
            segs[0][0] -= k
            n -= k
            if not segs[0][0]:
                del segs[0]

    def carry(self, sender, data, n, sent=0):
        """data[:n], the bytes sender put on the line this ms, to every other end, write by
        write (a segment of sender.segs: [bytes left, the frame if clean, the ends that
        take it a millisecond at a time, the ends handed it whole]); `sent` of them already
        gone from sender.tx."""
        if sender.queued != len(sender.tx) + sent:  # tx emptied behind segs' back
            sender.segs = [[len(sender.tx) + sent, None, None, None]]
        sender.queued -= n
        segs = sender.segs
        off = 0
        while off < n:
            seg = segs[0]
            frame, plain = seg[1], seg[2]
            if plain is None:  # its first byte (or the first since the ends were made lazy)
                plain, whole = seg[2], seg[3] = [], []
                lf = len(frame) if frame is not None and seg[0] == len(frame) else 1 << 30
                for e in self.ends:  # (a lazy end in sync that takes it: the usual, asked inline)
                    if e is not sender:
                        if lf <= e.longest and (e.synced or e.takes_whole(frame)):
                            e.holding = seg
                            whole.append(e)
                        else:
                            e.synced = False
                            plain.append(e)
            k = seg[0] if seg[0] < n - off else n - off
            seg[0] -= k
            if plain:
                piece = bytes(data[off:off + k])
                for e in plain:
                    e.receive(piece)
            off += k
            if not seg[0]:
                del segs[0]
                for e in seg[3]:
                    e.holding = None
                    if not e.ignores(frame[1]):
                        e.bank(frame)


def clean(data):
    """Is data one whole frame that a decoder at rest takes in exactly as it would a few
    bytes at a time? Fed in pieces, a decoder holding part of a frame looks for a whole
    frame with a good CRC further in (frames.Decoder.feed): when none of the frame's
    inner 0xA5 bytes starts one (a 2^-16 coincidence each), the pieces change nothing."""
    n = len(data)
    if n < 8 or data[0] != SOF or (data[4] << 8 | data[5]) != n - 8:
        return False
    if crc16(data[1:n - 2], 0xFFFF) != (data[n - 2] << 8 | data[n - 1]):
        return False
    j = data.find(SOF, 1)
    while 0 <= j <= n - 9:
        m = data[j + 4] << 8 | data[j + 5] if j + 6 <= n else n
        if j + 8 + m < n and crc16(data[j + 1:j + 6 + m], 0xFFFF) == (data[j + 6 + m] << 8 | data[j + 7 + m]):
            return False
        j = data.find(SOF, j + 1)
    return True
