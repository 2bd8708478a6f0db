# The meters on a table (tests/table_rig.py) through power cuts: reset after EVERY write,
# the journal's and the meters' copies' alike (and while it boots), the meters come out as
# an uninterrupted run's; a copy torn or damaged is rebuilt from the other and said so
# (on_event); both damaged is a RAM error (on_tilt; by default MeterError: play stops).
import pytest

from meters_sums import compare, records_of
from tapis.firmware.boot.build import build
from tapis.firmware.journal.writer import Journal
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.meters.holder import MeterError, Meters

from tapis.firmware.meters.tally import held, unpack
from tapis.firmware.offboard.meters_dict import as_dict  # (host/memory/meters.py shows it)
from tapis.simulator.testkey import TEST_DEVICE, TEST_KEY
from table_rig import FailingStore, PowerLoss, Rig


class FailingCopy(MemoryStore):
    """A meters copy whose writes count among the journal store's (FailingStore): the
    power goes right after the write numbered store.at; torn=k: during its own next write,
    after k bytes of it (what a file written in place would be left with)."""

    def __init__(self, store):
        MemoryStore.__init__(self)
        self.store, self.torn = store, 0

    def replace(self, b):
        s = self.store
        s.writes += 1
        if self.torn:
            MemoryStore.replace(self, b[:self.torn])
            self.torn = 0
            raise PowerLoss()
        if s.at is not None and s.writes == s.at:
            s.at = None
            MemoryStore.replace(self, b)
            raise PowerLoss()
        MemoryStore.replace(self, b)


class MeteredRig(Rig):
    """The table rig, its journal with meters (their copies in memory, beside its store)."""

    def __init__(self, seed, game="ecarte", store=None, keep=10, **kw):
        store = store if store is not None else FailingStore()
        self.copies = (FailingCopy(store), FailingCopy(store))
        self.keep, self.said, self.tilts, self.fails = keep, [], [], 0
        Rig.__init__(self, seed, game, store, key=TEST_KEY, device=TEST_DEVICE, **kw)

    def _controller(self):
        for _addrs, end in self.wires:
            end.inbox.clear()
            if hasattr(end, "tx"):
                end.tx.clear()
        self.journal = Journal(self.store, keep=self.keep, held=self.held, key=TEST_KEY, device=TEST_DEVICE)
        self.meters = self.journal.meters = Meters(*self.copies, key=TEST_KEY,
                                                   on_event=lambda c, d: self.said.append(d),
                                                   on_tilt=self._tilt)
        ctrl = build(self.route(), self.journal, self.name, self.options)
        self.game = ctrl.game
        return ctrl

    def boot(self):
        Rig.boot(self)
        self.fails = 0

    def _tilt(self, cls, detail):
        self.tilts.append((cls, detail))
        raise MeterError(detail)

    def meters_now(self):
        d = as_dict(held(self.meters, self.journal))
        del d["power_ups"], d["generation"]
        return d


def reset_after_every_write(seed, game, games, keep=10):
    rig = MeteredRig(seed, game, keep=keep)
    rig.store.at = rig.store.writes + 1

    def again(r):
        # every boot writes (the meters' power-up): a boot cut again goes one write further
        r.fails += 1
        r.store.at = r.store.writes + r.fails

    rig.run(games, on_reset=again)
    return rig


@pytest.mark.parametrize("game, seed, games, keep", [("ecarte", 11, 2, 10), ("club", 3, 1, 10),
                                                     ("piquet", 5, 1, 10), ("ecarte", 11, 2, 1)])
def test_a_reset_after_every_write_leaves_the_meters_as_an_uninterrupted_run(game, seed, games, keep):
    clean = MeteredRig(seed, game, keep=keep)
    clean.run(games)
    records = records_of(game, clean.ctrl.game.options, seed, clean.ctrl.game.log)
    assert compare(clean.meters, clean.journal, game, records) == {}
    rig = reset_after_every_write(seed, game, games, keep)
    assert rig.resets >= 20 and not rig.tilts
    assert rig.meters_now() == clean.meters_now()
    # a power-up counted at each boot that wrote its copies (not those cut before)
    t = held(rig.meters, rig.journal)
    assert 2 <= t.m[3] <= rig.resets + 1
    # a write cut short of a copy is never left: each is whole (written, then renamed)
    assert not [e for e in rig.said if "bad" in e]


def test_a_torn_copy_is_rebuilt_from_the_other_at_boot_and_said_so():
    rig = MeteredRig(4, "ecarte")
    _deals(rig, 2)
    rig.copies[0].torn = 30  # copy a's next write is cut after 30 bytes
    while not rig.resets:
        rig.now += 1
        try:
            rig.ctrl.step(rig.now)
        except PowerLoss:
            rig.resets += 1
            rig.boot()
        for d in rig.devices:
            d.step(rig.now)
        for line in rig.lines:
            line.step(rig.now)
    assert any("meter copy a was bad: rebuilt from copy b" in e for e in rig.said)
    a, b = (c.read() for c in rig.copies)
    assert a == b and unpack(rig.meters.key, a) is not None


def _deals(rig, n):
    while rig.ctrl.game.finished_deals() < n:
        rig.step()


def _flip(copy, at):
    copy.data[at] ^= 0x10


def test_a_flipped_byte_in_one_copy_is_repaired_at_the_next_deal_and_in_both_tilts():
    rig = MeteredRig(6, "ecarte")
    _deals(rig, 2)
    deals = rig.ctrl.game.finished_deals()
    _flip(rig.copies[1], 100)
    while rig.ctrl.game.finished_deals() < deals + 2:
        rig.step()
    assert any("meter copy b was bad: rebuilt from copy a" in e for e in rig.said)
    assert rig.copies[0].read() == rig.copies[1].read() and not rig.tilts
    _flip(rig.copies[0], 50)
    _flip(rig.copies[1], 51)
    with pytest.raises(MeterError):
        while True:
            rig.step()
    assert rig.tilts and rig.tilts[0][0] == "ram-error"


def test_at_boot_one_bad_copy_is_rebuilt_and_two_stop_the_table():
    rig = MeteredRig(6, "club")
    _deals(rig, 2)
    before = rig.meters_now()
    _flip(rig.copies[0], 7)
    rig.boot()
    assert rig.meters_now() == before and any("copy a was bad" in e for e in rig.said)
    _flip(rig.copies[0], 7)
    _flip(rig.copies[1], 200)
    with pytest.raises(MeterError, match="both copies"):
        rig.boot()
    # a board's (no on_tilt handed in: boot.build hands the controller's): a RAM-error tilt,
    # in the event log, that locks the table until the supervisor's RAM clear
    from tapis.firmware.eventlog.log import EventLog
    j = Journal(MemoryStore(rig.store.read()), key=TEST_KEY, device=TEST_DEVICE)
    j.meters = Meters(*rig.copies, key=TEST_KEY)
    ev = EventLog(MemoryStore(), TEST_KEY, TEST_DEVICE, clock=lambda: 0, unit="ms")
    ctrl = build(rig.route(), j, "club", events=ev)
    assert ctrl.locked == ["ram-error"]
    last = EventLog(ev.store, TEST_KEY, TEST_DEVICE).since(0)[-1]
    assert (last["c"], last["d"], last["l"]) == ("ram-error", "both copies of the meters are bad", 1)
