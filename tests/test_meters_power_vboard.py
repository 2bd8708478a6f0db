"""A power cut at a write of the MicroPython board (the unix port's virtual board: its
journal, meters and event log are files that outlive the cut), as test_meters_power.py and
test_events.py cut the CPython board's: the board dies right after (or in the middle of) its
N-th write, whatever file it was writing (journal, a meters copy, the event log, a rename),
and boots again from its flash. After each reboot the meters (the copies brought up to the
journal's end, as the board reads them) equal the independent sum over the deal records the
journal's game gives (tests/meters_sums.py), the event log's chain verifies under the device
key, nothing was set aside and nothing locks (certification.md, "The same on the
MicroPython boards")."""
import pytest

from meters_sums import expected
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.link.hello import TEST_KEY
from tapis.firmware.journal.writer import Journal
from tapis.firmware.meters.holder import Meters
from tapis.firmware.journal.resume import load
from tapis.firmware.journal.store import FileStore
from tapis.firmware.meters.tally import beside, held
from tapis.host.meters_show import as_dict
from tapis.simulator import vboard as V
from tapis.simulator.cutvboard import CutBoard
from tapis.simulator.metersums import journal_records as sums_of_journal
from tapis.simulator.vtable import BoardError

DEALS = 2  # within écarté's first game (a partie is 5 points): the journal holds it whole


def journal_records(flash, seed, key=TEST_KEY, device="vboard"):
    """(the deal records of every game the board's journal (in the directory `flash`)
    holds, the deals voided in it): simulator/metersums.py's, of its bytes."""
    return sums_of_journal((flash / "journal.bin").read_bytes(), seed, key, device)


def agrees(flash, seed, key=TEST_KEY, device="vboard"):
    """The board's files (in the directory `flash`), read as the lab would: the meters
    against the sum over the deal records of its journal's game; the event log's chain;
    no log set aside, no lock."""
    j = Journal(FileStore(str(flash / "journal.bin")), key=key, device=device)
    load(j, False, False)
    m = Meters(*beside(str(flash / "journal.bin")), key=key)
    got = as_dict(held(m, j))
    records, voided = journal_records(flash, seed, key, device)
    want = expected("ecarte", records, len(got["seats"]))
    want["voids"] += voided  # a deal the power cut while it was dealt: voided at the reboot
    assert {k: (got[k], want[k]) for k in want if got[k] != want[k]} == {}
    assert not getattr(m, "events", None), m.events  # no copy found bad: each written whole, then renamed
    log = EventLog(FileStore(str(flash / "events.bin")), key, device)  # (JournalError if broken)
    entries = log.since(0)
    assert entries[0]["c"] == "power-up" and log.locked() == []
    assert not (flash / "events.bad").exists()
    return entries


def run(monkeypatch, at, torn=False, seed=3):
    """The board cut at its write `at` (0: never) while DEALS deals are played, booted again,
    played on to DEALS + 1; (writes counted before the cut, cut or not)."""
    monkeypatch.setattr(V, "UNIX_MEASURE", V.UNIX_MEASURE.replace("gc.collect()", "import cut\ngc.collect()", 1))
    with CutBoard(seed, at, torn) as vb:
        while vb.game.finished_deals() < DEALS + vb.cuts:
            try:
                vb.step()
            except BoardError:
                vb.died()
                vb.power_cycle()
                for _ in range(5):  # booted, its meters committed at the power-up
                    vb.step()
                agrees(vb.flash, vb.seed)
        entries = agrees(vb.flash, vb.seed)
        if not vb.cuts:
            vb.count = int((vb.flash / "cut.n").read_text())
        # each boot's power-up (one torn by the cut is dropped at the next boot)
        assert 1 <= [e["c"] for e in entries].count("power-up") <= 1 + vb.cuts
    vb.disk.cleanup()
    return vb.count, bool(vb.cuts)


def _writes(monkeypatch):
    count, cut = run(monkeypatch, 0)
    assert not cut and count > 20
    return count


def test_a_power_cut_at_a_sample_of_writes_leaves_meters_journal_and_event_log_agreeing(monkeypatch):
    count = _writes(monkeypatch)
    for at in range(1, count + 1, 7):
        got, cut = run(monkeypatch, at, torn=at % 2 == 0)
        assert cut and got == at


@pytest.mark.slow
def test_a_power_cut_at_every_write_leaves_meters_journal_and_event_log_agreeing(monkeypatch):
    count = _writes(monkeypatch)
    for at in range(1, count + 1):
        for torn in (False, True):
            got, cut = run(monkeypatch, at, torn)
            assert cut and got == at
