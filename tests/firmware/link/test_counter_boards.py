"""The board's monotonic counter (firmware/link/counter.py on an emulated ATECC608,
firmware/offboard/atecc608.py) where the simulated boards find it: the power-up entry and
`tapis verify`'s answer say it and its value, or that the board has none; its counters are
kept off the board's flash, so a flash put back does not roll them back. On the CPython
board and on the MicroPython unix port's virtual board (the emulated Pico's:
tests/test_counter_pico.py)."""
import shutil

import pytest

from tapis.firmware.eventlog.log import EventLog, beside
from tapis.firmware.journal.store import FileStore
from tapis.firmware.journal.writer import Journal
from tapis.firmware.link import counter
from tapis.firmware.link.hello import TEST_KEY
from tapis.firmware.offboard.atecc608 import ATECC608, I2C
from tapis.host.flash.verify import ask, counter_value, expected
from tapis.simulator.table.emulated import EmulatedTable
from test_swcheck import SEED1, board, board_table, usb  # noqa: F401  (board: the flashed board's fixture)


def part(path):
    """The board's ATECC608, powered up: its counters read from their file."""
    return counter.find(I2C(ATECC608(str(path))))


def cpython_board(flash, ctr, seed=3):
    """The CPython board booting from its flash (a folder: journal and event log), its counter `ctr`."""
    journal = Journal(FileStore(str(flash / "journal.bin")), key=TEST_KEY, device="dev")
    events = EventLog(FileStore(beside(str(flash / "journal.bin"))), TEST_KEY, "dev")
    return EmulatedTable(seed, "ecarte", journal=journal, events=events, counter=ctr)


def power_ups(flash):
    log = EventLog(FileStore(beside(str(flash / "journal.bin"))), TEST_KEY, "dev")
    return [e["d"] for e in log.since(0) if e["c"] == "power-up"]


def test_the_cpython_boards_power_up_says_its_counter_and_a_flash_put_back_does_not_roll_it_back(tmp_path):
    flash, off = tmp_path / "flash", tmp_path / "secure-element"
    flash.mkdir()
    off.mkdir()
    t = cpython_board(flash, part(off / "atecc608.bin"))
    t.run_deals(1)
    assert power_ups(flash) == ["the emulated table started; monotonic counter 0"]
    shutil.copytree(flash, tmp_path / "older")  # the whole flash, copied off
    for _ in range(3):
        t.controller.counter.increment()  # (issue 44's binding increments it at its commits)
    t.run_deals(2)
    shutil.rmtree(flash)
    shutil.copytree(tmp_path / "older", flash)  # and put back
    cpython_board(flash, part(off / "atecc608.bin")).run_deals(1)
    assert power_ups(flash) == ["the emulated table started; monotonic counter 0",
                                "the emulated table started; monotonic counter 3"]


def test_a_cpython_board_without_one_says_so(tmp_path):
    cpython_board(tmp_path, None).run_deals(1)
    assert power_ups(tmp_path) == ["the emulated table started; no monotonic counter"]


def test_tapis_verify_hears_the_counter_or_that_there_is_none(board, tmp_path):  # noqa: F811
    root, image = board
    t = board_table(root)
    t.run_deals(1)
    heard = {}
    got, device, why = ask(usb(t), SEED1, step=t.step, timeout=30, heard=heard)
    assert (got, device, why) == (expected(image, SEED1), "test-board", None)
    assert heard == {"counter": counter.NONE} and counter_value(heard["counter"]) is None  # (recall.py's words)
    t.controller.counter = part(tmp_path / "atecc608.bin")
    t.controller.counter.increment()
    got, device, why = ask(usb(t), SEED1, step=t.step, timeout=30, heard=heard)
    assert (got, device) == (expected(image, SEED1), "test-board")
    assert heard == {"counter": "monotonic counter 1"} and counter_value(heard["counter"]) == 1


