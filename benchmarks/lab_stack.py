"""tapis lab's math-sheet run (host/lab/wagers.py): deals a second through the whole stack
(the firmware controller on the emulated table, a journal with its meters), on one worker and
on two worker processes, wall clock, in the same run; each run's merged meters checked
against its records' sums.

    PYTHONPATH=. .venv/bin/python benchmarks/lab_stack.py [--game G] [--deals N] [--chunk C] [--seed S] [--quick]
"""
import argparse

from _quick import parse
from tapis.host.lab import wagers


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="club", choices=("club", "ecarte", "piquet"))
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--chunk", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    a = parse(p, {"deals": 8, "chunk": 4})
    print("%-8s %7s %8s %10s %8s" % ("game", "deals", "workers", "deals/s", "merged"))
    rates = {}
    for workers in (1, 2):
        r = wagers.run_game(a.game, None, a.deals, a.chunk, a.seed, workers)
        rates[workers] = r["deals_per_second"]
        print("%-8s %7d %8d %10.1f %8s" % (a.game, a.deals, workers, r["deals_per_second"],
                                            "agree" if r["merge_agrees"] else "DIFFER"))
        if not r["merge_agrees"]:
            return 1
    print("2 workers / 1: %.2f" % (rates[2] / rates[1]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
