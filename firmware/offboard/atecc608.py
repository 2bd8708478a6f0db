# An emulated ATECC608 on I2C, as the virtual and CPython boards see it: the part's bus
# behaviour byte by byte (link/counter.py's header has the framing) and its Counter command,
# its two counters kept in a file of their own (`path`), never among the board's flash
# files, so a flash put back does not roll them back. simulator/pico/atecc608.mjs is the same
# part on the emulated Pico's I2C0.
#
# The bus events are rp2040js's I2C hooks': connect (a start and the address byte), a byte
# written, a byte read, the stop. The part:
# - asleep, it ACKs nothing; SDA held low >= 60 us (the address byte of a write to address
#   0 at <= 133 kHz) wakes it, and 1.5 ms later it answers, 04 11 33 43 ready to be read;
#   awake 1.3 s without a sleep, its watchdog puts it back to sleep;
# - a write's first byte is the word address: 0x00 resets the read pointer, 0x01 sleep,
#   0x02 idle (asleep either way here), 0x03 a command's bytes follow; the command runs at
#   the stop, and for its execution time the part ACKs nothing;
# - the Counter command (opcode 0x24) is the one it executes; any other opcode is refused
#   with a parse error, as a malformed mode or counter is; a count or CRC that does not
#   match is the status 0xFF; an increment past LIMIT the status 0x0F (execution error).
import os
import time

from ..link.counter import ADDRESS, LIMIT, OPCODE, WAKE_REPLY, crc16, packet

WAKE_LOW_US = 60  # tWLO
WAKE_US = 1500  # tWHI
WATCHDOG_US = 1300000  # tWATCHDOG
EXEC_US = 5000  # the Counter command's typical execution time (25 ms at most)
_now = getattr(time, "monotonic_ns", None) or time.time_ns  # MicroPython unix: time_ns


def real_us():
    return _now() // 1000


class ATECC608:
    """The part at `address`, its counters in `path` (8 bytes: two LE u32; None: in memory,
    from `counters`). `clock` gives microseconds (the bus's time: real time by default)."""

    def __init__(self, path=None, address=ADDRESS, counters=(0, 0), clock=real_us):
        self.path, self.address, self.clock = path, address, clock
        self.counters = list(counters)
        if path is not None:
            try:
                with open(path, "rb") as f:
                    raw = f.read()
                self.counters = [int.from_bytes(raw[i:i + 4], "little") for i in (0, 4)]
            except OSError:
                self.save()
        self.woke = None  # when the wake began (None: asleep)
        self.busy_until = 0
        self.word = None  # the word address of the write under way
        self.command = bytearray()
        self.out, self.at = b"", 0
        self.wrong = None  # the tests' fault: a response's CRC spoiled

    def save(self):
        if self.path is not None:
            tmp = self.path + ".tmp"
            with open(tmp, "wb") as f:
                f.write(b"".join(c.to_bytes(4, "little") for c in self.counters))
            os.rename(tmp, self.path)  # the part never loses a count: the file is whole or old

    def _ready(self, now):
        if self.woke is not None and now - self.woke >= WATCHDOG_US:
            self._sleep()
        return self.woke is not None and now - self.woke >= WAKE_US and now >= self.busy_until

    def _sleep(self):
        self.woke, self.command, self.out, self.at = None, bytearray(), b"", 0

    # the bus's events (rp2040js's onConnect, onWriteByte, onReadByte, onStop)

    def connect(self, address, read, low_us):
        """A start and this address byte (SDA held low `low_us` through it); True: ACK."""
        now = self.clock()
        if address == 0 and not read:
            if self.woke is None and low_us >= WAKE_LOW_US:
                self.woke, self.out, self.at = now, WAKE_REPLY, 0
            return False  # the general call is not the part's to ACK
        if address != self.address or not self._ready(now):
            return False
        self.word = None
        return True

    def write(self, b):
        if self.word is None:
            self.word = b
            if b == 0x00:
                self.at = 0
            elif b == 0x03:
                self.command = bytearray()
            return b <= 0x03
        if self.word != 0x03 or len(self.command) >= 155:  # the input buffer's size
            return False
        self.command.append(b)
        return True

    def read(self):
        at, self.at = self.at, self.at + 1
        return self.out[at] if at < len(self.out) else 0xFF

    def stop(self):
        word, self.word = self.word, None
        if word in (0x01, 0x02):
            self._sleep()
        elif word == 0x03 and self.command:
            self.out, self.at = self.execute(bytes(self.command)), 0
            self.command = bytearray()
            self.busy_until = self.clock() + EXEC_US

    def execute(self, cmd):
        """A command packet's answer packet."""
        n = cmd[0]
        if n != len(cmd) or n < 7 or crc16(cmd[:-2]) != cmd[-2] | cmd[-1] << 8:
            return packet(b"\xff")
        op, mode, which = cmd[1], cmd[2], cmd[3] | cmd[4] << 8
        if op != OPCODE or n != 7 or mode > 1 or which > 1:
            return packet(b"\x03")
        if mode == 1:
            if self.counters[which] >= LIMIT:
                return packet(b"\x0f")
            self.counters[which] += 1
            self.save()
        reply = packet(self.counters[which].to_bytes(4, "little"))
        if self.wrong:
            self.wrong -= 1
            reply = reply[:-1] + bytes((reply[-1] ^ 0x01,))
        return reply


class I2C:
    """machine.I2C's writeto and readfrom over emulated parts at `freq` Hz: what the CPython
    and virtual boards hand link/counter.py (MicroPython's unix port has no machine.I2C). A
    NACK raises OSError(EIO), as the Pico's machine.I2C does."""

    def __init__(self, *parts, freq=100000):
        self.parts, self.freq = parts, freq

    def _start(self, addr, read):
        low = 8 * 1000000 // self.freq if addr == 0 else 0  # the address byte's zeros
        acked = [p for p in self.parts if p.connect(addr, read, low)]
        if not acked:
            self._stop()
            raise OSError(5)
        return acked

    def _stop(self):
        for p in self.parts:
            p.stop()

    def writeto(self, addr, buf, stop=True):
        acked = self._start(addr, False)
        n = 0
        for b in buf:
            if not all([p.write(b) for p in acked]):
                self._stop()
                raise OSError(5)
            n += 1
        self._stop()
        return n

    def readfrom(self, addr, n, stop=True):
        acked = self._start(addr, True)
        data = bytes([acked[0].read() for _ in range(n)])
        self._stop()
        return data
