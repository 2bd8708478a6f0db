# The meters (firmware/meters/holder.py) equal what an independent sum over the deal records
# (simulator/kits/*/records.py) says, for every game and variant, over many deals; a stateful
# test reboots them at any point (the copies behind the journal, one of them damaged) and
# they still agree. The power cut at every write and the damaged copies on a table:
# tests/firmware/meters/test_meters_power.py.
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from meters_sums import Metered, compare, journaled
from tapis.firmware.offboard.named import variants
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.meters.holder import Meters
from tapis.firmware.meters.tally import ROLL, Tally, pack, unpack
from tapis.simulator.testkey import TEST_KEY

CASES = [(g, v) for g in ("ecarte", "piquet", "club") for v in [None] + sorted(variants(g))]


@pytest.mark.parametrize("game, variant", CASES)
def test_the_meters_are_the_sum_over_the_deal_records(game, variant):
    m, records, j, rules = journaled(game, variant, 7, 150)
    assert compare(m, j, game, records) == {}
    # the copies agree, a deal's boundary behind the journal at most; committed, at its end
    a, b = (c.read() for c in m.copies)
    assert a == b and 0 < unpack(m.key, a).pos <= j.size
    m.commit(j, force=True)
    t = unpack(m.key, m.copies[0].read())
    assert t.pos == j.size and t.m[0] == len(records) >= 150 and t.m[1] == rules.finished_games()
    assert compare(m, j, game, records) == {}


# make soak: one seed of 2,000 deals a variant (a second seed took as long again, 42 tests and
# 2,900 s of test time on the loaded machine, and found nothing the first did not; issue 48.3)
@pytest.mark.slow
@pytest.mark.parametrize("game, variant", CASES)
@pytest.mark.parametrize("seed", [11])
def test_the_meters_are_the_sum_over_thousands_of_deals(game, variant, seed):
    m, records, j, _rules = journaled(game, variant, seed, 2000)
    assert compare(m, j, game, records) == {}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CASES), st.integers(0, 10 ** 6), st.integers(1, 40))
def test_any_seed_any_length(case, seed, deals):
    game, variant = case
    m, records, j, _rules = journaled(game, variant, seed, deals)
    assert compare(m, j, game, records) == {}


def test_the_meters_roll_over_at_a_billion():
    t = Tally()
    t.add(5, ROLL - 2)
    t.add(5, 5)
    assert t.m[5] == 3 and unpack(b"k", pack(b"k", t)).m[5] == 3


class Recorded(MemoryStore):
    """A copy that keeps every image written to it (a power cut can leave any of them)."""

    def __init__(self):
        MemoryStore.__init__(self)
        self.images = []

    def replace(self, b):
        MemoryStore.replace(self, b)
        self.images.append(bytes(b))


class MeterReboots(RuleBasedStateMachine):
    """Deals played on a journal with meters; at any point the board reboots with its
    copies as a power cut may leave them (behind the journal, or one behind the other),
    or one copy damaged: the meters come back equal to the sum over the deal records."""

    @initialize(case=st.sampled_from([("ecarte", None), ("ecarte", "pool"), ("club", "commission-5"),
                                      ("piquet", None), ("club", None)]), seed=st.integers(0, 999))
    def start(self, case, seed):
        self.game, variant = case
        self.s = Metered(self.game, variant, seed, copies=(Recorded(), Recorded()))
        self.s.j.keep = 1  # a compaction at every game's end: the copies' positions move with it
        self.deals, self.down, self.damaged, self.events = 0, False, set(), []

    @precondition(lambda self: not self.down)
    @rule(more=st.integers(1, 12))
    def play(self, more):
        self.deals += more
        self.s.play(self.deals)

    def _valid(self, image):
        """An image a power cut may have left: its position is in the journal as it is."""
        g = unpack(self.s.m.key, image)
        store = self.s.j.store
        return g is not None and g.pos <= store.size() and (g.pos < 8 or store.read_at(g.pos - 8, 8) == g.tag)

    @rule(k=st.integers(0, 1), back=st.integers(1, 6))
    def power_cut(self, k, back):
        """Copy k is left `back` commits behind (a power cut after the journal's write)."""
        c = self.s.m.copies[k]
        old = [i for i in c.images[:-1] if self._valid(i)]
        if old and k not in self.damaged:
            c.data = bytearray(old[max(0, len(old) - back)])
            self.down = True

    @rule(k=st.integers(0, 1), at=st.integers(0, 400), bit=st.integers(0, 7))
    def damage(self, k, at, bit):
        # (both damaged: a RAM error, test_meters_power.py; one copy damaged once until the
        # reboot: the same bit flipped twice would undo the damage the reboot must see)
        if not self.damaged:
            c = self.s.m.copies[k]
            c.data[at % len(c.data)] ^= 1 << bit
            self.damaged.add(k)
            self.down = True

    @rule()
    def reboot(self):
        s = self.s
        m = Meters(*s.m.copies, key=TEST_KEY, on_event=lambda cls, d: self.events.append(d))
        held = [unpack(m.key, c.read()) for c in m.copies]  # power-ups are not the journal's: the newer copy's
        power = max((g for g in held if g is not None), key=lambda g: g.gen).m[3]
        m.commit(s.j, power=True)  # as boot.py does
        s.j.meters = s.m = m
        assert len(self.events) >= len(self.damaged)
        a, b = (c.read() for c in m.copies)
        assert a == b and unpack(m.key, a).m[3] == power + 1 and unpack(m.key, a).pos == s.j.size
        self.down, self.damaged = False, set()

    @invariant()
    def agree(self):
        if not self.down and self.deals:
            assert compare(self.s.m, self.s.j, self.game, self.s.records()) == {}


MeterReboots.TestCase.settings = settings(max_examples=20, stateful_step_count=12, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
test_meter_reboots = MeterReboots.TestCase
