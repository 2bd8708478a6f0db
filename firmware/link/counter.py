# The board's monotonic counter off the flash: the Counter command of a Microchip ATECC608
# secure element on I2C (docs/hardware.md: the part and its pins; docs/security.md: why).
# The counter lives in the part's EEPROM and only goes up, so no edit of the flash can roll
# it back. The framing, byte for byte (the datasheet's I2C interface and Counter command):
#
#   wake      SDA held low >= 60 us (tWLO): a write to address 0 at 100 kHz holds it 80 us;
#             1.5 ms later (tWHI) the part reads back 04 11 33 43 (count, 0x11 "after wake", CRC)
#   command   word address 0x03, then count (7), opcode 0x24, param1 (the mode: 0 read,
#             1 increment), param2 (the counter, 0 or 1: 2 bytes LE), CRC-16 of count..param2 (LE)
#   response  count (7), the counter's value (4 bytes LE), CRC-16; or a status packet:
#             count (4), the status (STATUS), CRC-16
#   sleep     word address 0x01: the part's volatile state reset (the counters are in EEPROM)
#
# While it executes (Counter: 25 ms at most) the part does not ACK its address: the read is
# retried. CRC-16: polynomial 0x8005, initial 0, each byte's bits fed lowest first into a
# register shifted left; sent low byte first.
from ..compat import const
from ..wire import NO_COUNTER

try:
    from time import sleep_ms, sleep_us  # type: ignore
except ImportError:  # CPython: the CPython board and the tests
    from time import sleep

    def sleep_ms(ms):
        sleep(ms / 1000)

    def sleep_us(us):
        sleep(us / 1000000)

ADDRESS = const(0x60)  # the part's I2C address as shipped (0xC0 with the R/W bit)
LIMIT = const(2097151)  # the datasheet's last count: an increment beyond it is an execution error
FREQ = const(100000)  # the bus's rate: the wake's address byte of zeros holds SDA low 80 us
OPCODE = const(0x24)  # Counter
WAKE_REPLY = b"\x04\x11\x33\x43"
_WAKE_US = const(1500)  # tWHI: from the wake to the first byte the part answers
_POLL_MS = const(50)  # the execution's polls, 1 ms apart (Counter: 25 ms at most)
STATUS = ((0x01, "checkmac or verify miscompare"), (0x03, "parse error"), (0x05, "ECC fault"),
          (0x07, "self-test error"), (0x08, "health test error"), (0x0F, "execution error"),
          (0x11, "after wake"), (0xEE, "watchdog about to expire"), (0xFF, "CRC or communication error"))


class CounterError(Exception):
    """The part answered wrongly or stopped answering mid-command: a bad CRC, a status
    packet (its code in .status: 0x0F at the limit), a wake not answered as the datasheet says."""

    def __init__(self, why, status=None):
        super().__init__(why)
        self.status = status


def crc16(data):
    """The part's CRC-16 of these bytes (an int; a packet carries it low byte first)."""
    crc = 0
    for b in data:
        for i in range(8):
            flip = (b >> i & 1) != crc >> 15
            crc = crc << 1 & 0xFFFF
            if flip:
                crc ^= 0x8005
    return crc


def packet(body):
    """These bytes with their count in front and their CRC-16 behind: a command or an answer."""
    head = bytes((len(body) + 3,)) + body
    c = crc16(head)
    return head + bytes((c & 0xFF, c >> 8))


def opened(reply):
    """A response packet's data, its count and CRC checked; a status packet's error raised."""
    n = len(reply)
    if n < 4 or reply[0] != n or crc16(reply[:-2]) != reply[-2] | reply[-1] << 8:
        raise CounterError("the counter's answer failed its CRC: %s" % _hex(reply))
    if n == 4 and reply[1]:
        s = reply[1]
        raise CounterError("the counter refused: status 0x%02x, %s" % (s, dict(STATUS).get(s, "unknown")), s)
    return reply[1:-2]


def _hex(b):
    from binascii import hexlify
    return hexlify(b).decode()


class Counter:
    """Counter `which` (0 or 1) of the part at `address` on `i2c` (a machine.I2C at FREQ, or
    anything with its writeto and readfrom). Each call wakes the part, runs one Counter
    command and puts it back to sleep."""

    def __init__(self, i2c, address=ADDRESS, which=0):
        self.i2c, self.address, self.which = i2c, address, which

    def read(self):
        return self._run(0)

    def increment(self):
        """The counter one up; its new value (CounterError with status 0x0F past LIMIT)."""
        return self._run(1)

    def _run(self, mode):
        try:
            self.wake()
            self.i2c.writeto(self.address, b"\x03" + packet(bytes((OPCODE, mode, self.which, 0))))
            data = opened(self._answer())
        except OSError as e:
            raise CounterError("the counter stopped answering (I2C error %s)" % (e.args[0] if e.args else "?"))
        finally:
            self.sleep()
        if len(data) != 4:
            raise CounterError("the counter answered %d bytes, not 4" % len(data))
        return int.from_bytes(data, "little")

    def wake(self):
        """The part woken and its answer checked (OSError: nothing answered)."""
        self.sleep()  # one left awake (a reset mid-command) would not hear the wake
        try:
            self.i2c.writeto(0, b"\x00")  # nothing ACKs the general call: SDA was low, that is all
        except OSError:
            pass
        sleep_us(_WAKE_US)
        reply = self.i2c.readfrom(self.address, 4)
        if reply != WAKE_REPLY:
            raise CounterError("the counter's wake answered %s, not %s" % (_hex(reply), _hex(WAKE_REPLY)))

    def sleep(self):
        try:
            self.i2c.writeto(self.address, b"\x01")
        except OSError:  # asleep already: it ACKs nothing
            pass

    def _answer(self):
        """The response packet, its count read first, once the part ACKs again."""
        for _ in range(_POLL_MS):
            try:
                n = self.i2c.readfrom(self.address, 1)[0]
                break
            except OSError:
                sleep_ms(1)
        else:
            raise CounterError("the counter did not answer within %d ms" % _POLL_MS)
        if not 4 <= n <= 7:
            raise CounterError("the counter's answer has a count of %d" % n)
        return bytes((n,)) + self.i2c.readfrom(self.address, n - 1)


def find(i2c, address=ADDRESS, which=0):
    """The counter on this bus, or None when no part answers its address. A part that
    answers wrongly raises CounterError: it is there, and a fault is not an absence."""
    c = Counter(i2c, address, which)
    try:
        c.wake()
    except OSError:
        return None
    c.sleep()
    return c




def said(c):
    """What the power-up entry and the verify answer say of the board's counter `c` (None:
    none): its value read now, that it has none, or its fault."""
    if c is None:
        return NO_COUNTER  # (docs/security.md: the exposure)
    try:
        return "monotonic counter %d" % c.read()
    except CounterError as e:
        return "monotonic counter failed: %s" % e


def probe(i2c):
    """At boot: (the Counter or None, said of it). A part that answers wrongly is kept, its
    fault said: it is there, and a fault is not an absence."""
    try:
        c = find(i2c)
    except CounterError as e:
        return Counter(i2c), "monotonic counter failed: %s" % e
    return c, said(c)


def on_board(pins):
    """probe() of the board's I2C (boards.BOARDS' "counter": the I2C's id, SDA pin, SCL pin)."""
    from machine import I2C, Pin  # type: ignore
    return probe(I2C(pins[0], sda=Pin(pins[1]), scl=Pin(pins[2]), freq=FREQ))
