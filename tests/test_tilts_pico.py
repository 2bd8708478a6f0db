"""A tilt on the emulated Pico (the real firmware, flashed as tapis flash flashes it): the
door's switch on GP7 (rp2040js drives the input pin) opened locks the table, the lock
survives a power cycle (the event log in the chip's flash), and the supervisor clears it."""
import os

import pytest

from tapis.firmware.clears import CLEAR
from tapis.simulator.pico.board import IMAGE_ENV
from tapis.simulator.supervisor import EmuSupervisor

IMAGE = os.environ.get(IMAGE_ENV)
pytestmark = pytest.mark.skipif(not IMAGE, reason="set %s to a MicroPython RPI_PICO .uf2 image" % IMAGE_ENV)


def steps(t, ms):
    for _ in range(ms):
        t.step()


def modes(t):
    return [c.view.get("mode") if c.view else None for c in t.consoles]


def test_the_door_opened_locks_the_pico_across_a_power_cycle_until_the_supervisor_clears_it():
    from tapis.host.picotable import PicoTable
    with PicoTable(5, "ecarte", image=IMAGE) as t:
        t.run_deals(1)
        t.open_door()
        steps(t, 300)
        t.close_door()
        steps(t, 1500)
        assert modes(t) == ["locked: door-open"] * 2
        n = len(t.board_log)
        steps(t, 2000)
        assert len(t.board_log) == n  # play stopped
        t.power_cycle()
        steps(t, 1500)
        assert modes(t) == ["locked: door-open"] * 2 and len(t.board_log) == n
        sup = EmuSupervisor(t.lines[1].end("supervisor"))
        t.devices.append(sup)
        steps(t, 1500)
        sup.command(CLEAR, 0)
        steps(t, 1500)
        assert modes(t) == [None, None]
        t.run_deals(2)  # play goes on


def test_a_broken_journal_at_boot_is_a_locking_journal_failure_in_the_picos_event_log(tmp_path):
    """main.py's path (certification.md note 4): the journal refused at boot is a locking
    `journal-failure` entry in the event log in the chip's flash, beside the refusal said on
    the USB console, and the table does not play."""
    from tapis.host import picoflash
    from tapis.host.events_read import from_file
    from tapis.host.picotable import PicoTable
    with PicoTable(5, "ecarte", image=IMAGE) as t:
        t.run_deals(1)
        key, _ident = t.identity()  # (the table stopped at its REPL)
        repl = picoflash.stopped(t.pico)
        _out, err = repl.exec_raw("f = open('journal.bin', 'r+b')\nn = f.seek(0, 2) // 2\nf.seek(n)\n"
                                  "b = f.read(1)\nf.seek(n)\nf.write(bytes((b[0] ^ 0x40,)))\nf.close()")
        assert not err, err
        t.pico.power_cycle()  # main.py runs on the broken journal
        said = b""
        for _ in range(4000):
            t.pico.step(1)
            said += t.pico.usb.read()
        assert b"journal refused" in said, said[-400:]
        repl = picoflash.stopped(t.pico)
        out, err = repl.exec_raw("import binascii\nprint(binascii.hexlify(open('events.bin', 'rb').read()).decode())")
        assert not err, err
    log = tmp_path / "events.bin"
    log.write_bytes(bytes.fromhex(out.strip() if isinstance(out, str) else out.decode().strip()))
    keyfile = tmp_path / "device.key"
    keyfile.write_text(key.hex() + "\n")
    head, entries = from_file(str(log), str(keyfile))  # its chain checked under the device key
    failures = [e for e in entries if e["c"] == "journal-failure"]  # (the log's own keys: class c, detail d)
    assert failures and "journal refused" in failures[-1]["d"], entries
    assert "journal-failure" in head["locked"]
