"""The monotonic counter's driver (firmware/link/counter.py) against the emulated ATECC608
(firmware/offboard/atecc608.py): the CRC against known vectors, the framing byte for byte,
increments, the limit, no part, a bad CRC answer; under CPython and, the same scenarios
(tests/counter_driver.py), under MicroPython's unix port."""
import json
import os
import subprocess
import sys

import pytest
from counter_driver import bad_answers, crc_vectors, framing, increments, limit, no_part

from tapis.firmware.link import counter
from tapis.firmware.offboard.atecc608 import ATECC608, I2C, WATCHDOG_US
from tapis.simulator import micropython

HERE = micropython.REPO / "tests"
UNIX = os.path.join(os.path.dirname(sys.executable), "micropython")


def test_the_crc_meets_known_vectors():
    """The datasheet's wake answer (04 11 33 43: CRC 0x4333, sent 33 43), a published Counter
    increment (07 24 01 00 00 0F 77), and for any bytes the Linux driver's form of the same CRC
    (the bit reversal of CRC-16/ARC)."""
    v = crc_vectors()
    assert v["wake"] == "4333"
    assert v["increment0"] == "07240100000f77"
    assert v["read0"] == "07240000000cfd"

    def arc(data):
        c = 0
        for b in data:
            c ^= b
            for _ in range(8):
                c = (c >> 1) ^ 0xA001 if c & 1 else c >> 1
        return c

    for n in range(40):
        data = os.urandom(n % 12)
        assert counter.crc16(data) == int(format(arc(data), "016b")[::-1], 2)


def test_the_framing_byte_for_byte():
    f = framing()
    wake = [["w", 0x60, "NACK"],  # the sleep first (the part asleep ACKs nothing)
            ["w", 0, "NACK"],  # the wake: SDA low through the address byte
            ["r", 0x60, "04113343"]]  # after wake, its CRC
    assert f["found"] == wake + [["w", 0x60, "01"]]
    assert f["increment"] == wake + [
        ["w", 0x60, "03" "07" "24" "01" "0000" "0f77"],  # command: count, opcode, mode, counter 0, CRC
        ["r", 0x60, "NACK"],  # executing: its address not ACKed
        ["r", 0x60, "07"], ["r", 0x60, "01000000" "3c2d"],  # the count, then the value (1, LE) and CRC
        ["w", 0x60, "01"]]  # back to sleep
    assert f["value"] == 1


def test_increments_survive_the_part_powered_up_again(tmp_path):
    r = increments(str(tmp_path / "atecc608.bin"))
    assert r == {"seen": [0, 1, 2, 3, 4, 5, 5], "after power-up": 5, "counter 1": 0}
    assert (tmp_path / "atecc608.bin").read_bytes() == bytes([5, 0, 0, 0, 0, 0, 0, 0])


def test_the_limit_is_an_execution_error_and_the_count_stays():
    r = limit()
    assert r["last"] == counter.LIMIT == 2097151
    assert r["beyond"][:2] == ["CounterError", 0x0F]
    assert r["read"] == counter.LIMIT
    assert r["counter 1"] == 8  # the other counter counts on


def test_no_part_is_none_and_a_read_without_one_is_an_error():
    r = no_part()
    assert r["empty bus"] and r["another address"]
    assert r["400 kHz wake"]  # 20 us of SDA low is not a wake (tWLO is 60 us)
    assert r["read with none"][0] == "CounterError"


def test_bad_answers_are_errors():
    r = bad_answers()
    assert r["spoiled CRC"][0] == "CounterError" and "CRC" in r["spoiled CRC"][2]
    assert r["count made"] == 1  # the answer was spoiled on the wire, the count was made
    assert r["bad command CRC"] == "04ff0142"  # the part's status packet: 0xFF, CRC or communication error
    assert r["counter 2"][:2] == ["CounterError", 0x03]  # parse error
    assert r["wrong wake"][0] == "CounterError"  # something answering wrongly is not "no part"


def test_the_watchdog_puts_an_awake_part_to_sleep():
    now = [0]
    part = ATECC608(clock=lambda: now[0])
    bus = I2C(part)
    with pytest.raises(OSError):
        bus.writeto(0, b"\x00")
    now[0] = 1000
    with pytest.raises(OSError):  # tWHI not yet over
        bus.readfrom(0x60, 4)
    now[0] = 1500
    assert bus.readfrom(0x60, 4) == counter.WAKE_REPLY
    now[0] += WATCHDOG_US
    with pytest.raises(OSError):
        bus.readfrom(0x60, 4)


def test_the_same_scenarios_under_micropython(tmp_path):
    """tests/counter_driver.py's __main__ under the unix port gives what CPython gives."""
    if not os.path.exists(UNIX):
        pytest.skip("the MicroPython unix port is not installed (make install)")
    (tmp_path / "tapis").mkdir()  # a package tapis of the firmware alone (the repository's needs CPython)
    (tmp_path / "tapis" / "__init__.py").write_text("")
    (tmp_path / "tapis" / "firmware").symlink_to(micropython.REPO / "firmware")
    env = dict(os.environ, MICROPYPATH="%s:%s" % (tmp_path, HERE))
    mp = subprocess.run([UNIX, str(HERE / "counter_driver.py"), str(tmp_path / "mp.bin")], env=env,
                        capture_output=True, text=True, timeout=120)
    assert mp.returncode == 0, mp.stderr
    cp = subprocess.run([sys.executable, str(HERE / "counter_driver.py"), str(tmp_path / "cp.bin")],
                        env=dict(os.environ, PYTHONPATH=str(micropython.REPO)),
                        capture_output=True, text=True, timeout=120, check=True)
    got, want = json.loads(mp.stdout), json.loads(cp.stdout)
    assert want["increments"]["seen"] == [0, 1, 2, 3, 4, 5, 5]
    assert got == want
    assert (tmp_path / "mp.bin").read_bytes() == (tmp_path / "cp.bin").read_bytes()
