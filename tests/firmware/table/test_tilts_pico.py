"""A tilt on the emulated Pico (the real firmware, flashed as tapis flash flashes it): the
door's switch on GP7 (rp2040js drives the input pin) opened locks the table, the lock
survives a power cycle (the event log in the chip's flash), and the supervisor clears it."""
import os

import pytest

from tapis.firmware import wire as W
from tapis.firmware.wire import CLEAR
from tapis.simulator.pico.board import IMAGE_ENV
from tapis.simulator.table.supervisor import EmuSupervisor

IMAGE = os.environ.get(IMAGE_ENV)
pytestmark = pytest.mark.skipif(not IMAGE, reason="set %s to a MicroPython RPI_PICO .uf2 image" % IMAGE_ENV)


def steps(t, ms):
    for _ in range(ms):
        t.step()


def modes(t):
    return [c.view.get("mode") if c.view else None for c in t.consoles]


def supervisor_clears(t, deals):
    """The supervisor's device on the bus clears the tilt: both displays unlocked, and play
    goes on (`deals` deals in all)."""
    sup = EmuSupervisor(t.lines[1].end("supervisor"))
    t.devices.append(sup)
    steps(t, 1500)
    sup.command(CLEAR, 0)
    steps(t, 1500)
    assert modes(t) == [None, None]
    t.run_deals(deals)  # play goes on


@pytest.mark.slow  # 39 s of the emulated chip: make test keeps test_tilts.py's and test_custody_vboard.py's door
def test_the_door_opened_locks_the_pico_across_a_power_cycle_until_the_supervisor_clears_it():
    from tapis.host.pico.table import PicoTable
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
        supervisor_clears(t, 2)


def test_a_broken_journal_at_boot_is_a_locking_journal_failure_in_the_picos_event_log(tmp_path):
    """main.py's path (certification.md note 4): the journal refused at boot is a locking
    `journal-failure` entry in the event log in the chip's flash, beside the refusal said on
    the USB console, and the table does not play."""
    from tapis.host.pico import flash as picoflash
    from tapis.host.pico.table import PicoTable
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
        head, entries = events_on_the_chip(t, key, tmp_path)
    failures = [e for e in entries if e["c"] == "journal-failure"]  # (the log's own keys: class c, detail d)
    assert failures and "journal refused" in failures[-1]["d"], entries
    assert "journal-failure" in head["locked"]


def events_on_the_chip(t, key, tmp_path):
    """The board's event log read off the chip's flash through its raw REPL (the table is not
    running after it), its chain checked under the device key `key`: (head, entries)."""
    from tapis.host.pico import flash as picoflash
    from tapis.host.memory.events import from_file
    log = tmp_path / "events.bin"
    log.write_bytes(picoflash.get_files(t.pico, ["events.bin"])["events.bin"])
    keyfile = tmp_path / "device.key"
    keyfile.write_text(key.hex() + "\n")
    return from_file(str(log), str(keyfile))