def test_a_counter_that_answers_wrongly_is_said_failed_not_absent():
    c, said = counter.probe(I2C(ATECC608(counters=(counter.LIMIT, 0))))
    assert said == "monotonic counter %d" % counter.LIMIT
    p = ATECC608()
    p.wrong = 1
    c, said = counter.probe(I2C(p))
    assert c is not None and said.startswith("monotonic counter failed: ") and "CRC" in said


# ---- the MicroPython board: the unix port's virtual board ------------------------------------
def test_the_unix_boards_power_up_says_its_counter_and_a_flash_put_back_does_not_roll_it_back(tmp_path):
    from tapis.simulator.boards.vboard import BoardError, VirtualBoard
    from tapis.simulator.boards.vboot import UNIX
    if not UNIX.exists():
        pytest.skip("the MicroPython unix port is not installed (make install)")
    off = tmp_path / "atecc608.bin"

    def boot(flash=None):
        try:
            b = VirtualBoard("ecarte", unix_heap=512 * 1024, flash=flash, counter=str(off))
        except BoardError as e:
            raise AssertionError(str(e))
        b.close()
        return b.flash

    flash = boot()
    root = tmp_path / "flash"
    shutil.copytree(flash.name, root)
    flash.cleanup()
    log = EventLog(FileStore(str(root / "events.bin")), TEST_KEY, "vboard")
    first = [e["d"] for e in log.since(0) if e["c"] == "power-up"]
    assert len(first) == 1 and first[0].endswith("; monotonic counter 0")
    stepped = part(off).read()  # (the board steps it at each power-up: issue 44's binding, docs/security.md)
    assert stepped >= 1
    shutil.copytree(root, tmp_path / "older")
    for _ in range(2):
        part(off).increment()
    shutil.rmtree(root)
    shutil.copytree(tmp_path / "older", root)  # the flash put back

    class Kept:  # VirtualBoard's flash: a folder it does not remove
        name = str(root)

        def cleanup(self):
            pass

    boot(Kept())
    log = EventLog(FileStore(str(root / "events.bin")), TEST_KEY, "vboard")
    said = [e["d"] for e in log.since(0) if e["c"] == "power-up"]
    assert len(said) == 2 and said[1].endswith("; monotonic counter %d" % (stepped + 2))


def test_a_unix_board_without_one_says_so():
    from tapis.simulator.boards.vboard import VirtualBoard
    from tapis.simulator.boards.vboot import UNIX
    if not UNIX.exists():
        pytest.skip("the MicroPython unix port is not installed (make install)")
    b = VirtualBoard("ecarte", unix_heap=512 * 1024)
    b.close()
    from pathlib import Path
    log = EventLog(FileStore(str(Path(b.flash.name) / "events.bin")), TEST_KEY, "vboard")
    said = [e["d"] for e in log.since(0) if e["c"] == "power-up"]
    b.flash.cleanup()
    assert len(said) == 1 and said[0].endswith("; no monotonic counter")


def test_tapis_table_journal_keeps_its_part_in_the_key_store_off_its_flash(tmp_path):
    """`tapis table --journal`: the CPython board's ATECC608 keeps its counters beside the
    table's key (<device>.atecc608), not beside the journal; each start's power-up says them."""
    import json

    from test_cli_conventions import tapis
    keys, journal = tmp_path / "keys", str(tmp_path / "j.bin")
    assert tapis("table", "--journal", journal, "--deals", "1", TAPIS_KEY_DIR=str(keys)).returncode == 0
    (kept,) = keys.glob("*.atecc608")
    assert not list(tmp_path.glob("*.atecc608"))  # nothing of it among the table's flash files
    stepped = part(kept).read()  # (the board steps it at each power-up, its meters bound to it: issue 44)
    assert stepped >= 1
    assert tapis("table", "--journal", journal, "--deals", "1", TAPIS_KEY_DIR=str(keys)).returncode == 0
    p = tapis("events", "--journal", journal, "--class", "power-up", "--json", TAPIS_KEY_DIR=str(keys))
    said = [e["detail"] for e in json.loads(p.stdout)["entries"]]
    assert said == ["the emulated table started; monotonic counter %d" % n for n in (0, stepped)]
