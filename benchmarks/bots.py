"""The bots' strengths, measured: each level against the next weaker one, seat for seat
and deal order for deal order (each session is played twice, the levels swapping
seats), on the rules alone (simulator/montecarlo/direct.py), with the time each level takes.

    .venv/bin/python benchmarks/bots.py [--game G] [--sessions N] [--deals N] [--seed S] [--quick]

Écarté and piquet: the points a level scores per deal more than the other (and the
games or parties it wins); club écarté: the money a seat of the level makes per deal
more than a seat of the other (two seats each, alternating round the table, the bank
going round). Each edge has a 95% interval over the sessions; the stronger level's win
rate (games or parties won; at club, sessions ended ahead) a 95% Wilson interval.
"""
import argparse
import math
import time

from _quick import parse
from tapis.cython_core.twins import evaluate
from tapis.simulator import kits
from tapis.simulator.montecarlo.direct import DirectTable

PAIRS = (("rules", "random"), ("advisor", "rules"))
WON = {"ecarte": "game", "piquet": "partie"}  # the event whose seat won a game
DEALS = {"ecarte": 50, "piquet": 12, "club": 400}  # a session's deals
QUICK = {"sessions": 2, "per_game": {"ecarte": 2, "piquet": 1, "club": 30}}


def session(game, levels, deals, seed):
    """[(points or money, games won) per level in `levels`'s order] of one session."""
    m = DirectTable(seed, game, evaluator=evaluate, players=[kits.bot(game, lv) for lv in levels])
    g = m.game
    start = list(g.balances) if game == "club" else None
    m.run_deals(deals)
    if sum(m.refused):  # a bot's own mistake (a press made stale by another's is `late`)
        raise AssertionError("the table refused %r presses of %r" % (m.refused, levels))
    out = {lv: [0, 0] for lv in levels}
    out["late"] = sum(m.late)
    if game == "club":
        end = list(g.balances)
        end[g.banker] += g.bank  # a limited bank still laid is its banker's
        for s, lv in enumerate(levels):
            out[lv][0] += end[s] - start[s]
        return out
    for kind, seat, value in g.log:
        if kind == "score" and seat in (0, 1):
            out[levels[seat]][0] += value[0]
        elif kind == WON[game] and seat in (0, 1):
            out[levels[seat]][1] += 1
    return out


def mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return m, 1.96 * sd / math.sqrt(n)


def wilson(k, n):
    """A share k/n and its 95% Wilson interval (low, high)."""
    if n == 0:
        return 0.0, 0.0, 0.0
    z, p = 1.96, k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, mid - half, mid + half


def compare(game, strong, weak, sessions, deals, seed):
    """The stronger level's edge per deal over the weaker, and the time per deal."""
    seats = 4 if game == "club" else 2
    diffs, won, late, t0 = [], [0, 0], 0, time.perf_counter()
    for k in range(sessions):
        edge = 0
        for swap in range(2):
            if game == "club":  # strong, weak, strong, weak, turned round the table
                levels = [(strong, weak)[(i + swap) % 2] for i in range(seats)]
            else:
                levels = [strong, weak] if swap == 0 else [weak, strong]
            r = session(game, levels, deals, seed + k)
            edge += r[strong][0] - r[weak][0]  # club: two seats of each
            won[0] += r[strong][1]
            won[1] += r[weak][1]
            late += r["late"]
        diffs.append(edge / (2 * deals * (seats // 2)))  # per deal (and per seat at club)
    took = (time.perf_counter() - t0) / (sessions * deals * 2)
    return mean_ci(diffs), won, took, late, diffs


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=kits.GAMES, action="append")
    p.add_argument("--sessions", type=int, default=20, help="at least 2, for the intervals")
    p.add_argument("--deals", type=int, help="deals a session (default: 50 écarté, 12 piquet, 400 club)")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(per_game=DEALS)
    a = parse(p, QUICK)
    for game in a.game or kits.GAMES:
        deals = a.deals or a.per_game[game]
        unit = "money" if game == "club" else "points"
        for strong, weak in PAIRS:
            (m, ci), won, took, late, diffs = compare(game, strong, weak, a.sessions, deals, a.seed)
            if game == "club":  # the sessions (both seatings) the stronger level ended ahead
                k, n = sum(1 for d in diffs if d > 0), len(diffs)
                games = ", ahead in %d of %d sessions, %.0f%% [%.0f, %.0f]" % ((k, n) + tuple(100 * x for x in wilson(k, n)))
            else:
                games = ", %s won %d–%d, %.0f%% [%.0f, %.0f]" % (
                    (WON[game] + "s", won[0], won[1]) + tuple(100 * x for x in wilson(won[0], won[0] + won[1])))
            print("%-7s %-7s vs %-7s %+.3f ± %.3f %s a deal%s   (%.1f ms a deal; %d sessions of %d deals, "
                  "seats swapped; %d presses made stale by the other seat's)" % (
                      game, strong, weak, m, ci, unit, games, took * 1e3, a.sessions, deals, late))


if __name__ == "__main__":
    main()
