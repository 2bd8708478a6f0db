"""The monotonic counter on the emulated Pico: the ATECC608 attached to rp2040js's I2C0
(simulator/pico/atecc608.mjs, pico.mjs --atecc) read and incremented by the firmware's
driver (firmware/link/counter.py) through machine.I2C on GP8/GP9, its counters kept off the
flash file; and the JavaScript part held to the Python one's bytes (firmware/offboard/
atecc608.py), event for event. The Pico's tests need $TAPIS_PICO_IMAGE and skip without it."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tapis.firmware.link import counter
from tapis.firmware.offboard.atecc608 import ATECC608, I2C
from tapis.simulator.pico.board import IMAGE_ENV, EmulatedPico
from tapis.simulator.pico.repl import Repl

IMAGE = os.environ.get(IMAGE_ENV)
needs_image = pytest.mark.skipif(
    not IMAGE, reason="set %s to a MicroPython RPI_PICO .uf2 image to boot the emulated Pico "
    "(e.g. /work/shared/boards/RPI_PICO-v1.27.0.uf2)" % IMAGE_ENV)
REPO = Path(__file__).resolve().parents[3]  # tests/simulator/pico/ -> the repository
PART = REPO / "simulator" / "pico" / "atecc608.mjs"
DRIVER = ("firmware/__init__.py", "firmware/compat.py", "firmware/link/__init__.py", "firmware/link/counter.py")


# ---- the two emulations, event for event -------------------------------------------------
def bus_events():
    """A session on the bus: (event, args, the time in us) — wakes, commands good and bad,
    the reads of their answers, polls while the part executes, sleeps, the watchdog."""
    cmd = lambda *body: [0x03] + list(counter.packet(bytes(body)))  # noqa: E731
    bad = cmd(0x24, 1, 0, 0)
    bad[-1] ^= 0x10
    ev, t = [], [0]

    def at(dt):
        t[0] += dt
        return t[0]

    def transfer(addr, data=None, n=0, dt=100):
        ev.append(["connect", addr, data is None, 80 if addr == 0 else 0, at(dt)])
        for b in data or ():
            ev.append(["write", b])
        for _ in range(n):
            ev.append(["read"])
        ev.append(["stop", at(10)])

    transfer(0x60, [0x01])  # asleep: not ACKed
    transfer(0, [0])  # the wake
    transfer(0x60, n=4, dt=500)  # before tWHI: not ACKed
    transfer(0x60, n=4, dt=1500)
    for body, polls in (((0x24, 0, 0, 0), 2), ((0x24, 1, 0, 0), 6), ((0x24, 1, 1, 0), 6), ((0x24, 0, 2, 0), 6),
                        ((0x30, 0, 0, 0), 6)):
        transfer(0x60, cmd(*body))
        transfer(0x60, n=1, dt=1000 * polls)  # NACKed while it executes (5 ms), then the count
        transfer(0x60, n=6)
        transfer(0x60, [0x00])  # the read pointer reset: the answer again
        transfer(0x60, n=8)
    transfer(0x60, bad)
    transfer(0x60, n=4, dt=6000)
    transfer(0x60, [0x07, 0x01])  # a reserved word address: NACKed
    transfer(0x60, [0x01])  # sleep
    transfer(0x60, n=1)
    transfer(0, [0])
    transfer(0x60, n=4, dt=2000)
    transfer(0x60, n=4, dt=1300000)  # the watchdog: asleep again
    transfer(0, [0], dt=10)
    ev[-3][3] = 20  # a wake too short (400 kHz): nothing
    transfer(0x60, n=4, dt=2000)
    return ev


def run_python(events, counters):
    now = [0]
    part = ATECC608(counters=counters, clock=lambda: now[0])
    out = []
    for e in events:
        if e[0] == "connect":
            now[0] = e[4]
            out.append(part.connect(e[1], e[2], e[3]))
        elif e[0] == "write":
            out.append(part.write(e[1]))
        elif e[0] == "read":
            out.append(part.read())
        else:
            now[0] = e[1]
            part.stop()
    return out, part.counters


def run_javascript(events, counters):
    script = """
