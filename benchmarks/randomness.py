"""The shuffle's randomness (issue 12.6): over N shuffles each of the 32-card pack and the
104-card shoe, the card-by-position χ² and a runs test (ascending runs against their exact
Eulerian distribution), both at 99 %; and the consecutive-seed pair χ²: the first card
the shuffle places (the 32-card pack's last place, the draw below(32)) of seed s against
that of seed s+1, s = 0..N-1 (32 × 32 cells, 1,023 dof).

    .venv/bin/python benchmarks/randomness.py [--shuffles N] [--workers K] [--seed S] [--old] [--quick]

The shuffles are deck.shuffle (the one Fisher-Yates) of the pack's places 0..n-1 (the same
draws as deck.pack(n): a shoe's two decks are told apart by place), drawn from
firmware/offboard/rng.py's Seeded, one stream per chunk of CHUNK shuffles. --old runs the xorshift32
generator Seeded was before, for comparison. Critical values and p-values: Wilson-Hilferty.
"""
import argparse
import sys
import time
from multiprocessing import Pool

import numpy as np

from tapis.firmware.offboard import deck
from tapis.firmware.offboard.rng import Seeded
from tapis.host.lab import orders
from tapis.host.lab.orders import (chi2_critical, chi2_p, eulerian_probabilities, pair_chi2, position_chi2,  # noqa: F401
                                   runs_chi2, tally)
from tapis.host.progress import progress

PACKS = (deck.PACK_32, deck.SHOE_104)
CHUNK = 10000


