"""One chain of custody (issue 44.1, 44.2's binding, 44.7) on the CPython board: its journal,
its event log and its two meters copies are files, edited here as a technician with the
flash and no key would edit them (issue 44's "Why", measured at d09a90a). Each attack
played on unlocked before; now the boot compares the three heads before it writes anything
and a disagreement is a locking tilt that names it. A power cut's own traces (a power-up
counted whose entry was never written, a counter step announced but not made) are mended
and logged, nothing locked."""
import os
import shutil

import pytest

from tapis.firmware.eventlog import log as E
from tapis.firmware.eventlog.log import EventLog, beside as log_beside
from tapis.firmware.journal.store import FileStore
from tapis.firmware.journal.writer import Journal
from tapis.firmware.meters.holder import Meters
from tapis.firmware.meters.tally import beside, held, read, unpack
from tapis.simulator.table.emulated import EmulatedTable
from tapis.simulator.testkey import TEST_DEVICE, TEST_KEY


class Counter:
    """A test double of link/counter.py's Counter: a monotonic counter off the flash (read,
    increment -> the new value), which no edit of the files rolls back."""

    def __init__(self, value=0):
        self.value = value

    def read(self):
        return self.value

    def increment(self):
        self.value += 1
        return self.value


class Board:
    """The CPython board on files (as `tapis table --journal PATH` keeps them): each boot()
    a new controller from the files, as after a power cycle."""

    def __init__(self, path, game="ecarte", seed=3, counter=None):
        self.path, self.game, self.seed, self.counter = str(path), game, seed, counter
        self.boot()

    def files(self):
        return [self.path, log_beside(self.path)] + list(beside(self.path))

    def boot(self):
        j = Journal(FileStore(self.path), key=TEST_KEY, device=TEST_DEVICE)
        j.meters = Meters(*beside(self.path), key=TEST_KEY)
        events = EventLog(FileStore(log_beside(self.path)), TEST_KEY, TEST_DEVICE)
        self.sim = EmulatedTable(self.seed, self.game, journal=j, events=events, counter=self.counter)
        return self

    @property
    def ctrl(self):
        return self.sim.controller

    def play(self, deals):
        self.sim.run_deals(self.sim.game.finished_deals() + deals)

    def log(self):
        return EventLog(FileStore(log_beside(self.path)), TEST_KEY, TEST_DEVICE)

    def meters(self):
        j = self.sim.journal
        j.flush()
        return held(Meters(*beside(self.path), key=TEST_KEY), j)

    def copies(self):
        key = Meters(None, None, key=TEST_KEY).key
        return [unpack(key, read(c)) for c in beside(self.path)]


def tilted(b, cls=E.RAM):
    """A locking tilt of `cls` on the board after a few deals, and a power cycle after it
    (its power-up the entry after the tilt's): locked both times."""
    b.play(3)
    b.ctrl.tilt(cls, "as the board's check reported it")
    assert b.ctrl.locked == [cls]
    b.boot()
    assert b.ctrl.locked == [cls]


def entries(b):
    """[(offset, entry)] of the board's event log."""
    return [(off, rec) for off, rec in b.log().walk() if rec is not None and rec["k"] == "e"]


@pytest.mark.parametrize("cls", [E.RAM, E.JOURNAL])
def test_a_locking_tilt_survives_the_log_and_both_meter_copies_deleted(tmp_path, cls):
    b = Board(tmp_path / "journal.bin")
    tilted(b, cls)
    for f in b.files()[1:]:
        os.remove(f)
    b.boot()
    assert b.ctrl.locked, "the table plays on"
    said = " ".join(e["d"] for _o, e in entries(b) if e.get("l"))
    assert "both copies of the meters are missing" in said and "event log cut" in said


