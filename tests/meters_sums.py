# The meters' oracle (tests/test_meters*.py): games played by bots on the direct table with
# every input journaled as the controller journals it (a keyed journal with meters), and
# beside them what an independent sum over the game's deal records (simulator/kits/*/
# records.py, docs/records.md) says the meters must be (simulator/metersums.py, which the
# power-cut sweep, simulator/cutsweep.py, uses too).
from tapis.firmware.offboard.named import options as named
from tapis.firmware.journal.writer import Journal
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.meters.holder import Meters
from tapis.simulator import kits
from tapis.simulator.direct import DirectTable
from tapis.simulator.metersums import FIELDS, compare, expected, records_of  # noqa: F401 (the sums)
from tapis.simulator.testkey import TEST_DEVICE, TEST_KEY



class Metered:
    """A game played by bots on the direct table, its every input journaled (a keyed
    journal with meters), and its deal records."""

    def __init__(self, game, variant, seed, store=None, copies=None):
        self.game, self.options = game, named(game, variant)
        self.t = DirectTable(seed, game, self.options)
        self.j = j = Journal(store if store is not None else MemoryStore(), key=TEST_KEY, device=TEST_DEVICE)
        self.m = j.meters = Meters(*(copies or (MemoryStore(), MemoryStore())), key=TEST_KEY)
        self.m.seats = self.t.table.SEATS
        self.rules = rules = self.t.game
        j.begin(game, rules)
        apply = rules.apply

        def journaled_apply(action):
            events = apply(action)
            j.record(action, events)
            return events

        rules.apply = journaled_apply
        self.rec = kits.find(game).Recorder(seed, self.options)
        self.done, self.fed = [], 0

    def play(self, deals):
        """On to `deals` deals finished."""
        self.t.run(lambda g: g.finished_deals() >= deals)
        log = self.rules.log
        self.done.extend(self.rec.feed(log[self.fed:]))
        self.fed = len(log)
        return self

    def records(self):
        """The deal records so far, the deal in progress's as far as it went, and club's
        bank events after its last deal (in no record yet)."""
        out = list(self.done)
        if self.rec.current is not None:
            out.append(self.rec.partial())
        if getattr(self.rec, "pending", None):
            out.append({"bank_events": self.rec.pending, "settlement": [], "short": [], "broken": False,
                        "options": {"commission": self.options.commission}, "pending": True})
        return out


def journaled(game, variant, seed, deals, store=None, copies=None):
    """(meters, deal records, journal, rules) of `deals` deals played from `seed`."""
    s = Metered(game, variant, seed, store, copies).play(deals)
    return s.m, s.records(), s.j, s.rules
