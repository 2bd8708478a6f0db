# The meters' oracle (tests/firmware/meters/test_meters*.py): games played by bots on the direct table with
# every input journaled as the controller journals it (a keyed journal with meters), and
# beside them what an independent sum over the game's deal records (simulator/kits/*/
# records.py, docs/records.md) says the meters must be.
from tapis.firmware.offboard.named import options as named
from tapis.firmware.journal.writer import Journal
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.meters.holder import Meters
from tapis.firmware.meters.tally import ROLL, held
from tapis.host.memory.meters import as_dict
from tapis.simulator import kits
from tapis.simulator.montecarlo.direct import DirectTable
from tapis.simulator.testkey import TEST_DEVICE, TEST_KEY

FIELDS = ("wagered", "won", "lost", "pushed", "commission")


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


def _blank(n):
    return [dict([(f, 0) for f in FIELDS], seat=s) for s in range(n)]


def expected(game, records, seats):
    """tapis.meters/1's money and counts, summed from the deal records alone."""
    out = {"deals": sum(1 for r in records if "pending" not in r), "games": 0, "voids": 0, "house": 0, "seats": _blank(seats),
           "bank": {"laid": 0, "broken": 0, "won": 0, "lost": 0}, "tableaux": _blank(3)}
    s, tab = out["seats"], out["tableaux"]
    for t in tab:
        t["tableau"] = t.pop("seat") + 1
    for k, r in enumerate(records):
        out["voids"] += sum(1 for law in r.get("laws", ()) if law[0] == "void")
        if game == "ecarte":
            out["games"] += "game_over" in r
            if k == 0:  # what was paid before the first deal: pool écarté's antes
                for seat, b in enumerate(r["start"]["balances"]):
                    s[seat]["wagered"] -= min(0, b)
                    s[seat]["lost"] -= min(0, b)
            for payer, payee, n in r["payments"]:
                s[payer]["wagered"] += n
                s[payer]["lost"] += n
                if payee != "pool":
                    s[payee]["wagered"] += n
                    s[payee]["won"] += n
            if "pool_over" in r:
                s[r["pool_over"]["winner"]]["won"] += r["pool_over"]["amount"]
        elif game == "piquet":
            out["games"] += "result" in r
        else:
            o = r["options"]
            out["games"] += sum(1 for e in r["bank_events"] if e[0] == "banker")
            out["bank"]["laid"] += sum(1 for e in r["bank_events"] if e[0] == "lay")
            out["bank"]["broken"] += bool(r["broken"])
            paid = dict(((x["seat"], x["tableau"]), x["paid"]) for x in r["short"])
            for x in r["settlement"]:
                n, net = x["amount"], x["net"]
                if x["outcome"] == "banker":
                    fee = n * o["commission"] // 100
                    col, v = "lost", n
                    out["bank"]["won"] += n - fee
                elif x["outcome"] == "punter":
                    fee = paid.get((x["seat"], x["tableau"]), n) - net
                    col, v = "won", net
                    out["bank"]["lost"] += net + fee
                else:
                    fee, col, v = 0, "pushed", n
                out["house"] += fee
                for row in (s[x["seat"]], tab[x["tableau"] - 1]):
                    row["wagered"] += n
                    row[col] += v
                    row["commission"] += fee
    if game == "club":
        out["games"] -= 1  # the first banker's: the bank a game begins with
    for row in s + tab:
        for f in FIELDS:
            row[f] %= ROLL
    return out


def compare(meters, journal, game, records):
    """The meters (as their copies and the journal say) against the sum over the records:
    their differences (empty: agree)."""
    got = as_dict(held(meters, journal))
    want = expected(game, records, len(got["seats"]))
    diff = {}
    for k in want:
        have = got[k]
        if have != want[k]:
            diff[k] = (have, want[k])
    return diff


def records_of(game, options, seed, log):
    """The deal records of a game's whole event log, as Metered.records() gives them."""
    rec = kits.find(game).Recorder(seed, options)
    out = rec.feed(list(log))
    if rec.current is not None:
        out.append(rec.partial())
    if getattr(rec, "pending", None):
        out.append({"bank_events": rec.pending, "settlement": [], "short": [], "broken": False,
                    "options": {"commission": options.commission}, "pending": True})
    return out
