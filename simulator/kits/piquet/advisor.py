# The piquet advisor bot ("advisor"): the exchange chosen by the exact declarations of
# seed 003, over the talons it may draw; the rest as the rules bot. From the seat's view
# alone:
# - every discard it considers (of its EXCHANGE_POOL least useful cards by keep value,
#   as many as the exchange allows) is scored against the same SAMPLES deals of the
#   cards it has not seen: the opponent's hand and the talon, the opponent exchanging by
#   the rules of thumb. The score is what the declarations make (point, sequence, sets
#   and the repique, the declarations twin, which the compiled core scores at over a
#   million pairs a second), its own less the opponent's, plus PLAY_WEIGHT points per
#   trick its hand is worth in play (play_tricks), so that a discard does not throw the
#   cards that win tricks for a sequence's sake;
# - it declares carte blanche, always looks at the rest of the talon, declares every
#   category, and plays its cards by the rules bot's piquet_card.
from array import array

from tapis.cython_core.twins import for_players
from tapis.firmware.cards import ACE, JACK, KING, QUEEN, rank
from tapis.firmware.offboard.deck import deck32, deck36
from tapis.firmware.offboard.rng import Seeded

from .bots import PiquetBot, keep_values, piquet_discard

declarations = for_players("declarations")  # the twin, unwatched: a player's tool (cython_core/twins.py)

SAMPLES = 48  # deals of the unseen cards each discard is scored against
EXCHANGE_POOL = 8  # the discards considered are made of this many least useful cards
PLAY_WEIGHT = 3  # points a trick in play is worth beside the declarations
_HIGH = {ACE: 1.0, KING: 0.75, QUEEN: 0.5, JACK: 0.25}  # a high card's share of a trick


def _suit_tricks(ranks):
    """play_tricks of one suit, its ranks as a 13-bit mask."""
    cs = [r for r in range(12, -1, -1) if ranks >> r & 1]
    out = max(0, len(cs) - 4) * 0.75
    for r in cs:
        if r in _HIGH:  # a king needs a guard, a queen two, a jack three
            out += _HIGH[r] if len(cs) > ACE - r else _HIGH[r] / 2
    return out


_SUIT_TRICKS = {}


def play_tricks(mask):
    """A rough count of the tricks a hand (as a mask, declarations.hand_mask) wins in play:
    its high cards, halved when not guarded by enough cards of the suit, and the length
    past four."""
    out = 0.0
    for s in range(4):
        ranks = mask >> (16 * s) & 0x1FFF
        v = _SUIT_TRICKS.get(ranks)
        if v is None:
            v = _SUIT_TRICKS[ranks] = _suit_tricks(ranks)
        out += v
    return out


def _choose(pool, k, start=0):
    if k == 0:
        yield ()
        return
    for i in range(start, len(pool) - k + 1):
        for rest in _choose(pool, k - 1, i + 1):
            yield (pool[i],) + rest


class AdvisorBot(PiquetBot):
    def __init__(self, seed=1, samples=SAMPLES):
        PiquetBot.__init__(self)
        self.rng, self.samples = Seeded(seed), samples

    def _unseen(self, view):
        hand = view["hand"]
        six = any(rank(c) == 4 for c in hand) or view["talon"] > 8
        seen = set(hand) | set(view.get("rest") or ())
        return [c for c in (deck36() if six else deck32()) if c not in seen]

    def _deals(self, unseen):
        out = []
        for _ in range(self.samples):
            left = list(unseen)
            out.append([left.pop(self.rng.below(len(left))) for _ in range(len(unseen))])
        return out

    def exchange(self, view):
        hand, (lo, hi) = view["hand"], view["exchange"]
        elder = view["seat"] == view["elder"]
        values = keep_values(hand)
        pool = sorted(hand, key=lambda c: (values[c], rank(c)))[:EXCHANGE_POOL]
        deals = self._deals(self._unseen(view))
        mask = declarations.hand_mask
        es, ys, keys = array("Q"), array("Q"), []
        for k in range(lo, min(hi, len(pool)) + 1):
            if elder:  # the opponent: 12 unseen cards, exchanging after me from the rest
                opps = []
                for d in deals:
                    other, talon = d[:12], d[12:]
                    room = len(talon) - k
                    throw = piquet_discard(other, 1, room, False) if room > 0 else []
                    opps.append(mask([c for c in other if c not in throw] + talon[k:k + len(throw)]))
                draws = [mask(d[12:12 + k]) for d in deals]
            else:  # the talon left first, then elder's hand as he holds it now
                left = view["talon"]
                opps = [mask(d[left:left + 12]) for d in deals]
                draws = [mask(d[:k]) for d in deals]
            for throw in _choose(pool, k):
                kept = [c for c in hand if c not in throw]
                base = mask(kept)
                play = PLAY_WEIGHT * sum(play_tricks(base | dm) for dm in draws)
                keys.append((throw, play))
                for dm, om in zip(draws, opps):
                    mine = base | dm
                    es.append(mine if elder else om)
                    ys.append(om if elder else mine)
        out = array("i", [0]) * (9 * len(es))
        declarations.declare_batch(es, ys, out)
        me, them = (7, 8) if elder else (8, 7)
        n = len(deals)
        best, score = None, None
        for i, (throw, play) in enumerate(keys):
            got = play
            for j in range(i * n, (i + 1) * n):
                got += out[9 * j + me] - out[9 * j + them]
            if score is None or got > score:
                best, score = throw, got
        return list(best) if best is not None else PiquetBot.exchange(self, view)
