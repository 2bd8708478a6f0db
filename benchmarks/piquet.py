"""Piquet declarations: hand pairs per second through the batch API, the compiled twin
against the pure one in the same run (issue 4: at least 1 million pairs per second).

    .venv/bin/python benchmarks/piquet.py [--pairs N] [--pure-pairs N] [--deals N] [--repeat R] [--seed S] [--quick]

Random deals of the 32-card pack (elder's and younger's 12 cards, as bitmasks) go through
`declare_batch`; both twins must give the same answers for the pairs they both score.
It also plays `--deals` piquet deals on the emulated table (rules, frames, devices, bots)
with each core, for the full-stack rate.
"""
import argparse
import time
from array import array

from _quick import parse
from tapis.cython_core import declarations as compiled
from tapis.firmware.games.piquet import declarations as pure
from tapis.firmware.offboard import deck
from tapis.firmware.offboard.rng import Seeded
from tapis.cython_core import evaluate as compiled_evaluate
from tapis.firmware import evaluate as pure_evaluate
from tapis.simulator.table.emulated import EmulatedTable


def deals(n, seed):
    rng = Seeded(seed)
    es, ys = array("Q"), array("Q")
    for _ in range(n):
        p = deck.shuffle(deck.deck32(), rng.below)
        es.append(pure.hand_mask(p[:12]))
        ys.append(pure.hand_mask(p[12:24]))
    return es, ys


def rate(twin, es, ys, repeat):
    out = array("i", [0]) * (9 * len(es))
    best = 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        twin.declare_batch(es, ys, out)
        best = max(best, len(es) / (time.perf_counter() - t0))
    return best, out


def table_rate(evaluator, deals, seed):
    sim = EmulatedTable(seed, "piquet", evaluator=evaluator)
    t0 = time.perf_counter()
    sim.run_deals(deals)
    return deals / (time.perf_counter() - t0)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pairs", type=int, default=200_000, help="pairs for the compiled twin")
    p.add_argument("--pure-pairs", type=int, default=20_000, help="pairs for the pure twin")
    p.add_argument("--deals", type=int, default=300, help="deals on the emulated table")
    p.add_argument("--repeat", type=int, default=3, help="interleaved table runs (and 2 + this batch runs)")
    p.add_argument("--seed", type=int, default=7)
    a = parse(p, {"pairs": 20_000, "pure_pairs": 1000, "deals": 2, "repeat": 1})
    es, ys = deals(a.pairs, a.seed)
    fast, out_c = rate(compiled, es, ys, a.repeat + 2)
    n = min(a.pure_pairs, a.pairs)
    slow, out_p = rate(pure, es[:n], ys[:n], 1)
    assert out_p == out_c[:9 * n], "the twins disagree"
    print("piquet declarations, hand pairs/s  pure %.0f  cython %.0f  ratio cython/pure %.0fx  "
          "(target >= 1,000,000/s: %s)" % (slow, fast, fast / slow, "met" if fast >= 1e6 else "MISSED"))
    best = {}
    for _ in range(a.repeat):  # interleaved, best of three
        for label, ev in (("pure", pure_evaluate), ("cython", compiled_evaluate)):
            best[label] = max(best.get(label, 0), table_rate(ev, a.deals, a.seed))
    print("piquet full-stack table, deals/s  pure %.0f  cython %.0f  ratio cython/pure %.2fx" % (
        best["pure"], best["cython"], best["cython"] / best["pure"]))


if __name__ == "__main__":
    main()
