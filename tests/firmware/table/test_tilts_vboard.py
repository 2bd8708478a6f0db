"""A tilt on the MicroPython virtual board (the unix port: its journal and event log are
files that outlive a power cycle): the door opened locks it, the lock survives the power
cycle, the displays say so, and only the supervisor's credential clears it."""
from pathlib import Path

from tapis.firmware import wire as W
from tapis.firmware.wire import CLEAR
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.link.hello import TEST_KEY
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.simulator.table.supervisor import EmuSupervisor
from tapis.simulator.boards.vtable import VirtualBoardTable


def steps(vb, ms):
    for _ in range(ms):
        vb.step()


def locked(vb):
    return [c.view.get("mode") for c in vb.consoles]


def locked_until_the_supervisor_clears(vb, cls, ram=False):
    """A tilt of `cls` open on the board: it survives a power cycle (no play), a console's
    press of the clear is no credential, the supervisor's clear (its RAM clear if `ram`)
    unlocks it and play goes on (after a plain clear). The board's event log's entries."""
    mode = ["locked: " + cls] * 2
    before = len(vb.game.log)
    vb.power_cycle()
    steps(vb, 3000)
    assert locked(vb) == mode and len(vb.game.log) == before
    vb.consoles[0].link.send(W.PANEL, W.BUTTON, bytes((CLEAR, 0)))
    steps(vb, 1000)
    assert locked(vb) == mode
    sup = supervisor_on(vb)
    sup.command(CLEAR, 1 if ram else 0)
    steps(vb, 1500)
    assert locked(vb) == [None, None]
    if not ram:
        vb.run_deals(vb.game.finished_deals() + 1)  # play goes on
    return EventLog(MemoryStore((Path(vb.board.flash.name) / "events.bin").read_bytes()), TEST_KEY).since(0)


def test_a_door_tilt_locks_the_micropython_board_across_a_power_cycle_until_the_supervisor_clears_it():
    with VirtualBoardTable(3, "ecarte", unix_heap=400 * 1024) as vb:
        vb.run_deals(1)
        vb.open_door()
        steps(vb, 300)
        vb.close_door()
        steps(vb, 1500)
        assert locked(vb) == ["locked: door-open"] * 2
        before = len(vb.game.log)
        steps(vb, 3000)
        assert len(vb.game.log) == before  # play stopped
        entries = locked_until_the_supervisor_clears(vb, "door-open")
    classes = [e["c"] for e in entries]
    assert classes.count("power-up") == 2 and "door-open" in classes
    door = [e for e in entries if e["c"] == "door-open"][0]
    assert door["cleared"] == "EMU-SUPERVISOR" and entries[-1]["c"] == "clear"


def _flip(path, at):
    data = bytearray(path.read_bytes())
    data[at % len(data)] ^= 0x10
    path.write_bytes(bytes(data))


def test_both_meter_copies_damaged_is_a_ram_error_that_locks_the_micropython_board_until_the_ram_clear():
    """Certification.md note 3: both copies of the meters damaged in the board's flash is a
    RAM-error tilt at boot (boot.build), locking across a further power cycle; a console's
    clear is no credential, the supervisor's RAM clear is."""
    with VirtualBoardTable(4, "ecarte", unix_heap=400 * 1024) as vb:
        vb.run_deals(1)
        flash = Path(vb.board.flash.name)
        _flip(flash / "journal.meters.a", 40)  # (between two steps: nothing rewrites them before the cut)
        _flip(flash / "journal.meters.b", 41)
        vb.power_cycle()
        steps(vb, 3000)
        assert locked(vb) == ["locked: ram-error"] * 2
        # cleared by the RAM clear: meters, journal and event log together
        entries = locked_until_the_supervisor_clears(vb, "ram-error", ram=True)
    assert entries[0]["c"] == "ram-clear" and "ram-error" in entries[0]["d"]["tilts"], entries[0]


def supervisor_on(vb, ms=1500):
    """The supervisor's device plugged into the bus, given `ms` to pair: the device."""
    sup = EmuSupervisor(vb.lines[1].end("supervisor"))
    vb.devices.append(sup)
    steps(vb, ms)
    return sup


