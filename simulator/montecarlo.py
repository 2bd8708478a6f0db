# Monte Carlo for `tapis simulate`: écarté, piquet and club écarté with a bot of a chosen
# strength at each seat (the kits' BOTS, simulator/kits): win rates, points per deal,
# game values, each seat's return to player and house edge, with 95 % confidence
# intervals (simulator/tallies.py, simulator/stats.py).
#
# Reproducibility whatever the number of workers: the rounds are cut into fixed chunks,
# chunk k is an independent session seeded from (seed, k) alone, and each chunk returns
# integer sums, so merging them is exact and order-free. Workers (processes, or Dask
# distributed with a scheduler address: simulator/workers.py) only decide where the
# chunks run; the results are merged in chunk order, so the convergence trace is the
# same too.
#
# How a deal is played: écarté, piquet, and club with other bots than "rules", on the
# rules with the table adapter's views and the bots' presses (simulator/direct.py), the
# bots seeing their seat's view only; club with "rules" bots at every seat in one call
# of the compiled club_bank twin (the stated staking pattern below).
import functools
import hashlib
import random
from array import array
from contextlib import closing

from tapis.cython_core import twins as core
from tapis.firmware import deck
from tapis.firmware.games import club as R
from tapis.firmware.games import find as find_game
from tapis.firmware.games import named
from tapis.firmware.games.club import duel as pure_duel
from tapis.firmware.games.club.events import LIMITED, RESPONSIBLE
from tapis.simulator import kits, stats, tallies, workers as W
from tapis.simulator.direct import DirectTable
from tapis.simulator.kits.club.bots import HOLD_TALIAS, UNIT, bank_choice, stake_for

CHUNK = 5000  # rounds per chunk
SHOE = 104
DEAL = 17
CUT_SPAN = (52, 78)  # where the cut card lands, as in the emulated shoe
BIG = 10 ** 12  # the simulated seats' bankroll: nobody runs dry
_SHOE = deck.shoe()


def chunk_seed(seed, k):
    """The seed of chunk k: a fixed stream per chunk, not per worker."""
    return int.from_bytes(hashlib.sha256(b"tapis-simulate:%d:%d" % (seed, k)).digest()[:8], "big")