class Xorshift32:
    """firmware/offboard/rng.py's Seeded before issue 12.6, for --old and the attack tests."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF or 1

    def next32(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def below(self, n):
        limit = 0x100000000 - 0x100000000 % n
        while True:
            v = self.next32()
            if v < limit:
                return v % n


def generator(old):
    return Xorshift32 if old else Seeded


def shuffles(pack, count, stream, old=False):
    """count shuffles of places 0..pack-1 from one generator keyed by `stream`: an array."""
    return orders.shuffles(pack, count, stream, generator(old))


def first_cards(seeds, old=False):
    """The first card each seed's shuffle of the 32-card pack places: its last place, set
    by the first draw (the one xorshift32's consecutive seeds correlate most)."""
    make = generator(old)
    return [deck.shuffle(list(range(deck.PACK_32)), make(s).below)[-1] for s in seeds]


def pair_chi2(firsts):
    """χ² of (first card of seed s, first card of seed s+1) over 32 × 32 cells: 1,023 dof."""
    a = np.asarray(firsts, dtype=np.int64)
    cells = np.bincount(a[:-1] * 32 + a[1:], minlength=1024)
    expected = cells.sum() / 1024
    return float(((cells - expected) ** 2 / expected).sum()), 1023


def _pack_chunk(job):
    pack, k, count, seed, old = job
    stream = seed * 1000003 + k if old else b"benchmark %d %d %d" % (seed, pack, k)
    return pack, tally(shuffles(pack, count, stream, old))


def _pair_chunk(job):
    lo, hi, old = job
    return lo, first_cards(range(lo, hi + 1), old)  # one past the chunk: its last pair


def measure(n, workers=1, seed=1, old=False, advance=lambda k=1: None):
    """Every figure for n shuffles a pack and n consecutive seeds: a dict."""
    jobs = [(pack, k, min(CHUNK, n - k * CHUNK), seed, old)
            for pack in PACKS for k in range((n + CHUNK - 1) // CHUNK)]
    pair_jobs = [(lo, min(lo + CHUNK, n), old) for lo in range(0, n, CHUNK)]
    cells = {p: np.zeros((p, p), dtype=np.int64) for p in PACKS}
    runs = {p: np.zeros(p + 1, dtype=np.int64) for p in PACKS}
    firsts = {}
    t0 = time.perf_counter()
    with Pool(workers) if workers > 1 else _Serial() as pool:
        for pack, (c, r) in pool.imap_unordered(_pack_chunk, jobs):
            cells[pack] += c
            runs[pack] += r
            advance(int(r.sum()))
        for lo, f in pool.imap_unordered(_pair_chunk, pair_jobs):
            firsts[lo] = f
            advance(len(f) - 1)
    out = {"shuffles": n, "seconds": time.perf_counter() - t0, "generator": "xorshift32" if old else "sha256"}
    for p in PACKS:
        x, dof = position_chi2(cells[p])
        rx, rdof = runs_chi2(runs[p], p)
        out[p] = {"position": (x, dof, chi2_critical(dof), chi2_p(x, dof)),
                  "runs": (rx, rdof, chi2_critical(rdof), chi2_p(rx, rdof))}
    seq = [c for lo in sorted(firsts) for c in firsts[lo][:-1]] + [firsts[max(firsts)][-1]]
    x, dof = pair_chi2(seq)
    out["pair"] = (x, dof, chi2_critical(dof), chi2_p(x, dof))
    return out


class _Serial:
    imap_unordered = staticmethod(map)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def report(r):
    lines = ["%s generator, %s shuffles a pack, %.0f s" % (r["generator"], "{:,}".format(r["shuffles"]), r["seconds"])]
    row = "  %-22s chi2 %12.1f  dof %6d  99%% critical %9.1f  p %.3f  %s"
    for p in PACKS:
        for name in ("position", "runs"):
            x, dof, crit, pv = r[p][name]
            lines.append(row % ("%d cards, %s" % (p, name), x, dof, crit, pv, "pass" if x < crit else "FAIL"))
    x, dof, crit, pv = r["pair"]
    lines.append(row % ("consecutive-seed pairs", x, dof, crit, pv, "pass" if x < crit else "FAIL"))
    return "\n".join(lines)


def montecarlo_cost(shoes=2000, rounds=4000, games=200):
    """What a CSPRNG would cost tapis simulate (simulator/montecarlo/simulate.py, random.Random):
    seconds for `shoes` club shoes shuffled its way (sorted on random() keys) and by
    deck.shuffle on Seeded; a whole club chunk of `rounds` deals on the compiled core; and
    `games` of écarté on the rules engine dealt from random.Random and from Seeded."""
    import random

    from tapis.simulator.montecarlo.club_session import club_session

    out = {}
    rng, base = random.Random(1), list(range(deck.SHOE_104))
    t0 = time.perf_counter()
    for _ in range(shoes):
        sorted(base, key=lambda _c: rng.random())
    out["shoe, random.Random"] = time.perf_counter() - t0
    g = Seeded(1)
    t0 = time.perf_counter()
    for _ in range(shoes):
        deck.shuffle(list(base), g.below)
    out["shoe, Seeded"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    club_session(1, 0, rounds)
    out["club chunk of %d deals" % rounds] = time.perf_counter() - t0
    for name, below in (("random.Random", random.Random(1).randrange), ("Seeded", Seeded(1).below)):
        spec = {"game": "ecarte", "seed": 1, "variant": None, "bots": None}
        t0 = time.perf_counter()
        _ecarte_games(spec, games, below)
        out["%d écarté games, %s" % (games, name)] = time.perf_counter() - t0
    return out


def _ecarte_games(spec, n, below):
    from tapis.cython_core import twins
    from tapis.firmware.games import find as find_game
    from tapis.simulator import kits
    from tapis.simulator.montecarlo.bot_session import options_for
    from tapis.simulator.montecarlo.direct import DirectTable

    o = options_for("ecarte", None)
    rules = find_game("ecarte").Rules(o, first_dealer=0, evaluator=twins.evaluate)
    bots = [kits.bot("ecarte", "rules", 1 + s) for s in range(2)]
    DirectTable(game="ecarte", players=bots, randbelow=below, rules=rules, keep_log=False).run_games(n)


def main(argv=None):
    from _quick import parse  # here: tests/firmware/offboard/test_randomness.py imports this file, benchmarks/ off the path

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shuffles", type=int, default=10 ** 6, help="shuffles of each pack, and seeds paired (default 10^6)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--seed", type=int, default=1, help="the benchmark's streams (default 1)")
    p.add_argument("--old", action="store_true", help="the xorshift32 generator from before issue 12.6")
    p.add_argument("--montecarlo", action="store_true", help="only what a CSPRNG would cost tapis simulate")
    args = parse(p, {"shuffles": 2000}, argv)
    if args.montecarlo:
        for name, s in montecarlo_cost().items():
            print("  %-32s %7.2f s" % (name, s))
        return 0
    total = args.shuffles * (len(PACKS) + 1)
    with progress(total, "shuffles") as advance:
        r = measure(args.shuffles, args.workers, args.seed, args.old, advance)
    print(report(r))
    failed = [x >= crit for x, _dof, crit, _p in [r[q][n] for q in PACKS for n in ("position", "runs")] + [r["pair"]]]
    return 1 if any(failed) else 0


if __name__ == "__main__":
    sys.exit(main())
