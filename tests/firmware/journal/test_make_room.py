"""A filesystem short of space at boot (firmware/powerup.make_room, main.py's): the journal
is cut to its unfinished game, the meters brought up to its end first, and the cut is an
entry in the event log saying how many finished games went, a tilt that locks until the
supervisor clears it (certification.md note 8); the event log itself is never cut. Run on CPython with the board's FileStore on a directory."""
from tapis.firmware.boot import powerup as P
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.journal.writer import Journal
from tapis.firmware.meters.holder import Meters
from tapis.firmware.journal.resume import load
from tapis.firmware.journal.store import FileStore
from tapis.host.commands.meters import from_journal
from tapis.simulator.testkey import TEST_DEVICE, TEST_KEY
from table_rig import Rig


def frees(*values):
    it = iter(values)
    return lambda: next(it)


def board(tmp_path, games=3):
    """A board's flash after `games` finished écarté games: its journal, meters and log."""
    jpath = str(tmp_path / "journal.bin")
    rig = Rig(3, "ecarte", store=FileStore(jpath), key=TEST_KEY, device=TEST_DEVICE)
    rig.run(games)
    meters = Meters(str(tmp_path / "journal.meters.a"), str(tmp_path / "journal.meters.b"), key=TEST_KEY)
    return jpath, meters


def test_a_full_filesystem_compacts_the_journal_and_the_log_says_so(tmp_path):
    jpath, meters = board(tmp_path)
    before = Journal(FileStore(jpath), key=TEST_KEY, device=TEST_DEVICE)
    load(before, False, False)
    finished = len(before.starts) - 1
    assert finished >= 3
    keyfile = tmp_path / "device.key"
    keyfile.write_text(TEST_KEY.hex() + "\n")
    sums = list(from_journal(jpath, str(keyfile)).m)  # as tapis meters reads them off the board
    assert sums[0] > 0
    full, dropped = P.make_room(FileStore(jpath), TEST_KEY, TEST_DEVICE, meters, free=frees(0, P.MIN_FREE))
    assert full is None and dropped == finished
    after = Journal(FileStore(jpath), key=TEST_KEY, device=TEST_DEVICE)
    load(after, False, False)  # its chain still checks, from the new head
    assert len(after.starts) == 1
    assert list(from_journal(jpath, str(keyfile)).m) == sums  # the totals kept: nothing they needed was cut
    log = EventLog(FileStore(str(tmp_path / "events.bin")), TEST_KEY, TEST_DEVICE)
    log.log("power-up")
    P.compacted(log, dropped)
    entry = log.since(0)[-1]
    assert entry["c"] == "journal-failure" and "%d finished games dropped" % finished in entry["d"]
    assert entry["l"] == 1 and log.locked() == ["journal-failure"]  # a tilt: no play until the supervisor
    assert EventLog(FileStore(str(tmp_path / "events.bin")), TEST_KEY, TEST_DEVICE).locked() == ["journal-failure"]
    log.clear("sup-7")  # (the supervisor's clear, clears.py's, names who)
    assert log.locked() == [] and log.since(0)[-1]["w"] == "sup-7"


def test_room_enough_or_still_full(tmp_path):
    jpath, meters = board(tmp_path, games=1)
    size = FileStore(jpath).size()
    assert P.make_room(FileStore(jpath), TEST_KEY, TEST_DEVICE, meters, free=frees(P.MIN_FREE)) == (None, 0)
    assert FileStore(jpath).size() == size  # room enough: nothing touched
    full, dropped = P.make_room(FileStore(jpath), TEST_KEY, TEST_DEVICE, meters, free=frees(0, 10, 10))
    assert dropped == 1 and "the filesystem is full (10 bytes free)" in full


def _flip(path, at):
    b = bytearray(open(path, "rb").read())
    b[at] ^= 0x40
    open(path, "wb").write(bytes(b))


def test_both_copies_bad_when_the_filesystem_is_full_is_a_locking_ram_tilt_not_a_crash(tmp_path):
    """main.py's boot order: make_room, open_events, boot.build. Two bad copies met in
    make_room (the meters cannot be brought up to the journal's end) raised out of main()
    and rebooted the board; now the journal is left whole for the lab and the boot goes on
    to the RAM-error tilt, which locks, as two bad copies at any other boot do."""
    jpath, meters = board(tmp_path)
    j = Journal(FileStore(jpath), key=TEST_KEY, device=TEST_DEVICE)
    load(j, False, False)
    meters.commit(j, True)  # the copies written, then both damaged in the flash
    size = FileStore(jpath).size()
    for c, at in zip(meters.copies, (7, 200)):
        _flip(c, at)
    meters = Meters(*meters.copies, key=TEST_KEY)  # main.py's, at the next boot
    full, dropped = P.make_room(FileStore(jpath), TEST_KEY, TEST_DEVICE, meters, free=frees(0))
    assert (full, dropped) == (None, 0)
    assert FileStore(jpath).size() == size  # nothing cut: the records are all the lab has left
    from tapis.firmware.boot.build import build
    log = P.open_events(FileStore(str(tmp_path / "events.bin")), TEST_KEY, TEST_DEVICE)
    j = Journal(FileStore(jpath), key=TEST_KEY, device=TEST_DEVICE)
    j.meters = meters
    rig = Rig(3, "ecarte")
    ctrl = build(rig.route(), j, "ecarte", events=log)
    assert ctrl.locked == ["ram-error"]
    again = EventLog(FileStore(str(tmp_path / "events.bin")), TEST_KEY, TEST_DEVICE)
    last = again.since(0)[-1]
    assert (last["c"], last["d"], last["l"]) == ("ram-error", "both copies of the meters are bad", 1)
    assert again.locked() == ["ram-error"]