import { ATECC608 } from %s;
let now = 0;
const part = new ATECC608(null, () => now);
part.counters = %s;
const out = [];
for (const e of %s) {
  if (e[0] === "connect") { now = e[4]; out.push(part.connect(e[1], e[2], e[3])); }
  else if (e[0] === "write") out.push(part.write(e[1]));
  else if (e[0] === "read") out.push(part.read());
  else { now = e[1]; part.stop(); }
}
console.log(JSON.stringify([out, part.counters]));
""" % (json.dumps(PART.as_uri()), json.dumps(list(counters)), json.dumps(events))
    p = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.mark.parametrize("counters", [(0, 0), (41, counter.LIMIT - 1), (counter.LIMIT, counter.LIMIT)])
def test_the_javascript_part_answers_as_the_python_one_byte_for_byte(counters):
    if shutil.which("node") is None:
        pytest.skip("node is not installed (make install)")
    events = bus_events()
    got, want = run_javascript(events, counters), run_python(events, counters)
    assert got == [list(want[0]), list(want[1])]
    answers = [x for x in want[0] if not isinstance(x, bool)]
    assert bytes(answers[:4]) == counter.WAKE_REPLY and 0x03 in answers and 0xFF in answers  # not a stub


# ---- the driver on the Pico, through rp2040js's I2C --------------------------------------
def deploy(repl):
    """The driver's modules onto the board's filesystem (as tapis flash puts them, uncompiled)."""
    code = "import os\n"
    for d in ("firmware", "firmware/link"):
        code += "try:\n os.mkdir(%r)\nexcept OSError:\n pass\n" % d
    for f in DRIVER:
        code += "with open(%r, 'w') as f:\n f.write(%r)\n" % (f, (REPO / f).read_text())
    assert repl.exec_raw(code) == ("", "")


BUS = "from machine import I2C, Pin\nfrom firmware.link import counter\n"


def run_on_pico(flash, part, code, fresh=False):
    """Boot an emulated Pico on this flash file, the part's counters in `part` (None: no part),
    and run `code` in its raw REPL (the driver deployed first when `fresh`): (stdout, error)."""
    p = EmulatedPico(IMAGE, flash_path=flash)
    p.atecc = part
    with p:
        repl = Repl(p)
        repl.ready()
        if fresh:
            deploy(repl)
        start = p.now_ms
        out = repl.exec_raw(BUS + code)
        p.code_ms = p.now_ms - start
    return out, p


@needs_image
def test_the_driver_reads_and_increments_the_pico_s_counter_and_a_flash_put_back_keeps_it(tmp_path):
    flash, part = tmp_path / "flash.bin", tmp_path / "atecc608.bin"
    (out, err), _p = run_on_pico(flash, part, "c = counter.find(I2C(0, sda=Pin(8), scl=Pin(9), freq=counter.FREQ))\n"
                                 "print(c.read(), c.increment(), c.increment(), c.read())\n"
                                 "print(counter.on_board((0, 8, 9))[1])\n"
                                 "print(counter.find(I2C(0, sda=Pin(8), scl=Pin(9), freq=400000)))", fresh=True)
    assert err == ""
    assert out.split("\r\n")[:3] == ["0 1 2 2", "monotonic counter 2", "None"]  # 400 kHz: no wake
    assert part.read_bytes() == bytes([2, 0, 0, 0, 0, 0, 0, 0])  # off the flash file
    shutil.copy(flash, tmp_path / "older.bin")
    got, _p = run_on_pico(flash, part, "print(counter.on_board((0, 8, 9))[0].increment())")
    assert got == ("3\r\n", "")
    shutil.copy(tmp_path / "older.bin", flash)  # the whole flash put back: the count is the part's
    got, _p = run_on_pico(flash, part, "print(counter.on_board((0, 8, 9))[1])")
    assert got == ("monotonic counter 3\r\n", "")


@needs_image
def test_a_pico_without_the_part_finds_none(tmp_path):
    got, p = run_on_pico(tmp_path / "flash.bin", None, "print(counter.on_board((0, 8, 9)))", fresh=True)
    assert got == ("(None, 'no monotonic counter')\r\n", "")
    assert p.code_ms < 500  # each NACK at once (simulator/pico/README.md, 9), not a 50 ms timeout


@needs_image
@pytest.mark.slow  # 38 s of the emulated chip: make test keeps the driver's here and test_counter_boards.py's firmware
def test_the_flashed_firmware_says_the_pico_s_counter_at_power_up_and_a_flash_put_back_locks(tmp_path):
    """main.py on the emulated Pico (flashed as tapis flash flashes it) probes the part on I2C0
    before it writes anything: its power-up entry, in the event log in the chip's flash, says
    the count, and the board steps it (its chain of custody: docs/security.md); the count
    raised past the flash's, the whole flash put back, the next boot locks, a ram-error that
    names the counter, and its power-up says the part's count."""
    from tapis.host.pico.table import PicoTable
    from test_tilts_pico import events_on_the_chip, modes, steps
    part = tmp_path / "atecc608.bin"
    with PicoTable(5, "ecarte", image=IMAGE, flash_path=tmp_path / "flash.bin", atecc=part) as t:
        t.run_deals(1)
        key, _ident = t.identity()  # (the table stopped at its REPL)
        _head, entries = events_on_the_chip(t, key, tmp_path)
        ups = [e["d"] for e in entries if e["c"] == "power-up"]
        assert ups and ups[0].endswith("; monotonic counter 0"), ups
        t.pico.stop_runner()  # powered off: the flash saved
        shutil.copy(tmp_path / "flash.bin", tmp_path / "older.bin")
        c = counter.find(I2C(ATECC608(str(part))))
        start = c.read()
        assert start >= 1  # stepped by the board at its power-up
        assert [c.increment() for _ in range(4)] == [start + k for k in (1, 2, 3, 4)]
        shutil.copy(tmp_path / "older.bin", tmp_path / "flash.bin")  # the whole flash put back
        t.boot()
        steps(t, 1500)
        assert modes(t) == ["locked: ram-error"] * 2, t.lines_seen[-8:]
        _head, entries = events_on_the_chip(t, key, tmp_path)
        tilts = [e["d"] for e in entries if e["c"] == "ram-error"]
        assert tilts and "counter" in tilts[-1], tilts
        last = [e["d"] for e in entries if e["c"] == "power-up"][-1]
        assert last.endswith("; monotonic counter %d" % (start + 4)), last
    assert int.from_bytes(part.read_bytes()[:4], "little") >= start + 4
