"""One chain of custody (issue 44.1, 44.7) on the MicroPython virtual board (the unix port:
its journal, event log and meters copies are files of its flash directory, edited here
while its power is off, as a technician with the flash and no key would): a locking tilt
survives the log and both copies deleted, and the log cut back before it; the copies put
back or deleted lock. The boot compares the heads before it writes (boot/custody.py)."""
import os
from pathlib import Path

import pytest

from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.link.hello import TEST_KEY
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.simulator.boards.vtable import VirtualBoardTable

COPIES = ("journal.meters.a", "journal.meters.b")


def steps(vb, ms):
    for _ in range(ms):
        vb.step()


def locked(vb):
    return [c.view.get("mode") for c in vb.consoles]


def flash(vb):
    return Path(vb.board.flash.name)


def logged(vb):
    return EventLog(MemoryStore((flash(vb) / "events.bin").read_bytes()), TEST_KEY).since(0)


def cycled(vb, edit):
    """A power cycle with `edit(flash directory)` made while the power is off; the
    displays given 3 s to come back."""
    board, off = vb.board, vb.board.power_off

    def down():
        off()
        edit(flash(vb))
    board.power_off = down
    vb.power_cycle()
    board.power_off = off
    steps(vb, 3000)


def door_tilt(vb):
    vb.run_deals(2)
    vb.open_door()
    steps(vb, 300)
    vb.close_door()
    steps(vb, 1500)
    assert locked(vb) == ["locked: door-open"] * 2


def test_a_door_tilt_survives_the_log_and_both_meter_copies_deleted():
    with VirtualBoardTable(3, "ecarte", unix_heap=400 * 1024) as vb:
        door_tilt(vb)

        def wipe(d):
            for f in ("events.bin",) + COPIES:
                os.remove(d / f)
        cycled(vb, wipe)
        assert locked(vb) == ["locked: journal-failure, ram-error"] * 2, "the table plays on"
        said = [e["d"] for e in logged(vb) if e.get("l")]
    assert any("both copies of the meters are missing" in d for d in said), said


@pytest.mark.parametrize("where", ["boundary", "torn"])
def test_a_door_tilt_cut_off_the_log_still_locks_the_micropython_board(where):
    with VirtualBoardTable(3, "ecarte", unix_heap=400 * 1024) as vb:
        door_tilt(vb)
        log = EventLog(MemoryStore((flash(vb) / "events.bin").read_bytes()), TEST_KEY)
        got = [(off, rec) for off, rec in log.walk() if rec is not None and rec["k"] == "e"]
        at, tilt = [(o, e) for o, e in got if e["c"] == "door-open"][-1]

        def cut(d):
            with open(d / "events.bin", "r+b") as f:
                f.truncate(at if where == "boundary" else at + 7)
        cycled(vb, cut)
        assert locked(vb) == ["locked: journal-failure"] * 2, "the table plays on"
        last = [e for e in logged(vb) if e.get("l")][-1]
    assert last["d"].startswith("event log cut at entry %d: " % (tilt["n"] - 1)), last


@pytest.mark.parametrize("how", ["put back", "deleted"])
def test_both_meter_copies_put_back_or_deleted_lock_the_micropython_board(how):
    with VirtualBoardTable(4, "ecarte", unix_heap=400 * 1024) as vb:
        vb.run_deals(1)
        saved = {f: (flash(vb) / f).read_bytes() for f in COPIES}
        vb.run_deals(4)

        def edit(d):
            for f in COPIES:
                if how == "deleted":
                    os.remove(d / f)
                else:
                    (d / f).write_bytes(saved[f])
        cycled(vb, edit)
        assert locked(vb) == ["locked: ram-error"] * 2, "the meters went back, no lock"
        said = [e["d"] for e in logged(vb) if e["c"] == "ram-error"][-1]
    assert ("put back" if how == "put back" else "both copies of the meters are missing") in said, said


def test_an_unedited_micropython_board_never_locks_across_power_cycles():
    with VirtualBoardTable(5, "piquet", unix_heap=400 * 1024) as vb:
        for n in (1, 2, 3):
            vb.run_deals(n)
            vb.power_cycle()
            steps(vb, 3000)
            assert locked(vb) == [None, None]
        vb.run_deals(4)
        assert not [e for e in logged(vb) if e.get("l") or e["c"] == "meter-repaired"]


def test_the_whole_flash_put_back_locks_the_micropython_board_with_its_counter(tmp_path):
    """The journal, the log and both copies put back from a boot earlier (a consistent older
    state): the emulated ATECC608's counter, off the board's flash, stepped at the power-up
    since, is ahead of the copies. (VirtualBoard alone: the table's CPython mirror would not
    follow a board put back.)"""
    import shutil
    from tapis.simulator.boards.vboard import VirtualBoard
    off, root = tmp_path / "part.atecc608", tmp_path / "flash"

    class Kept:  # VirtualBoard's flash: a folder it does not remove
        name = str(root)

        def cleanup(self):
            pass

    def boot(flash=None):
        b = VirtualBoard("ecarte", unix_heap=512 * 1024, flash=flash, counter=str(off))
        b.close()
        return b.flash
    first = boot()
    shutil.copytree(first.name, root)
    first.cleanup()
    shutil.copytree(root, tmp_path / "older")
    boot(Kept())  # a boot later: the counter stepped
    shutil.rmtree(root)
    shutil.copytree(tmp_path / "older", root)  # the whole flash put back
    boot(Kept())
    log = EventLog(MemoryStore((root / "events.bin").read_bytes()), TEST_KEY)
    tilts = [e for e in log.since(0) if e["c"] == "ram-error"]
    assert tilts and tilts[-1].get("l") and "the flash was put back" in tilts[-1]["d"], log.since(0)
