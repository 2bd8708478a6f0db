"""Écarté double-dummy odds (`tapis odds ecarte`, 65,780 dealer hands a hand): the compiled
twin against the pure twin and against a straightforward memoised pure-Python minimax kept
here, measured in one run on the same seeded elder hands.

    .venv/bin/python benchmarks/ecarte_odds.py [--hands N] [--pure-hands N] [--baseline-deals N] [--quick]

The pure twin is timed on the first --pure-hands hands, the baseline on --baseline-deals dealer
hands of the first hand; both are extrapolated per hand (65,780 dealer hands), and say so.
"""
import argparse
import itertools
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tapis.cython_core import ecarte_solver as compiled  # noqa: E402
from tapis.firmware.offboard import ecarte_solver as pure  # noqa: E402
from tapis.firmware.offboard.deck import deck32  # noqa: E402

from _quick import parse  # noqa: E402

ORDER = {5: 0, 6: 1, 7: 2, 8: 3, 12: 4, 9: 5, 10: 6, 11: 7}  # 7 8 9 T A J Q K


def baseline_tricks(elder, dealer, trump, elder_leads, memo):
    """The straightforward way: minimax over every legal play, memoised on the position."""
    if not elder:
        return 0
    key = (elder, dealer, elder_leads)
    if key in memo:
        return memo[key]
    leader, follower = (elder, dealer) if elder_leads else (dealer, elder)
    best = None
    for x in leader:
        same = [c for c in follower if c >> 4 == x >> 4]
        if same:
            legal = [c for c in same if ORDER[c & 15] > ORDER[x & 15]] or same
        else:
            legal = [c for c in follower if c >> 4 == trump] or follower
        reply = None
        for y in legal:
            f = (ORDER[y & 15] > ORDER[x & 15]) if y >> 4 == x >> 4 else y >> 4 == trump
            elder_won = (not f) if elder_leads else f
            e = tuple(c for c in elder if c != x and c != y)
            d = tuple(c for c in dealer if c != x and c != y)
            v = int(elder_won) + baseline_tricks(e, d, trump, elder_won, memo)
            if reply is None or (v < reply if elder_leads else v > reply):
                reply = v
        if best is None or (reply > best if elder_leads else reply < best):
            best = reply
    memo[key] = best
    return best


def baseline_odds(hand, turned, deals=None, seed=1):
    """(total, wins, voles) over every dealer hand (or a seeded sample of `deals`), one by one."""
    unseen = [c for c in deck32() if c not in hand and c != turned]
    dealers = list(itertools.combinations(unseen, 5))
    if deals is not None:
        dealers = random.Random(seed).sample(dealers, deals)
    memo = {}
    total = wins = voles = 0
    for d in dealers:
        t = baseline_tricks(tuple(hand), d, turned >> 4, True, memo)
        total += 1
        wins += t >= 3
        voles += t == 5
    return total, wins, voles


def hands(n, seed=2026):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        d = deck32()
        rng.shuffle(d)
        out.append((d[:5], d[5]))
    return out


def per_hand(fn, sample):
    t0 = time.perf_counter()
    for h, t in sample:
        fn(h, t, True)
    return (time.perf_counter() - t0) / len(sample)


def table_rates(deals):
    """Full-stack deals/s with the bots on the advisor, and on the rough estimate they had
    before (a bare trump suit makes `ecarte_stands` fall back to it), interleaved, best of 2."""
    from tapis.cython_core import evaluate
    from tapis.simulator.kits.ecarte import bots
    from tapis.simulator.table.emulated import EmulatedTable

    advisor = bots.ecarte_stands

    def estimate(hand, trump, leads=True):
        return advisor(hand, trump >> 4, leads)

    best = {}
    for _ in range(2):
        for label, fn in (("advisor", advisor), ("estimate", estimate)):
            bots.ecarte_stands = fn
            bots._ADVICE.clear()
            sim = EmulatedTable(7, evaluator=evaluate)
            t0 = time.perf_counter()
            sim.run_deals(deals)
            best[label] = max(best.get(label, 0), deals / (time.perf_counter() - t0))
    bots.ecarte_stands = advisor
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=300)
    p.add_argument("--pure-hands", type=int, default=20)
    p.add_argument("--baseline-deals", type=int, default=3000)
    p.add_argument("--table-deals", type=int, default=1000, help="full-stack deals per run (0: skip)")
    a = parse(p, {"hands": 4, "pure_hands": 1, "baseline_deals": 40, "table_deals": 6})
    sample = hands(a.hands)
    for h, t in sample[:a.pure_hands]:  # the twins agree on what is timed
        assert compiled.odds(h, t, True) == pure.odds(h, t, True)
    c = min(per_hand(compiled.odds, sample) for _ in range(3))
    pu = per_hand(pure.odds, sample[:a.pure_hands])
    cs = min(per_hand(compiled.odds, sample[:a.pure_hands]) for _ in range(3))
    h, t = sample[0]
    t0 = time.perf_counter()
    baseline_odds(h, t, a.baseline_deals)
    b = (time.perf_counter() - t0) / a.baseline_deals * 65780
    stand = min(per_hand(compiled.stands, sample) for _ in range(3))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tapis", "odds", "ecarte", "--hand", "7H,KS,QS,JS,7D",
                    "--turned", "8H", "--json"], cwd=root, check=True, capture_output=True)
    cli = time.perf_counter() - t0
    print("écarté odds, one elder hand = 65,780 dealer hands (seeded hands, same run)")
    print("  compiled twin   %9.3f ms/hand  (mean over %d hands, best of 3)" % (c * 1e3, a.hands))
    print("  pure twin       %9.1f ms/hand  (timed on %d of them: compiled on those %.3f ms)"
          % (pu * 1e3, a.pure_hands, cs * 1e3))
    print("  baseline        %9.0f ms/hand  (memoised minimax deal by deal: timed on %d random dealer hands, "
          "extrapolated to 65,780)" % (b * 1e3, a.baseline_deals))
    print("  compiled stands %9.3f ms/hand  (the bots' yes/no advice)" % (stand * 1e3))
    print("  tapis odds ecarte, whole command with interpreter start-up: %.3f s" % cli)
    print("ratio compiled/pure %.0fx   compiled/baseline %.0fx" % (pu / cs, b / c))
    if a.table_deals:
        r = table_rates(a.table_deals)
        print("full-stack deals/s, bots on the advisor %.0f, on the old estimate %.0f (ratio %.2f)"
              % (r["advisor"], r["estimate"], r["advisor"] / r["estimate"]))


if __name__ == "__main__":
    main()