def chunks(rounds, size=CHUNK):
    """(k, rounds in chunk k), one at a time: the same cut for any number of workers."""
    for k in range((rounds + size - 1) // size):
        yield k, min(size, rounds - k * size)


# ---- club écarté ------------------------------------------------------------------
CLUB_STAKING = ("each punter, the k-th from the banker's left, backs tableau k mod 3 + 1 "
                "with %d units (the minimum when the rules ask for more, within what the bank "
                "answers); the banker lays a limited bank, lays it again once broken, goes "
                "responsible after a second break, and keeps a standing bank one more talia "
                "before passing it" % UNIT)


def club_deals(rng, n, cut_span=CUT_SPAN):
    """n deals from successive shoes: (cards: 17 per deal end to end, last-of-talia flags).
    A talia ends with the deal in which the cut card comes out, or when fewer than 17
    cards are left (firmware/games/club)."""
    cards = bytearray()
    last = bytearray()
    base = list(_SHOE)
    while len(last) < n:
        pack = sorted(base, key=lambda _c: rng.random())  # a uniform shuffle, sorted in C
        cut = cut_span[0] + rng.randrange(cut_span[1] - cut_span[0] + 1)
        pos = 0
        while len(last) < n:
            cards.extend(pack[pos:pos + DEAL])
            end = pos <= cut < pos + DEAL or SHOE - pos - DEAL < DEAL
            pos += DEAL
            last.append(1 if end else 0)
            if end:
                break
    return bytes(cards[:n * DEAL]), bytes(last[:n])


def club_tableaux(cards, n):
    """Split deals into batch arrays: the banker's tableau, each punter tableau, trumps.
    Cards go one at a time round the four tableaux, the banker's first."""
    tabs = [bytearray(4 * n) for _ in range(4)]
    for t in range(4):
        for j in range(4):
            tabs[t][j::4] = cards[t + 4 * j::DEAL]
    trumps = bytes(c >> 4 for c in cards[16::DEAL])
    return tabs, trumps


class Sums:
    """Integer sums per seat, mergeable exactly: stakes as (x = staked, y = returned)."""

    FIELDS = ("n", "x", "y", "xx", "yy", "xy", "bank_deals", "bank_net", "won", "pushed", "lost")
    DUEL = {pure_duel.PUNTER: 8, pure_duel.PUSH: 9, pure_duel.BANKER: 10}  # a stake's duel: its field

    def __init__(self, seats):
        self.seats = seats
        self.data = [[0] * len(self.FIELDS) for _ in range(seats)]
        self.house = 0
        self.rounds = 0

    def add_stake(self, seat, x, y, duel):
        d = self.data[seat]
        d[self.DUEL[duel]] += 1
        tallies.add_pair(d, x, y)

    def merge(self, other):
        for a, b in zip(self.data, other.data):
            for i in range(len(a)):
                a[i] += b[i]
        self.house += other.house
        self.rounds += other.rounds
        return self

    def to_list(self):
        return [self.seats, self.data, self.house, self.rounds]

    @classmethod
    def from_list(cls, v):
        s = cls(v[0])
        s.data, s.house, s.rounds = [list(d) for d in v[1]], v[2], v[3]
        return s


def club_session(seed, k, rounds, options=None, duel=None):
    """One chunk: an independent club session of `rounds` deals. Returns Sums.to_list().
    The bank's life follows firmware/games/club step for step (a test checks it
    against the rules engine). The whole chunk, shoes, duels and money, is one call of
    the club_bank twin; given a `duel` core, the Python loop below plays it instead (the
    same figures: tests/test_club_bank.py)."""
    o = options or R.Options(seats=4, balance=BIG)
    rng = random.Random(chunk_seed(seed, k))
    if duel is None:
        sums = Sums(o.seats)
        sums.data, sums.house = core.club_bank.session(rng, rounds, o, UNIT, HOLD_TALIAS, *CUT_SPAN)[:2]
        sums.rounds = rounds
        return sums.to_list()
    cards, last = club_deals(rng, rounds)
    tabs, trumps = club_tableaux(cards, rounds)
    res = []
    for t in (1, 2, 3):
        out = array("b", bytes(rounds))
        duel.duel_batch(tabs[0], tabs[t], trumps, out)
        res.append(out)
    return club_play(o, res, last, duel).to_list()


def club_play(o, res, last, duel=pure_duel):
    """Play the sessions' money given the duel results per deal (res[t-1][i]) and the
    talia ends; the bots' banking and staking pattern (simulator/kits/club/bots.py)."""
    n = o.seats
    sums = Sums(n)
    bal = [o.balance] * n
    banker, kind, bank, lays, broken, bank_deals, resp_talias, holds = o.first_banker, None, 0, 0, False, 0, 0, 0
    house = 0
    decide = True
    i = 0
    rounds = len(last)
    while i < rounds:
        while decide:  # the banker's decisions (Club.choices)
            if kind is None:
                ch = (["lay"] if bal[banker] >= o.bank else []) + (["respond"] if bal[banker] > 0 else []) + ["pass"]
            elif kind == LIMITED and broken:
                if lays == 1:
                    ch = ["lay", "pass"] if bal[banker] >= o.bank else ["pass"]
                else:
                    ch = ["respond", "pass"] if bal[banker] > 0 else ["pass"]
            else:
                ch = ["hold", "pass"]
            c = bank_choice(ch, holds)
            if c == "lay":
                lays += 1
                kind, broken, bank_deals = LIMITED, False, 0
                bal[banker] -= o.bank
                bank = o.bank
                decide = False
            elif c == "respond":
                kind, broken, bank_deals, resp_talias = RESPONSIBLE, False, 0, 0
                decide = False
            elif c == "hold":
                holds += 1
                decide = False
            else:
                bal[banker] += bank
                bank = 0
                banker = (banker + 1) % n
                kind, lays, broken, bank_deals, holds = None, 0, False, 0, 0
        # the stakes, from the banker's left (Club.stake_range, ClubBot)
        stakes = []
        staked = 0
        for pos in range(n - 1):
            seat = (banker + 1 + pos) % n
            if kind == LIMITED:
                most = min(bal[seat], bank)
            else:
                most = min(bal[seat], bal[banker] - staked)
            most = max(most, 0)
            least = min(o.minimums[pos], most) if kind == LIMITED and bank_deals == 0 and pos < 2 else 0
            s = stake_for(pos, least, most)
            if s is not None:
                stakes.append((seat, s[0], s[1]))
                staked += s[1]
                bal[seat] -= s[1]
        stakes.sort(key=lambda s: s[1])  # tableau order; stable within a tableau
        results = (res[0][i], res[1][i], res[2][i])
        limited = kind == LIMITED
        entries, after, brk = duel.settle(stakes, results, bank if limited else -1, o.commission)
        net_banker = 0
        for seat, tableau, amount, outcome, to_punter, to_bank, to_house in entries:
            bal[seat] += to_punter
            house += to_house
            net_banker += to_bank
            sums.add_stake(seat, amount, to_punter, results[tableau - 1])
        if limited:
            bank = after
        else:
            bal[banker] += net_banker
        sums.data[banker][6] += 1
        sums.data[banker][7] += net_banker
        bank_deals += 1
        talia_over = last[i]
        i += 1
        if limited and brk:
            broken = True
            decide = True
        elif talia_over:
            if kind == RESPONSIBLE:
                resp_talias += 1
                if resp_talias >= o.talias:
                    bal[banker] += bank
                    bank = 0
                    banker = (banker + 1) % n
                    kind, lays, broken, bank_deals, holds = None, 0, False, 0, 0
            decide = True
    sums.house = house
    sums.rounds = rounds
    return sums


def club_report(sums):
    seats = []
    for s, d in enumerate(sums.data):
        n, x, y, xx, yy, xy, bdeals, bnet, won, pushed, lost = d
        rtp, ci = stats.ratio(n, x, y, xx, yy, xy)
        he, he_ci = stats.edge(rtp, ci)
        row = {"seat": s, "stakes": n, "staked": x, "returned": y, "rtp": rtp, "ci95": ci,
               "house_edge": he, "house_edge_ci95": he_ci, "banker_deals": bdeals, "banker_net": bnet,
               "won": won, "pushed": pushed, "lost": lost}
        for k, m in (("win_rate", won), ("push_rate", pushed), ("loss_rate", lost)):
            row[k], row[k + "_ci95"] = stats.proportion(m, n)  # the duels of its stakes, Wilson's
        seats.append(row)
    return {"seats": seats, "house": sums.house}


def club_summary(d):
    """The club report of a merged tally (either path's: the same sums)."""
    sums = Sums(len(d["sums"]))
    sums.data, sums.house, sums.rounds = d["sums"], d["house"], d["rounds"]
    return club_report(sums)


# ---- the games on the rules engine, a bot at each seat --------------------------------
ECARTE_STAKING = ("each player stakes 1 unit a game and the loser pays the winner the game's "
                  "value (treble if he has no point, double with 1 or 2, single with 3 or 4); "
                  "the first dealer is cut for in each chunk")
PIQUET_STAKING = ("a unit a point: the loser of a partie pays the winner its Rubicon value "
                  "(a drawn partie moves nothing)")
MONEY = ("a seat's return to player is what came back over what it had at risk: a transfer "
         "of a units is a units staked by each side and 2a returned to the payee; house edge "
         "= 1 - RTP")


def _options(game, variant, big=False):
    """The game's options, for a variant by name; big: club bankrolls nobody runs through."""
    o = named.options(game, variant)  # ValueError naming the variants if unknown
    if big:
        o = R.Options(**dict(named.variants(game)[variant] if variant else {}, balance=BIG))
    return o


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
    o = _options(spec["game"], spec["variant"])
    table = find_game(spec["game"]).Table(kits.find(spec["game"]).new_game(o))
    levels = seat_levels(spec, table.SEATS)
    for level in sorted(set(levels)):
        kits.bot(spec["game"], level)
    return levels


def table_session(spec, k, n):
    """One chunk of n rounds on the rules engine (simulator/direct.py), the spec's bots at
    the seats; the game's tally of it."""
    game = spec["game"]
    rng = random.Random(chunk_seed(spec["seed"], k))
    o = _options(game, spec["variant"])
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


def club_chunk(spec, k, n):
    if set(spec["bots"]) == {"rules"}:
        _seats, data, house, rounds = club_session(spec["seed"], k, n, _options("club", spec["variant"], True))
        return {"sums": data, "house": house, "rounds": rounds}
    return table_session(spec, k, n)


def club_staking(spec):
    if set(spec["bots"]) == {"rules"}:
        return CLUB_STAKING
    o = _options("club", spec["variant"])
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
