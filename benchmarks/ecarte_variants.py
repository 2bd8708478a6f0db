"""Full-stack écarté deals per second for each variant and with a misdealing shoe, against
the default rules in the same run (ratio variant/default). CPU time of this process, so
other work on the machine does not skew the ratios.

    .venv/bin/python benchmarks/ecarte_variants.py [--deals N] [--repeat R] [--seed S] [--quick]
"""
import argparse
import time

from _quick import parse
from tapis.cython_core import evaluate as compiled
from tapis.simulator.table.emulated import faulty_table
from tapis.firmware.offboard import named
from tapis.simulator.table.emulated import EmulatedTable


def rate(make, deals):
    sim = make()
    t0 = time.process_time()
    sim.run_deals(deals)
    return deals / (time.process_time() - t0)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=600)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=7)
    a = parse(p, {"deals": 8, "repeat": 1})
    cases = [("default", lambda: EmulatedTable(a.seed, evaluator=compiled))]
    for name in ("doubling", "offer-point", "pool", "quick", "gallery"):
        cases.append((name, lambda name=name: EmulatedTable(
            a.seed, evaluator=compiled, options=named.options("ecarte", name))))
    faults = {(k, 1 + k % 11): ("unread", "faceup", "double")[k % 3] for k in range(1, a.deals + 1)}
    cases.append(("a fault every deal", lambda: faulty_table(a.seed, faults, evaluator=compiled)))
    best = {}
    for _ in range(a.repeat):  # interleaved, best of three
        for label, make in cases:
            best[label] = max(best.get(label, 0), rate(make, a.deals))
    base = best["default"]
    for label, _make in cases:
        print("%-20s %6.0f deals/s  ratio to default %.2fx" % (label, best[label], best[label] / base))


if __name__ == "__main__":
    main()
