# The event log keeps what matters (issue 44.3): tilts, clears, RAM clears, power-ups,
# software checks and the supervisor's entries are never evicted by routine ones (shoe
# faults, devices lost or rebooted, refused frames); the last 1,000 of them are kept whatever
# the flood; an identical fault repeated is one entry with its count and first and last time.
import pytest

from tapis.firmware.eventlog import log as E
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.journal.store import JournalError
from tapis.firmware.offboard.memstore import MemoryStore
from tests.table_rig import FailingStore, PowerLoss

KEY = bytes(range(32))
SIGNIFICANT = [(E.POWER_UP, "the table started", None, False), (E.CHECK_FAILED, "image differs", None, True),
               (E.SUPERVISOR, "limits 20 2 1", "SUP-1", False), (E.CHECK_PASSED, "image matches", None, False)]


class Clock:
    def __init__(self):
        self.t = 0

    def __call__(self):
        return self.t


def flooded(key, faults=100000, every=2500):
    """A log given `faults` shoe faults, 4 a millisecond, with a significant entry and a clear
    every `every` of them and a burst of refused frames, all different, among them."""
    clock = Clock()
    log = EventLog(MemoryStore(), key, "dev", clock=clock, unit="ms")
    kept = []
    for i in range(faults):
        clock.t = i // 4
        log.log(E.SHOE, "fault b'E'")
        if i % every == every - 1:
            cls, detail, who, locks = SIGNIFICANT[(i // every) % len(SIGNIFICANT)]
            kept.append(log.log(cls, detail, who, locks))
            if locks:
                kept.append(log.clear("SUP-2"))
            for k in range(40):  # (distinct: each its own entry, the routine ones a flood evicts)
                log.log(E.FORGED, "%d frames refused in 1 s (%d)" % (k + 1, i))
    return log, kept


@pytest.mark.parametrize("key", [KEY, None], ids=["keyed", "unkeyed"])
def test_a_flood_of_100000_shoe_faults_keeps_every_significant_entry(key):
    log, kept = flooded(key)
    assert log.store.size() < 400000  # bounded: coalesced, compacted
    for quick in (False, True):  # the boot's open: walked whole, or from the last seal
        again = EventLog(log.store, key, "dev", quick=quick and key is not None)
        got = again.since(0)
        ns = [e["n"] for e in got]
        assert ns == sorted(ns) and set(kept) <= set(ns)
        assert again.locked() == []
    by = dict((e["n"], e) for e in got)
    clears = [by[n] for n in kept if by[n]["c"] == E.CLEAR]
    assert clears and all(c["w"] == "SUP-2" and by[c["x"][0]]["c"] == E.CHECK_FAILED for c in clears)
    # the storm: each run between two other entries is one entry, its count and times
    runs = [e for e in got if e["c"] == E.SHOE]
    assert all(e.get("r", 1) <= 2500 for e in runs) and len(runs) <= len(kept) + 1
    last = runs[-1]
    assert last["r"] == 2500 and last["f"] < last["t"] and last["d"] == "fault b'E'"


def test_the_last_1000_significant_entries_are_kept_whatever_the_flood():
    log = EventLog(MemoryStore(), KEY, "dev", clock=lambda: 5, unit="ms")
    first = log.log(E.CHECK_FAILED, "image differs", locks=True)  # open: carried however old
    sig = []
    for i in range(1600):
        sig.append(log.log(E.POWER_UP, "boot %d" % i))
        for k in range(3):
            log.log(E.DEVICE_LOST, "seat %d (%d)" % (k, i))
    got = [e["n"] for e in EventLog(log.store, KEY, "dev").since(0)]
    assert set(sig[-E.KEEP:]) <= set(got) and first in got  # (an open tilt, however old)
    assert len([n for n in got if n in sig]) < E.KEEP + 260  # the older ones go, as a log's must
    assert EventLog(log.store, KEY, "dev").locked() == [E.CHECK_FAILED]


def test_repeats_are_counted_and_written_at_each_doubling_and_when_the_run_ends():
    clock = Clock()
    log = EventLog(MemoryStore(), KEY, "dev", clock=clock, unit="ms")
    for i in range(100):
        clock.t = 10 + i
        log.log(E.SHOE, "fault b'E'")
    writes = log.store.writes
    assert writes == 1 + 6  # the first, then at 2, 4, 8, 16, 32, 64
    log.log(E.POWER_UP, "next")  # ends the run: its 100 written with it, in one write
    assert log.store.writes == writes + 1
    got = log.since(0)
    assert [(e["c"], e.get("r"), e.get("f"), e["t"]) for e in got] == [
        (E.SHOE, 100, 10, 109), (E.POWER_UP, None, None, 109)]
    # a different detail, class or who, or a minute's quiet, is another run
    for detail, t in (("fault b'U'", 200), ("fault b'U'", 200 + 60001), ("fault b'E'", 200 + 60002)):
        clock.t = t
        log.log(E.SHOE, detail)
    assert [e["d"] for e in log.since(got[-1]["n"])] == ["fault b'U'", "fault b'U'", "fault b'E'"]


def test_a_power_cut_in_a_storm_loses_at_most_the_repeats_since_the_last_written():
    clock = Clock()
    store = FailingStore()
    log = EventLog(store, KEY, "dev", clock=clock, unit="ms")
    for i in range(40):
        clock.t = i
        log.log(E.SHOE, "fault b'E'")
    store.at, store.torn = store.writes + 1, 9
    with pytest.raises(PowerLoss):
        log.log(E.RAM, "both copies bad", locks=True)  # the run's 40 and the tilt: torn together
    again = EventLog(store, KEY, "dev")
    assert again.torn and again.since(0)[-1]["r"] == 32 and again.locked() == []


def test_an_edit_of_a_carried_entry_breaks_the_chain():
    log, kept = flooded(KEY, faults=20000, every=400)
    data = bytearray(log.store.read())
    at = data.index(b'"c": "power-up"')
    data[at + 8] ^= 1
    with pytest.raises(JournalError):
        EventLog(MemoryStore(bytes(data)), KEY, "dev")


def test_a_club_cut_card_is_a_shoe_event_not_a_fault():
    """Issue 44 and 46.3: every club cut card was logged as a shoe-fault (46 in 200 deals),
    which the pit showed as a tilt while the tilts.shoe meter read 0. The cut card is the
    game's (the journal's "cut"): not a fault, not in the event log."""
    from tapis.simulator.table import EmulatedTable
    log = EventLog(MemoryStore(), KEY, "dev", clock=lambda: 0, unit="ms")
    sim = EmulatedTable(3, "club", events=log)
    sim.run_deals(12)
    assert any(e[0] == "cut" for e in sim.game.log)
    assert [e for e in log.since(0) if e["c"] == E.SHOE] == []
    assert not [f for f in sim.controller.faults if "fault" in f and "C" in f]
