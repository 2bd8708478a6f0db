"""Full-stack deals per second, écarté and piquet: rules, frames and emulated devices through
the firmware controller on the board's wires (the bus, pairing and sessions on), with the
compiled core against the pure twin in the same run, beside the direct rules' rate (the
same game without frames, links or controller: simulator/montecarlo/direct.py).

    PYTHONPATH=. .venv/bin/python benchmarks/table_deals.py [--deals N] [--repeat R] [--seed S] [--quick]

(PYTHONPATH=.: this checkout's tapis, not the one the virtual environment installed; run_all.py
sets it.) --deals is écarté's count; piquet plays a third as many (a deal is about three times as long).
"""
import argparse
import time

from _quick import parse
from tapis.cython_core import evaluate as compiled
from tapis.firmware import evaluate as pure
from tapis.simulator.montecarlo.direct import DirectTable
from tapis.simulator.table.emulated import EmulatedTable


def deals_per_second(make, game, evaluator, deals, seed):
    sim = make(seed, game, evaluator=evaluator)
    t0 = time.perf_counter()
    sim.run_deals(deals)
    return deals / (time.perf_counter() - t0)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=1500)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=7)
    a = parse(p, {"deals": 21, "repeat": 1})
    runs = (("table pure", EmulatedTable, pure), ("table cython", EmulatedTable, compiled),
            ("direct cython", DirectTable, compiled))
    print("%-8s %12s %13s %14s %8s" % ("game", "table pure", "table cython", "direct cython", "direct/table"))
    for game, deals in (("ecarte", a.deals), ("piquet", max(1, a.deals // 3))):
        best = {}
        for _ in range(a.repeat):  # interleaved, best of R, so all see the same machine
            for label, make, ev in runs:
                best[label] = max(best.get(label, 0), deals_per_second(make, game, ev, deals, a.seed))
        print("%-8s %12.0f %13.0f %14.0f %7.1fx" % (
            game, best["table pure"], best["table cython"], best["direct cython"],
            best["direct cython"] / best["table cython"]))


if __name__ == "__main__":
    main()