@pytest.mark.parametrize("where, after", [("boundary", 0), ("torn", 0), ("boundary", 1), ("torn", 1)])
def test_a_locking_tilt_cut_off_the_log_still_locks(tmp_path, where, after):
    """The log cut back before a locking tilt's entry, at a record boundary or inside the
    tilt's record so that it looks torn; the tilt the last entry (after=0) or the
    second-to-last, a power-up after it (after=1). The boot wrote its own power-up under the
    cut number before it compared, and played on."""
    b = Board(tmp_path / "journal.bin")
    b.play(3)
    b.ctrl.tilt(E.JOURNAL, "as the board's check reported it")
    if after:
        b.boot()
    got = entries(b)
    at, tilt = got[-1 - after]
    assert tilt["c"] == E.JOURNAL and b.ctrl.locked == [E.JOURNAL]
    with open(log_beside(b.path), "r+b") as f:
        f.truncate(at if where == "boundary" else at + 7)
    b.boot()
    assert E.JOURNAL in b.ctrl.locked, "the table plays on"
    last = [e for _o, e in entries(b) if e.get("l")][-1]
    assert last["c"] == E.JOURNAL and last["d"].startswith("event log cut at entry %d: " % (tilt["n"] - 1))


def test_both_meter_copies_put_back_lock(tmp_path):
    b = Board(tmp_path / "journal.bin")
    b.play(2)
    saved = [open(c, "rb").read() for c in beside(b.path)]
    before = b.meters().m[0]
    b.play(12)
    assert b.meters().m[0] >= before + 12
    for c, data in zip(beside(b.path), saved):
        with open(c, "wb") as f:
            f.write(data)
    b.boot()
    assert b.ctrl.locked == [E.RAM], "the meters went back %d deals, no lock" % (b.meters().m[0] - before)
    tilt = [e for _o, e in entries(b) if e["c"] == E.RAM][-1]
    assert "put back" in tilt["d"] and tilt.get("l")


def test_both_meter_copies_deleted_lock(tmp_path):
    b = Board(tmp_path / "journal.bin", "piquet", 5)
    b.play(4)
    for c in beside(b.path):
        os.remove(c)
    b.boot()
    assert b.ctrl.locked == [E.RAM]
    assert "both copies of the meters are missing" in [e for _o, e in entries(b) if e["c"] == E.RAM][-1]["d"]


def test_the_whole_flash_put_back_locks_a_board_with_a_counter(tmp_path):
    """The journal, the log and both copies from deals earlier (a consistent older state,
    which nothing on the flash alone can tell): the counter off the flash is ahead."""
    counter = Counter(100)
    b = Board(tmp_path / "journal.bin", counter=counter)
    b.play(2)
    saved = {f: open(f, "rb").read() for f in b.files()}
    stepped = counter.value
    b.play(20)  # (the counter steps every 16th commit: about every 15 deals, docs/security.md)
    assert counter.value > stepped
    for f, data in saved.items():
        with open(f, "wb") as out:
            out.write(data)
    b.boot()
    assert b.ctrl.locked == [E.RAM]
    tilt = [e for _o, e in entries(b) if e["c"] == E.RAM][-1]
    assert "the counter reads" in tilt["d"] and "the flash was put back" in tilt["d"]


def test_a_counter_step_a_power_cut_stopped_is_made_and_logged(tmp_path):
    counter = Counter(7)
    b = Board(tmp_path / "journal.bin", counter=counter)
    b.play(1)
    bound = b.copies()[0].cnt
    assert bound == counter.value
    counter.value -= 1  # the copies said the next value, the power went before the step
    b.boot()
    assert b.ctrl.locked == [] and counter.value == bound + 1
    assert [e for _o, e in entries(b) if e["c"] == E.METER and "counter's step" in e["d"]]


def test_a_power_up_is_metered_in_the_commit_that_logs_it(tmp_path, monkeypatch):
    """A cut in the boot between the power-up's entry and the meters' commit: every start
    in the log is a power-up in the meters (the entry is held, counted, then written; a cut
    after the count and before the write is mended at the next boot, and logged)."""
    b = Board(tmp_path / "journal.bin")
    b.play(1)
    from tapis.firmware.boot import powerup

    def cut(*_a, **_k):
        raise SystemExit("power cut")
    monkeypatch.setattr(powerup, "deferred", cut)
    for _ in range(3):
        with pytest.raises(SystemExit):
            b.boot()
    monkeypatch.undo()
    b.boot()
    ups = [e for _o, e in entries(b) if e["c"] == E.POWER_UP]
    assert b.ctrl.locked == []
    assert b.meters().m[3] == len(ups) == 5, (b.meters().m[3], [e["d"] for e in ups])


