"""`tapis simulate` for écarté, piquet and club: a deal on the direct table (rules, the table
adapters' views as JSON, the bots' presses: simulator/montecarlo/direct.py) against the same deal on the
emulated table (frames, the bus, devices, the firmware controller), then whole runs on one and
two workers, and where a direct deal's time goes. All in one run; the deals' outcomes are
compared.

    .venv/bin/python benchmarks/simulate.py [--deals N] [--repeat R] [--seed S] [--quick]

The two tables play the same game, but not always in the same order: on the bus two seats
that may act at once (elder's lead and the dealer's king, both legal) are taken as their
presses arrive. So each deal's record (simulator/kits/<game>/records.py) is compared without
the players' inputs and plays, the order of which may differ: cards, trumps, tricks, points,
scores, payments and balances must all be the same.

Deal rates are CPU time of this process (one core), best of R interleaved runs, with the
compiled core. Whole runs are wall clock (the workers are other processes).
"""
import argparse
import cProfile
import os
import pstats
import time

from _quick import parse
from tapis.cython_core import twins
from tapis.simulator import kits
from tapis.simulator.montecarlo import simulate as MC
from tapis.simulator.montecarlo.direct import DirectTable
from tapis.simulator.kits.ecarte import bots as ecarte_bots
from tapis.simulator.table.emulated import EmulatedTable

DEALS = {"ecarte": 400, "piquet": 60, "club": 400}
RUNS = {"ecarte": 400, "piquet": 40, "club": 4_000_000}  # rounds of a whole run: games, parties, deals
PROFILE = {"ecarte": 300, "piquet": 40}  # direct deals profiled
# the actions concurrent seats may take in another legal order: not part of the outcome
ORDER = ("inputs", "plays", "actions")
# seed 1: its écarté deal 20 is played in another legal order on the bus (elder's lead, then
# the dealer's king that ends the game; the direct table takes the king first), so the
# comparison of outcomes meets the case it is there for
QUICK = {"seed": 1, "per_game": {"ecarte": 20, "piquet": 2, "club": 6}, "repeat": 1,
         "profile": {"ecarte": 6, "piquet": 2},
         # two chunks a run, so that two workers each take one
         "runs": {"ecarte": (2, 1), "piquet": (2, 1), "club": (10_000, 5_000)}}


def deal_rate(make, game, deals, seed):
    ecarte_bots._ADVICE.clear()  # the advisor's cache: each run pays for its own answers
    t = make(seed, game, evaluator=twins.evaluate)
    t0 = time.process_time()
    t.run_deals(deals)
    return deals / (time.process_time() - t0), t.game


def records(game, seed, rules):
    """The deals' records, each as (outcome, order): what must agree, and what may not."""
    out = []
    for r in kits.find(game).Recorder(seed, rules.options).feed(rules.log):
        out.append(({k: v for k, v in r.items() if k not in ORDER}, [r.get(k) for k in ORDER]))
    return out


def tables(deals, repeat, seed):
    """deals: {game: deals per table run}."""
    print("deals/s, CPU time, best of %d interleaved (compiled core; %s)" % (repeat, twins.CORE))
    print("%-8s %10s %10s %7s  %s" % ("game", "emulated", "direct", "ratio", "same outcomes"))
    for game in ("ecarte", "piquet", "club"):
        n = deals[game]
        best = {"emulated": 0.0, "direct": 0.0}
        played = {}
        for _ in range(repeat):
            for name, make in (("emulated", EmulatedTable), ("direct", DirectTable)):
                rate, played[name] = deal_rate(make, game, n, seed)
                best[name] = max(best[name], rate)
        emulated, direct = (records(game, seed, played[k]) for k in ("emulated", "direct"))
        assert len(emulated) == len(direct) >= n - 1, (game, len(emulated), len(direct))
        for k, ((a, _), (b, _)) in enumerate(zip(emulated, direct)):
            assert a == b, "%s deal %d: %s" % (game, k + 1, sorted(x for x in a if a[x] != b.get(x)))
        reordered = sum(1 for (_, a), (_, b) in zip(emulated, direct) if a != b)
        print("%-8s %10.0f %10.0f %6.2fx  all %d deals (%d with the players' actions in another legal order)" % (
            game, best["emulated"], best["direct"], best["direct"] / best["emulated"], len(direct), reordered))


def runs(seed, sizes):
    print("whole runs, wall clock: MC.simulate on 1 and 2 workers (machine: %d CPUs, load %.1f)" % (
        os.cpu_count(), os.getloadavg()[0]))
    print("%-8s %10s %12s %12s %7s" % ("game", "rounds", "1 worker /s", "2 workers /s", "ratio"))
    for game in ("ecarte", "piquet", "club"):
        n, chunk = sizes[game] if isinstance(sizes[game], tuple) else (sizes[game], None)
        rates, reports = [], []
        for w in (1, 2):
            t0 = time.perf_counter()
            r, _ = MC.simulate(game, n, seed, workers=w, chunk=chunk)
            rates.append(n / (time.perf_counter() - t0))
            reports.append({k: v for k, v in r.items() if k not in ("workers", "backend")})
        assert reports[0] == reports[1], game
        print("%-8s %10d %12.1f %12.1f %6.2fx  (%s)" % (game, n, rates[0], rates[1], rates[1] / rates[0],
                                                       MC.SIMULATORS[game].unit))


def profile(seed, sizes):
    """Shares of a direct deal's CPU time, écarté and piquet."""
    for game, n in sizes.items():
        ecarte_bots._ADVICE.clear()
        t = DirectTable(seed, game, evaluator=twins.evaluate)
        prof = cProfile.Profile()
        prof.runcall(t.run_deals, n)
        st = pstats.Stats(prof)
        total = st.total_tt
        cum = {}
        for (path, _line, fn), (_cc, _nc, _tt, ct, _callers) in st.stats.items():
            key = None
            if fn == "view" and "games" in path:
                key = "the adapter's views"
            elif fn in ("dumps", "loads") and "json" in path:
                key = "JSON (encode, decode)"
            elif fn == "presses" and "kits" in path:
                key = "the bots"
            elif fn == "apply" and path.endswith("rules.py"):
                key = "the rules (apply)"
            if key:
                cum[key] = cum.get(key, 0) + ct
        print("%s, %d deals: %.2f ms a deal; %s" % (game, n, 1000 * total / n, ", ".join(
            "%s %.0f %%" % (k, 100 * v / total) for k, v in sorted(cum.items(), key=lambda kv: -kv[1]))))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, help="deals per table run (default: per game)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=7)
    p.set_defaults(per_game=DEALS, runs=RUNS, profile=PROFILE)
    a = parse(p, QUICK)
    tables({g: a.deals or n for g, n in a.per_game.items()}, a.repeat, a.seed)
    runs(a.seed, a.runs)
    profile(a.seed, a.profile)


if __name__ == "__main__":
    main()
