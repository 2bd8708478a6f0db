# Monte Carlo for `tapis simulate`: écarté, piquet and club écarté with a bot of a chosen
# strength at each seat (the kits' BOTS, simulator/kits): win rates, points per deal,
# game values, each seat's return to player and house edge, with 95 % confidence
# intervals (simulator/montecarlo/tallies.py, simulator/montecarlo/stats.py).
#
# Reproducibility whatever the number of workers: the rounds are cut into fixed chunks,
# chunk k is an independent session seeded from (seed, k) alone (simulator/montecarlo/chunks.py), and
# each chunk returns integer sums, so merging them is exact and order-free. Workers
# (processes, or Dask distributed with a scheduler address: simulator/montecarlo/workers.py) only
# decide where the chunks run; the results are merged in chunk order, so the convergence
# trace is the same too.
#
# How a deal is played: écarté, piquet, and club with other bots than "rules", on the
# rules with the table adapter's views and the bots' presses (simulator/montecarlo/bot_session.py),
# the bots seeing their seat's view only; club with "rules" bots at every seat in one call
# of the compiled club_bank twin (simulator/montecarlo/club_session.py, its staking pattern stated there).
import functools
from contextlib import closing

from tapis.simulator.montecarlo import tallies, workers as W
from tapis.simulator.montecarlo.bot_session import ECARTE_STAKING, MONEY, PIQUET_STAKING, check, options_for, table_session
from tapis.simulator.montecarlo.chunks import CHUNK, chunks
from tapis.simulator.montecarlo.club_session import CLUB_STAKING, club_options, club_session
from tapis.simulator.montecarlo.club_sums import club_summary


def club_chunk(spec, k, n):
    if set(spec["bots"]) == {"rules"}:
        _seats, data, house, rounds = club_session(spec["seed"], k, n, club_options(spec["variant"]))
        return {"sums": data, "house": house, "rounds": rounds}
    return table_session(spec, k, n)


def club_staking(spec):
    if set(spec["bots"]) == {"rules"}:
        return CLUB_STAKING
    o = options_for("club", spec["variant"])
    return ("the kit's bots at the seats on the rules engine, each banking and staking as its "
            "strength does, from balances of %d and a bank of %d" % (o.balance, o.bank))


class Simulation:
    """What `tapis simulate --game G` plays: a round's unit, the chunk size, a chunk's
    session, the report of a merged tally and the staking in words."""

    def __init__(self, unit, chunk, session, report, staking):
        self.unit, self.chunk, self.session, self.report, self.staking = unit, chunk, session, report, staking


SIMULATORS = {
    "club": Simulation("deals", CHUNK, club_chunk, club_summary, club_staking),
    "ecarte": Simulation("games", 50, table_session, tallies.ecarte_report,
                         lambda spec: ECARTE_STAKING + "; " + MONEY),
    "piquet": Simulation("parties", 10, table_session, tallies.piquet_report,
                         lambda spec: PIQUET_STAKING + "; " + MONEY),
}


def run_chunk(spec, k, n):
    """Chunk k (n rounds) of the run `spec`: what every backend calls."""
    return SIMULATORS[spec["game"]].session(spec, k, n)


# ---- running the chunks -----------------------------------------------------------
class Interrupted(KeyboardInterrupt):
    """Ctrl-C: `report` holds the figures of the chunks merged until then."""

    def __init__(self, report):
        KeyboardInterrupt.__init__(self)
        self.report = report


def simulate(game, rounds, seed, workers=1, scheduler=None, progress=None, chunk=None,
             bots=("rules",), variant=None, trace=0):
    """Run `rounds` rounds of `game` in chunks; returns (the report, the backend).
    progress(n) after each chunk of n rounds, in chunk order; trace: keep about that many
    points of each seat's RTP and interval as the rounds accumulate (report["trace"])."""
    sim = SIMULATORS[game]
    spec = {"game": game, "seed": seed, "bots": list(bots), "variant": variant}
    levels = check(spec)
    size = chunk or sim.chunk
    count = (rounds + size - 1) // size
    workers = max(1, min(workers, count))
    task = functools.partial(run_chunk, spec)
    if scheduler:
        parts, backend = W.dask(task, chunks(rounds, size), scheduler), "dask"
    elif workers > 1:
        parts, backend = W.processes(task, chunks(rounds, size), workers), "processes"
    else:
        parts, backend = W.inline(task, chunks(rounds, size)), "inline"
    head = {"game": game, "unit": sim.unit, "rounds": rounds, "seed": seed, "bots": levels,
            "variant": variant, "chunks": count, "chunk": size, "staking": sim.staking(spec),
            "workers": workers, "backend": backend}
    total, done, points = None, 0, []
    stride = max(1, (count + trace - 1) // trace) if trace else 0

    def report():
        out = dict(head)
        if done < rounds:
            out.update(rounds=done, asked=rounds, interrupted=True)
        out.update(sim.report(total) if total is not None else {"seats": []})
        if trace:
            out["trace"] = points
        return out

    try:
        with closing(parts):
            for j, (n, part) in enumerate(parts):
                total = part if total is None else tallies.add(total, part)
                done += n
                if stride and ((j + 1) % stride == 0 or j + 1 == count):
                    points.append({"rounds": done, "seats": [[s["rtp"], s["ci95"]] for s in sim.report(total)["seats"]]})
                if progress:
                    progress(n)
    except KeyboardInterrupt:
        raise Interrupted(report())
    return report(), backend
