"""Club écarté: trump duels per second through the batch API (compiled against the pure
twin, in one run), `tapis odds club` against naive enumerations, and Monte Carlo rounds/s.

    .venv/bin/python benchmarks/club.py [--duels N] [--rounds N] [--seed S] [--quick]
"""
import argparse
import random
import subprocess
import sys
import time
from array import array
from math import comb

from _quick import parse
from tapis.cython_core import duel as compiled
from tapis.firmware.offboard import deck
from tapis.firmware.games.club import duel as pure


def batch(n, seed):
    rng = random.Random(seed)
    shoe = deck.shoe()
    b = bytes(rng.choice(shoe) for _ in range(4 * n))
    p = bytes(rng.choice(shoe) for _ in range(4 * n))
    t = bytes(rng.randrange(4) for _ in range(n))
    return b, p, t


def rate(core, b, p, t, repeat=3):
    n = len(t)
    out = array("b", bytes(n))
    best = 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        core.duel_batch(b, p, t, out)
        best = max(best, n / (time.perf_counter() - t0))
    return best, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duels", type=int, default=4_000_000)
    ap.add_argument("--rounds", type=int, default=200_000, help="rounds for the tapis simulate run")
    ap.add_argument("--seed", type=int, default=1)
    a = parse(ap, {"duels": 40_000, "rounds": 20_000})

    b, p, t = batch(a.duels, a.seed)
    fast, out_c = rate(compiled, b, p, t)
    m = max(a.duels // 40, 1000)
    slow, out_p = rate(pure, b[:4 * m], p[:4 * m], t[:m], repeat=1)
    assert out_c[:m] == out_p, "the twins disagree"
    print("duels/s through duel_batch  compiled %.0f  pure %.0f  ratio compiled/pure %.1fx" % (fast, slow, fast / slow))

    # tapis odds club, the whole command (process start included)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tapis", "odds", "club", "--json"], check=True, capture_output=True)
    odds_s = time.perf_counter() - t0
    # naive 1: every turned card, banker tableau and punter tableau of a 2x52 shoe,
    # at the compiled batch rate
    naive_cards = 104 * comb(103, 4) * comb(99, 4)
    # naive 2: for each turned rank, every pair of trump holdings (with multiplicities),
    # one pure duel each, measured here
    pairs = 3713867 * 13
    per_duel = 1 / slow
    print("tapis odds club  %.2f s  |  naive over all cards: %.3g duels = %.3g years at the compiled rate"
          "  |  naive over trump-holding pairs: %d pure duels = %.0f s (%.0fx)" % (
              odds_s, naive_cards, naive_cards / fast / 3.15e7, pairs, pairs * per_duel, pairs * per_duel / odds_s))

    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tapis", "simulate", "--rounds", str(a.rounds), "--seed", "1", "--json"],
                   check=True, capture_output=True)
    sim_s = time.perf_counter() - t0
    print("tapis simulate --game club --rounds %d  %.2f s  (%.0f rounds/s, one worker)" % (
        a.rounds, sim_s, a.rounds / sim_s))


if __name__ == "__main__":
    main()