def a_seeded_check_failed(vb):
    """After a deal, the supervisor's device on the bus asks a seeded check, which fails (the
    board's flash holds no signed manifest): both displays say the check-failed lock. The
    supervisor's device."""
    vb.run_deals(1)
    sup = supervisor_on(vb)
    sup.verify(bytes(range(16)))
    steps(vb, 3000)
    assert locked(vb) == ["locked: check-failed"] * 2, (locked(vb), sup.checked)
    return sup


def test_a_failed_seeded_check_locks_the_micropython_board_across_a_power_cycle_until_the_supervisor_clears_it():
    """Certification.md note 3: the supervisor's seeded software check failing on the board
    (its flash holds no signed manifest, as a board tampered with would) is a locking
    check-failed tilt, surviving a power cycle, cleared only by the supervisor's credential."""
    with VirtualBoardTable(5, "ecarte", unix_heap=400 * 1024) as vb:
        sup = a_seeded_check_failed(vb)
        # the supervisor unplugged first (left on, it sends its VERIFY again to the rebooted
        # board, answered without a second entry: the test below)
        vb.devices.remove(sup)
        entries = locked_until_the_supervisor_clears(vb, "check-failed")
    failed = [e for e in entries if e["c"] == "check-failed"][0]
    assert failed["l"] and failed["cleared"] == "EMU-SUPERVISOR" and entries[-1]["c"] == "clear"


def test_a_supervisor_left_on_the_bus_through_a_power_cycle_gets_one_entry_for_one_seeded_check():
    """Certification.md note 3: the supervisor's device, left on the bus while the board is
    power-cycled, sends its VERIFY again (the board's journal does not show it took it); the
    board answers it again, as it did, but one request is one entry in its log and one lock."""
    with VirtualBoardTable(5, "ecarte", unix_heap=400 * 1024) as vb:
        sup = a_seeded_check_failed(vb)
        first = sup.checked
        sup.checked = None
        vb.power_cycle()
        steps(vb, 4000)
        assert sup.checked == first  # answered again, the same
        assert locked(vb) == ["locked: check-failed"] * 2
        sup.verify(bytes(range(1, 17)))  # a fresh seed: a new request, its own entry
        steps(vb, 3000)
        entries = EventLog(MemoryStore((Path(vb.board.flash.name) / "events.bin").read_bytes()), TEST_KEY).since(0)
    failed = [e["d"] for e in entries if e["c"] == "check-failed"]
    assert len(failed) == 2 and "seed 000102" in failed[0] and "seed 010203" in failed[1], failed


def a_long_log_at_the_power_cut(vb, edit):
    """1,000 entries more in the board's event log while its power is off (as a board's
    after many power-ups), an entry of its first segment edited if `edit`: its boot opens it
    from the last seal and checks the rest once playing (eventopen.quick, deferred)."""
    from tapis.firmware.eventlog.log import FORGED
    from tapis.firmware.journal.store import FileStore
    path = Path(vb.board.flash.name) / "events.bin"
    board, off = vb.board, vb.board.power_off

    def down():
        off()
        log = EventLog(FileStore(str(path)), TEST_KEY, "vboard", clock=lambda: 7)
        for i in range(1000):
            log.log(FORGED, "entry %04d" % i)
        if edit:
            data = path.read_bytes()
            at = data.index(b"entry 0005")
            path.write_bytes(data[:at] + b"entry 0105" + data[at + 10:])
    board.power_off = down
    vb.power_cycle()
    return path


def test_a_long_event_log_is_opened_quick_and_checked_once_the_micropython_board_plays():
    """Unedited, the board plays on; an entry edited before the last seal is found once it
    plays: the log set aside (events.bad), a new one locked by a journal-failure tilt."""
    with VirtualBoardTable(3, "ecarte", unix_heap=400 * 1024) as vb:
        vb.run_deals(1)
        path = a_long_log_at_the_power_cut(vb, False)
        steps(vb, 3000)  # (the displays are back within 2.5 s)
        assert locked(vb) == [None, None] and not path.with_name("events.bad").exists()
        vb.run_deals(2)
        log = EventLog(MemoryStore(path.read_bytes()), TEST_KEY)
        assert "power-up" in [e["c"] for e in log.since(1000)]  # (this boot's: after the thousand)
        path = a_long_log_at_the_power_cut(vb, True)
        steps(vb, 3000)
        assert locked(vb) == ["locked: journal-failure"] * 2 and path.with_name("events.bad").exists()
        entries = locked_until_the_supervisor_clears(vb, "journal-failure")
    assert "kept as events.bad" in entries[0]["d"]
