"""Full-stack écarté deals per second: rules, frames and emulated devices through the
firmware controller, with the compiled core against the pure twin in the same run.

    .venv/bin/python benchmarks/table_deals.py [--deals N] [--repeat R] [--seed S] [--quick]
"""
import argparse
import time

from _quick import parse
from tapis.cython_core import evaluate as compiled
from tapis.firmware import evaluate as pure
from tapis.simulator.table import EmulatedTable


def deals_per_second(evaluator, deals, seed):
    sim = EmulatedTable(seed, evaluator=evaluator)
    t0 = time.perf_counter()
    sim.run_deals(deals)
    return deals / (time.perf_counter() - t0)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=3000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=7)
    a = parse(p, {"deals": 20, "repeat": 1})
    best = {}
    for _ in range(a.repeat):  # interleaved, best of three, so both see the same machine
        for label, ev in (("pure", pure), ("cython", compiled)):
            best[label] = max(best.get(label, 0), deals_per_second(ev, a.deals, a.seed))
    print("full-stack deals/s  pure %.0f  cython %.0f  ratio cython/pure %.2fx" % (
        best["pure"], best["cython"], best["cython"] / best["pure"]))


if __name__ == "__main__":
    main()
