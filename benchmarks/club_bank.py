"""Club écarté Monte Carlo on one core: whole sessions (shoes, duels, money) through the
compiled club_bank twin, its pure twin and the Python loop they replaced, in one run;
then where the compiled session's time goes, and the whole `tapis simulate` command.

    .venv/bin/python benchmarks/club_bank.py [--chunks K] [--repeat R] [--seed S] [--cli-rounds N] [--quick]

Rates are CPU time of this process (one thread: one core), best of R interleaved runs,
chunks of 5,000 rounds seeded as `tapis simulate` seeds them. The answers are compared.
"""
import argparse
import os
import random
import resource
import subprocess
import sys
import time
from array import array

from _quick import parse
from tapis.cython_core import club_bank as compiled, duel as compiled_duel
from tapis.firmware.games.club import duel as pure_duel, rules as R
from tapis.firmware.offboard import club_bank as pure
from tapis.simulator.montecarlo import chunks as CH
from tapis.simulator.montecarlo import club_session as CLUB
from tapis.simulator.kits.club.bots import HOLD_TALIAS, UNIT

N = CH.CHUNK
OPTIONS = R.Options(seats=4, balance=CLUB.BIG)  # what `tapis simulate --game club` plays


def twin_chunk(twin):
    def run(seed, k):
        rng = random.Random(CH.chunk_seed(seed, k))
        return twin.session(rng, N, OPTIONS, UNIT, HOLD_TALIAS, *CLUB.CUT_SPAN)[:2]
    return run


def loop_chunk(duel):
    def run(seed, k):  # the Python loop of simulator/montecarlo/club_session.py before club_bank
        _seats, data, house, _rounds = CLUB.club_session(seed, k, N, OPTIONS, duel=duel)
        return data, house
    return run


def best_rates(runs, seed, repeat):
    """{name: (rounds per CPU second, answers)}, each best of `repeat` interleaved runs."""
    best = {name: 0.0 for name in runs}
    answers = {}
    for _ in range(repeat):
        for name, (run, chunks) in runs.items():
            t0 = time.process_time()
            answers[name] = [run(seed, k) for k in range(chunks)]
            best[name] = max(best[name], chunks * N / (time.process_time() - t0))
    return {name: (best[name], answers[name]) for name in runs}


def ns_per_round(f, chunks, repeat):
    t = min(_cpu(f, chunks) for _ in range(repeat))
    return 1e9 * t / (chunks * N)


def _cpu(f, chunks):
    t0 = time.process_time()
    for k in range(chunks):
        f(k)
    return time.process_time() - t0


def parts(seed, chunks, repeat):
    """ns a round of the compiled session and of what it is made of."""
    def rngs(k):
        return random.Random(CH.chunk_seed(seed, k))

    cut = CLUB.CUT_SPAN
    given = []  # each chunk's duel results and talia ends, for the money alone
    for k in range(chunks):
        cards, last = CLUB.club_deals(rngs(k), N)
        tabs, trumps = CLUB.club_tableaux(cards, N)
        res = [array("b", bytes(N)) for _ in range(3)]
        for t in (1, 2, 3):
            compiled_duel.duel_batch(tabs[0], tabs[t], trumps, res[t - 1])
        given.append((res, last))
    return {
        "session": ns_per_round(lambda k: compiled.session(rngs(k), N, OPTIONS, UNIT, HOLD_TALIAS, *cut), chunks, repeat),
        "setup": ns_per_round(lambda k: compiled.session(rngs(k), 0, OPTIONS, UNIT, HOLD_TALIAS, *cut), chunks, repeat),
        "shoes": ns_per_round(lambda k: compiled.deals(rngs(k), N, *cut), chunks, repeat),
        "money": ns_per_round(lambda k: compiled.play(OPTIONS, given[k][0], given[k][1], UNIT, HOLD_TALIAS),
                              chunks, repeat),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunks", type=int, default=40, help="chunks of 5,000 rounds for the compiled twin")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cli-rounds", type=int, default=10_000_000, help="rounds for the tapis simulate run")
    a = parse(ap, {"chunks": 1, "repeat": 1, "cli_rounds": 20_000})
    slow = max(a.chunks // 20, 1)
    print("load average %.1f %.1f %.1f on %d cores" % (os.getloadavg() + (os.cpu_count(),)))
    runs = {
        "compiled club_bank.session": (twin_chunk(compiled), a.chunks),
        "pure club_bank.session": (twin_chunk(pure), slow),
        "Python loop, compiled duels": (loop_chunk(compiled_duel), slow),
        "Python loop, pure duels": (loop_chunk(pure_duel), slow),
    }
    rates = best_rates(runs, a.seed, a.repeat)
    ref = rates["Python loop, compiled duels"][1]
    for name, (rate, answers) in rates.items():
        assert answers[:slow] == ref, "%s disagrees with the Python loop" % name
        print("%-30s %12.0f rounds/s  %8.2f us a round" % (name, rate, 1e6 / rate))
    c = rates["compiled club_bank.session"][0]
    print("ratios: compiled/pure %.0fx, compiled/Python loop (compiled duels) %.0fx, "
          "compiled/Python loop (pure duels) %.0fx" % (
              c / rates["pure club_bank.session"][0], c / rates["Python loop, compiled duels"][0],
              c / rates["Python loop, pure duels"][0]))

    p = parts(a.seed, a.chunks, a.repeat)
    print("compiled, ns a round: whole session %.0f = chunk set-up (seed, twister state in and out) %.0f"
          " + shoes %.0f (deals(): shuffle, cut, cards written out) + duels and money %.0f (the rest);"
          " money alone, on given results (play()) %.0f" % (
              p["session"], p["setup"], p["shoes"] - p["setup"], p["session"] - p["shoes"], p["money"]))

    rounds = a.cli_rounds
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tapis", "simulate", "--rounds", str(rounds), "--seed", str(a.seed),
                    "--json"], check=True, capture_output=True)
    wall = time.perf_counter() - t0
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime
    print("tapis simulate --game club --rounds %d, one worker, the whole process (start-up included):"
          " %.2f s CPU = %.0f rounds/s; %.2f s wall clock = %.0f rounds/s" % (rounds, cpu, rounds / cpu, wall, rounds / wall))


if __name__ == "__main__":
    main()
