"""The monotonic counter's driver (firmware/link/counter.py) against the emulated ATECC608
(firmware/offboard/atecc608.py), under CPython (tests/test_counter.py imports it) and
unchanged under MicroPython's unix port (its __main__ prints every scenario as JSON).

Each scenario returns plain data: what the driver answered and, for the framing, the
bus transcript, each transaction as [direction, address, bytes in hex or "NACK"] (the
polls NACKed while the part executes are one entry however many there were)."""
import json
import os
import sys

from tapis.firmware.link import counter  # (MicroPython: tests/test_counter.py's tapis package)
from tapis.firmware.offboard.atecc608 import ATECC608, I2C


def _hex(b):
    from binascii import hexlify
    return hexlify(bytes(b)).decode()


class Recorder:
    """An I2C that logs each transaction of the one it wraps."""

    def __init__(self, bus):
        self.bus, self.log = bus, []

    def _note(self, entry):
        if not self.log or self.log[-1] != entry or entry[2] != "NACK":
            self.log.append(entry)

    def _logged(self, kind, addr, call, shown=None):
        try:
            got = call()
        except OSError:
            self._note([kind, addr, "NACK"])
            raise
        self._note([kind, addr, _hex(got if shown is None else shown)])
        return got

    def writeto(self, addr, buf, stop=True):
        return self._logged("w", addr, lambda: self.bus.writeto(addr, buf), buf)

    def readfrom(self, addr, n, stop=True):
        return self._logged("r", addr, lambda: self.bus.readfrom(addr, n))


def refused(call):
    try:
        return ["answered", call()]
    except counter.CounterError as e:
        return ["CounterError", e.status, str(e)]


def crc_vectors():
    """The wake's answer (the datasheet's 04 11 33 43), the Counter commands' packets."""
    return {"wake": "%04x" % counter.crc16(b"\x04\x11"),
            "read0": _hex(counter.packet(bytes((0x24, 0, 0, 0)))),
            "increment0": _hex(counter.packet(bytes((0x24, 1, 0, 0)))),
            "increment1": _hex(counter.packet(bytes((0x24, 1, 1, 0))))}


def framing():
    rec = Recorder(I2C(ATECC608()))
    c = counter.find(rec)
    found = rec.log[:]
    del rec.log[:]
    value = c.increment()
    return {"found": found, "increment": rec.log, "value": value}


def increments(path):
    c = counter.find(I2C(ATECC608(path)))
    seen = [c.read()] + [c.increment() for _ in range(5)] + [c.read()]
    again = counter.find(I2C(ATECC608(path))).read()  # the part powered up again: its EEPROM
    other = counter.Counter(I2C(ATECC608(path)), which=1).read()
    return {"seen": seen, "after power-up": again, "counter 1": other}


def limit():
    part = ATECC608(counters=(counter.LIMIT - 1, 7))
    c = counter.find(I2C(part))
    return {"last": c.increment(), "beyond": refused(c.increment), "read": c.read(),
            "counter 1": counter.Counter(I2C(part), which=1).increment()}


def no_part():
    return {"empty bus": counter.find(I2C()) is None,
            "another address": counter.find(I2C(ATECC608(address=0x35))) is None,
            "400 kHz wake": counter.find(I2C(ATECC608(), freq=400000)) is None,
            "read with none": refused(counter.Counter(I2C()).read)}


def bad_answers():
    part = ATECC608()
    c = counter.find(I2C(part))
    part.wrong = 1  # the next answer's CRC spoiled on the wire
    spoiled = refused(c.increment)
    bus = I2C(part)
    c.wake()
    cmd = bytearray(counter.packet(bytes((0x24, 1, 0, 0))))
    cmd[-1] ^= 0x40  # a command whose CRC the part finds wrong
    bus.writeto(counter.ADDRESS, b"\x03" + bytes(cmd))
    status = c._answer()
    c.sleep()
    parse = counter.Counter(I2C(part), which=2)  # no counter 2: a parse error
    return {"spoiled CRC": spoiled, "count made": c.read(), "bad command CRC": _hex(status),
            "counter 2": refused(parse.read), "wrong wake": refused(lambda: counter.find(Babbler()))}


class Babbler:
    """Something at the part's address that answers, but not as the part does."""

    def writeto(self, addr, buf, stop=True):
        if addr != counter.ADDRESS:
            raise OSError(5)
        return len(buf)

    def readfrom(self, addr, n, stop=True):
        return bytes(n)


def scenarios(path):
    return {"crc": crc_vectors(), "framing": framing(), "increments": increments(path),
            "limit": limit(), "no part": no_part(), "bad answers": bad_answers()}


if __name__ == "__main__":
    path = sys.argv[1]
    try:
        os.remove(path)
    except OSError:
        pass
    print(json.dumps(scenarios(path)))
