"""The firmware's footprint under MicroPython, against the Pico budgets (issue 7):
the GC heap high-water mark during whole games on the virtual board (measured after
gc.collect() at every step, above what the interpreter held before the firmware was
imported), and the total size of the firmware compiled with mpy-cross. Also the virtual
board's speed against the CPython board in the same run.

    .venv/bin/python benchmarks/footprint.py [--games N] [--seed S] [--quick]
"""
import argparse
import tempfile
import time

from _quick import parse
from tapis.simulator.boards.image import NOT_DEPLOYED, OFF_BOARD, compile_firmware, excluded
from tapis.simulator.table.emulated import EmulatedTable
from tapis.simulator.boards.vtable import VirtualBoardTable

HEAP_BUDGET = 91 * 1024  # the gate tests/simulator/boards/test_vboard.py holds, and why (64 KB until issue 12, 80 until issue 30, 88 until 43, 90 until 44)
MPY_BUDGET = 150 * 1024
RUNS = {"ecarte": ("games", 1), "piquet": ("deals", 2), "club": ("deals", 4)}
QUICK = {"games": 1, "runs": {"ecarte": ("deals", 1), "piquet": ("deals", 1), "club": ("deals", 1)}}


def heap(game, seed, n, unit):
    with VirtualBoardTable(seed, game, heap=True) as vb:
        t0 = time.perf_counter()
        vb.run_games(n) if unit == "games" else vb.run_deals(n)
        mp_s = time.perf_counter() - t0
    cpy = EmulatedTable(seed, game)
    t0 = time.perf_counter()
    cpy.run_games(n) if unit == "games" else cpy.run_deals(n)
    cp_s = time.perf_counter() - t0
    assert vb.board_log == cpy.game.log, "the virtual board disagrees with CPython"
    return vb.board.heap, vb.now, mp_s, cp_s, vb.board.resident


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=3, help="seeds per game")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(runs=RUNS)
    a = parse(p, QUICK)
    print("heap high-water under MicroPython 1.27 (webassembly), budget %d bytes" % HEAP_BUDGET)
    worst = 0
    for game, (unit, n) in a.runs.items():
        rows = [heap(game, a.seed + k, n, unit) for k in range(a.games)]
        hw = max(r[0] for r in rows)
        resident = max(r[4] for r in rows)
        worst = max(worst, hw)
        ms = sum(r[1] for r in rows)
        print("  %-7s %d x %d %-5s  high-water %6d bytes (%.0f%% of budget; %d resident once booted)"
              "  %5d board ms  virtual board %.2fs, CPython board %.3fs: %.0fx slower" % (
                  game, a.games, n, unit, hw, 100.0 * hw / HEAP_BUDGET, resident, ms,
                  sum(r[2] for r in rows), sum(r[3] for r in rows),
                  sum(r[2] for r in rows) / max(1e-9, sum(r[3] for r in rows))))
    with tempfile.TemporaryDirectory() as tmp:
        sizes = compile_firmware(tmp, OFF_BOARD)  # what the board can import (offboard/ is the host's)
    deployed = {k: v for k, v in sizes.items() if not excluded(k[len("firmware/"):-4] + ".py", NOT_DEPLOYED)}
    total, dep = sum(sizes.values()), sum(deployed.values())
    print(".mpy (mpy-cross 1.27): the board's %d files, %d bytes; deployed by tapis flash %d files, %d bytes "
          "(%.0f%% of the %d budget)" % (len(sizes), total, len(deployed), dep, 100.0 * total / MPY_BUDGET,
                                         MPY_BUDGET))
    for path, n in sorted(sizes.items(), key=lambda kv: -kv[1])[:5]:
        print("  %6d  %s" % (n, path))
    print("budgets: heap %s, .mpy %s" % ("OK" if worst <= HEAP_BUDGET else "OVER",
                                        "OK" if total <= MPY_BUDGET else "OVER"))


if __name__ == "__main__":
    main()
