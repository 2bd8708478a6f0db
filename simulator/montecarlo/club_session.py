# Club écarté with the "rules" bots at every seat, on the fast path of `tapis simulate`:
# the shoes, the duels and the money of a chunk in one call of the compiled club_bank twin,
# or the Python loop it replaced (the same figures: tests/firmware/offboard/test_club_bank.py), the bots'
# banking and staking pattern (simulator/kits/club/bots.py) played from the seat's
# balances alone.
import random
from array import array

from tapis.cython_core import twins as core
from tapis.firmware.offboard import deck
from tapis.firmware.games import club as R
from tapis.firmware.offboard import named
from tapis.firmware.games.club import duel as pure_duel
from tapis.firmware.games.club.events import LIMITED, RESPONSIBLE
from tapis.simulator.montecarlo.chunks import chunk_seed
from tapis.simulator.montecarlo.club_sums import Sums
from tapis.simulator.kits.club.bots import HOLD_TALIAS, UNIT, bank_choice, stake_for

SHOE = 104
DEAL = 17
CUT_SPAN = (52, 78)  # where the cut card lands, as in the emulated shoe
BIG = 10 ** 12  # the simulated seats' bankroll: nobody runs dry
_SHOE = deck.shoe()

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


def club_options(variant):
    """Club's options for a variant by name, with bankrolls nobody runs through."""
    named.options("club", variant)  # ValueError naming the variants if unknown
    return R.Options(**dict(named.variants("club")[variant] if variant else {}, balance=BIG))


def club_session(seed, k, rounds, options=None, duel=None):
    """One chunk: an independent club session of `rounds` deals. Returns Sums.to_list().
    The bank's life follows firmware/games/club step for step (a test checks it
    against the rules engine). The whole chunk, shoes, duels and money, is one call of
    the club_bank twin; given a `duel` core, the Python loop below plays it instead (the
    same figures: tests/firmware/offboard/test_club_bank.py)."""
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