@pytest.mark.slow  # 58 s of the emulated chip: make test keeps test_tilts_vboard.py's, on MicroPython
def test_both_meter_copies_damaged_in_the_picos_flash_is_a_ram_error_that_locks_until_the_ram_clear(tmp_path):
    """Certification.md note 3, on the emulated Pico: both copies of the meters damaged in the
    chip's flash (/journal.meters.a and .b, main.py) is a RAM-error tilt at boot, a locking
    `ram-error` entry in the event log in the chip's flash; play stops, the lock survives a
    power cycle, a console's clear is no credential, the supervisor's RAM clear is."""
    from tapis.host.pico import flash as picoflash
    from tapis.host.pico.table import PicoTable
    with PicoTable(6, "ecarte", image=IMAGE) as t:
        t.run_deals(1)
        key, _ident = t.identity()  # (the table stopped at its REPL)
        repl = picoflash.stopped(t.pico)
        _out, err = repl.exec_raw(
            "def flip(p, at):\n f = open(p, 'r+b')\n n = at % f.seek(0, 2)\n f.seek(n)\n b = f.read(1)\n"
            " f.seek(n)\n f.write(bytes((b[0] ^ 0x10,)))\n f.close()\n"
            "flip('/journal.meters.a', 40)\nflip('/journal.meters.b', 41)")
        assert not err, err
        t.boot()  # main.py on the damaged meters
        steps(t, 1500)
        mode = ["locked: ram-error"] * 2
        assert modes(t) == mode, t.lines_seen[-8:]
        n = len(t.board_log)
        steps(t, 2000)
        assert len(t.board_log) == n  # play stopped
        t.power_cycle()
        steps(t, 1500)
        assert modes(t) == mode and len(t.board_log) == n
        head, entries = events_on_the_chip(t, key, tmp_path)  # (the table stopped at its REPL)
        tilts = [e for e in entries if e["c"] == "ram-error"]
        assert tilts and tilts[-1]["l"] and "ram-error" in head["locked"], entries
        t.boot()
        steps(t, 1500)
        assert modes(t) == mode
        t.consoles[0].link.send(W.PANEL, W.BUTTON, bytes((CLEAR, 0)))  # no credential
        steps(t, 1000)
        assert modes(t) == mode
        sup = EmuSupervisor(t.lines[1].end("supervisor"))
        t.devices.append(sup)
        steps(t, 1500)
        sup.command(CLEAR, 1)  # the RAM clear: meters, journal and event log together
        for _ in range(80):  # (up to 20 s of the chip's: the clear loads its modules, heap as it lies)
            steps(t, 250)
            if modes(t) == [None, None]:
                break
        assert modes(t) == [None, None]
        _head, entries = events_on_the_chip(t, key, tmp_path)
    assert entries[0]["c"] == "ram-clear" and "ram-error" in entries[0]["d"]["tilts"], entries[0]


@pytest.mark.slow  # a minute of the chip's time at least (the shortest check interval): minutes here
def test_a_byte_changed_in_the_picos_flash_while_it_runs_is_a_check_failed_tilt_until_the_supervisor_clears_it(tmp_path):
    """Certification.md note 3, on the emulated Pico: a byte of firmware.img changed in the
    chip's flash while the table runs (EmulatedPico.poke_flash: a byte of its index, read at
    mount and never again, so the code keeps running) is found by the periodic software
    check (--check-minutes 1): a locking `check-failed` entry naming the file; play stops;
    with the byte put back the lock survives a power cycle, and only the supervisor clears it."""
    import re

    from tapis.host.pico.table import PicoTable
    with PicoTable(5, "ecarte", image=IMAGE, check_minutes=1) as t:
        t.run_deals(1)
        flash = t.pico.flash_bytes()
        spots = [flash.index(b"\n", m.start()) + 3 for m in re.finditer(b"TAPIS-IMAGE 1 ", flash)]
        assert spots  # (littlefs may hold an older copy of a block too: each is changed)
        for at in spots:
            t.pico.poke_flash(at, bytes((flash[at] ^ 0x20,)))
        mode = ["locked: check-failed"] * 2
        for _ in range(120):  # the check is due a minute after boot, then waits for a deal's end
            steps(t, 1000)
            if modes(t) == mode:
                break
        assert modes(t) == mode, (t.pico.now_ms, t.lines_seen[-8:])
        n = len(t.board_log)
        steps(t, 2000)
        assert len(t.board_log) == n  # play stopped
        for at in spots:
            t.pico.poke_flash(at, flash[at:at + 1])
        t.power_cycle()
        steps(t, 1500)
        assert modes(t) == mode and len(t.board_log) == n
        key, _ident = t.identity()  # (the table stopped at its REPL)
        head, entries = events_on_the_chip(t, key, tmp_path)
        failed = [e for e in entries if e["c"] == "check-failed"]
        assert failed and failed[-1]["l"] and "firmware.img was modified" in failed[-1]["d"], entries
        assert "check-failed" in head["locked"]
        t.boot()
        steps(t, 1500)
        assert modes(t) == mode
        supervisor_clears(t, 1)
