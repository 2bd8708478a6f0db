# `tapis simulate` on the rules engine, a bot of the chosen strength at each seat (the
# kits' BOTS, simulator/kits): a chunk's session on simulator/montecarlo/direct.py, the bots seeing
# their seat's view only, tallied by simulator/montecarlo/tallies.py.
import random

from tapis.cython_core import twins as core
from tapis.firmware.games import find as find_game
from tapis.firmware.offboard import named
from tapis.simulator import kits
from tapis.simulator.montecarlo import tallies
from tapis.simulator.montecarlo.chunks import chunk_seed
from tapis.simulator.montecarlo.direct import DirectTable

ECARTE_STAKING = ("each player stakes 1 unit a game and the loser pays the winner the game's "
                  "value (treble if he has no point, double with 1 or 2, single with 3 or 4); "
                  "the first dealer is cut for in each chunk")
PIQUET_STAKING = ("a unit a point: the loser of a partie pays the winner its Rubicon value "
                  "(a drawn partie moves nothing)")
MONEY = ("a seat's return to player is what came back over what it had at risk: a transfer "
         "of a units is a units staked by each side and 2a returned to the payee; house edge "
         "= 1 - RTP")


def options_for(game, variant):
    """The game's options, for a variant by name (ValueError naming the variants if unknown)."""
    return named.options(game, variant)


def seat_levels(spec, seats):
    """The strength at each of `seats` seats: one for all, or one per seat."""
    levels = list(spec["bots"])
    if len(levels) == 1:
        levels *= seats
    if len(levels) != seats:
        raise ValueError("%s seats %d here: give one bot strength for all, or %d, got %d (%s)"
                         % (spec["game"], seats, seats, len(levels), ",".join(spec["bots"])))
    return levels


def check(spec):
    """The spec's game, variant and bot strengths, checked (ValueError saying what is
    wrong); returns the strength at each seat."""
    o = options_for(spec["game"], spec["variant"])
    table = find_game(spec["game"]).Table(kits.find(spec["game"]).new_game(o))
    levels = seat_levels(spec, table.SEATS)
    for level in sorted(set(levels)):
        kits.bot(spec["game"], level)
    return levels


def table_session(spec, k, n):
    """One chunk of n rounds on the rules engine (simulator/montecarlo/direct.py), the spec's bots at
    the seats; the game's tally of it."""
    game = spec["game"]
    rng = random.Random(chunk_seed(spec["seed"], k))
    o = options_for(game, spec["variant"])
    if game == "ecarte":  # the cut for the first deal, from the chunk's stream
        rules = find_game(game).Rules(o, first_dealer=rng.randrange(2), evaluator=core.evaluate)
    else:
        rules = kits.find(game).new_game(o, core.evaluate)
    seats = find_game(game).Table(rules).SEATS
    # each bot's own stream from the chunk's: the same play in any worker
    bots = [kits.bot(game, level, 1 + rng.randrange(1 << 31)) for level in seat_levels(spec, seats)]
    table = DirectTable(game=game, players=bots, randbelow=rng.randrange, rules=rules, keep_log=False)
    tally = TALLIES[game](seats)
    if game == "club":
        table.run_deals(n, tally.feed)
    else:
        table.run_games(n, tally.feed)
    return tally.result(n)


TALLIES = {"ecarte": tallies.EcarteTally, "piquet": tallies.PiquetTally, "club": tallies.ClubTally}