def test_a_piquet_cut_redone_is_no_voided_deal_and_deals_finished_are_metered(tmp_path):
    from tapis.firmware.meters.layout import FINISHED, LATER
    from meters_sums import Metered
    from tapis.firmware.games.piquet import faults
    m = Metered("piquet", None, 5)
    m.play(6)
    t = held(m.m, m.j)
    assert t.m[FINISHED] == m.rules.finished_deals() == 6 and LATER[0] == "finished"
    for game, seed, n in (("ecarte", 3, 9), ("club", 4, 7)):  # the rules' own count of deals finished
        e = Metered(game, None, seed).play(n)
        assert held(e.m, e.j).m[FINISHED] == e.rules.finished_deals() >= n
    tally = held(m.m, m.j)
    tally.event("void", -1, "the players cut again")
    assert (tally.m[2], tally.m[FINISHED + 1]) == (t.m[2], t.m[FINISHED + 1] + 1)
    assert "the players cut again" in open(faults.__file__).read()


def test_an_unedited_board_never_locks_across_power_cycles(tmp_path):
    counter = Counter()
    b = Board(tmp_path / "journal.bin", "piquet", 4, counter=counter)  # (club's resume: issue 44.4, w44-log)
    for _ in range(3):
        b.play(3)
        b.boot()
        assert b.ctrl.locked == []
    assert not [e for _o, e in entries(b) if e.get("l") or e["c"] == E.METER]
    shutil.rmtree(tmp_path)


def test_a_table_locked_at_its_boot_says_by_what_and_how_it_is_cleared(tmp_path):
    """Issue 44.6: `tapis table` on a journal whose boot locked (both meter copies deleted):
    which tilt, what disagreed and how a supervisor clears it; exit 3, no traceback."""
    from test_cli_conventions import tapis
    journal = str(tmp_path / "t.jnl")
    assert tapis("table", "--journal", journal, "--seed", "3", "--deals", "2", "--quiet", "--json").returncode == 0
    for c in beside(journal):
        os.remove(c)
    p = tapis("table", "--journal", journal, "--seed", "3", "--deals", "1", "--quiet", "--json")
    assert p.returncode == 3 and "Traceback" not in p.stderr, p.stderr
    assert "locked by the tilt" in p.stderr and "ram-error" in p.stderr and "tapis clear --port" in p.stderr
    assert "both copies of the meters are missing" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_the_boots_comparison_names_what_disagreed_and_nothing_on_an_unedited_board(tmp_path):
    """custody.compare, as the boot calls it before anything is written: nothing on the
    files as the board left them; both meter copies put back from earlier: the meters'
    (a RAM error) named, with the generations that disagree."""
    from tapis.firmware.boot.custody import compare

    b = Board(tmp_path / "journal.bin", "ecarte", 7)
    b.play(2)
    early = [open(c, "rb").read() for c in beside(b.path)]
    b.play(3)

    def opened():
        j = Journal(FileStore(b.path), key=TEST_KEY, device=TEST_DEVICE)
        from tapis.firmware.journal.resume import load
        load(j, False)
        j.meters = Meters(*beside(b.path), key=TEST_KEY)
        return j, EventLog(FileStore(log_beside(b.path)), TEST_KEY, TEST_DEVICE)

    j, events = opened()
    assert compare(j, j.meters, events) == ([], [])
    for c, data in zip(beside(b.path), early):
        with open(c, "wb") as f:
            f.write(data)
    j, events = opened()
    bad, mended = compare(j, j.meters, events)
    assert [cls for cls, _what in bad] == [E.RAM] and mended == [], bad
