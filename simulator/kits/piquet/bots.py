# The piquet bot behind a panel: it sees its seat's display view only.
from tapis.firmware.games import panel as B
from tapis.firmware.cards import JACK, KING, QUEEN, TEN, rank, suit
from tapis.firmware.games.piquet.declarations import sequences
from tapis.firmware.offboard.rng import Seeded

_RANK_KEEP = {4: 0, 5: 0, 6: 1, 7: 2, 8: 4, 9: 5, 10: 6, 11: 8, 12: 10}


def keep_values(hand):
    """A keep value per card: its rank, + sequences it belongs to, + set prospects,
    + stoppers (a guarded king or queen), + length in the suit (the point)."""
    in_seq = set()
    for length, top, s in sequences(hand):
        for r in range(top - length + 1, top + 1):
            in_seq.add(s << 4 | r)
    by_rank, by_suit = {}, {}
    for c in hand:
        by_rank[rank(c)] = by_rank.get(rank(c), 0) + 1
        by_suit[suit(c)] = by_suit.get(suit(c), 0) + 1
    out = {}
    for c in hand:
        r, n = rank(c), by_suit[suit(c)]
        v = _RANK_KEEP.get(r, 0)
        if c in in_seq:
            v += 7
        elif any((suit(c) << 4 | r2) in hand for r2 in (r - 1, r + 1)):
            v += 2  # a sequence in the making
        if r >= TEN and by_rank[r] >= 2:
            v += 2 * by_rank[r]  # trio or quatorze in prospect
        if (r == KING and n >= 2) or (r == QUEEN and n >= 3) or (r == JACK and n >= 4):
            v += 3  # a stopper against the opponent's long suit
        if n >= 4:
            v += n - 3
        out[c] = v
    return out


def piquet_discard(hand, lo, hi, elder):
    """Elder takes his whole part (the usual advice); younger throws his weak cards,
    between lo and hi. The lowest keep values go first (seed 003:155)."""
    values = keep_values(hand)
    order = sorted(hand, key=lambda c: (values[c], rank(c)))
    if elder:
        n = hi
    else:
        n = max(lo, min(hi, sum(1 for c in hand if values[c] < 6)))
    return order[:n]


def piquet_card(view):
    """Lead a master card (the best left in its suit) from the longest suit, else the
    lowest of the longest suit. Follow: win as cheaply as possible, else throw the
    lowest card, keeping stoppers."""
    legal, hand = view["legal"], view["hand"]
    gone = set(view["played"]) | set(hand)
    length = lambda c: sum(1 for x in hand if suit(x) == suit(c))
    if view["led"] is None:
        masters = [c for c in legal if all((suit(c) << 4 | r) in gone for r in range(rank(c) + 1, 13))]
        if masters:
            return max(masters, key=lambda c: (length(c), rank(c)))
        return min(legal, key=lambda c: (-length(c), rank(c)))
    led = view["led"]
    winners = [c for c in legal if suit(c) == suit(led) and rank(c) > rank(led)]
    if winners:
        return min(winners, key=rank)
    values = keep_values(hand)
    return min(legal, key=lambda c: (values[c], rank(c)))


class PiquetBot:
    """Rules of thumb ("rules"): declares everything and always looks; the exchange by
    keep values (piquet_discard), the card by piquet_card. A stronger or weaker bot
    overrides the decisions (blanche, exchange, look, declare, card)."""

    def __init__(self, seed=None):  # plays the same whatever the seed
        self.acted = None  # the decision point last answered, so each is answered once

    def presses(self, view):
        if not view["turn"]:
            self.acted = None  # the next turn is a new decision, even if it looks the same
            return []
        point = (view["deal"], view["phase"], tuple(view["hand"]), view["led"],
                 tuple(view["tricks"]), view.get("category"), view["talon"], view.get("msg"))
        if point == self.acted:  # (a press refused says so: then it is a new decision)
            return []
        self.acted = point
        phase, hand = view["phase"], view["hand"]
        if phase in ("blanche", "look", "declare"):
            yes = getattr(self, phase)(view)
            return [(B.ACCEPT if yes else B.REFUSE, 0)]
        if phase == "exchange":
            return [(B.SELECT, hand.index(c) + 1) for c in self.exchange(view)] + [(B.CONFIRM, 0)]
        if phase == "play":
            return [(B.SELECT, hand.index(self.card(view)) + 1), (B.CONFIRM, 0)]
        return [(B.CONFIRM, 0)]

    # ---- the decisions, from the seat's view alone --------------------------------
    def blanche(self, view):
        return True  # declare carte blanche

    def look(self, view):
        return True  # look at the rest of the talon

    def declare(self, view):
        return True  # declare every category

    def exchange(self, view):
        lo, hi = view["exchange"]
        return piquet_discard(view["hand"], lo, hi, view["seat"] == view["elder"])

    def card(self, view):
        return piquet_card(view)


class RandomBot(PiquetBot):
    """Random legal play ("random"): every choice uniformly among what the view allows
    (carte blanche, how many cards and which to exchange, looking, declaring or sinking,
    the card). Seeded: the same views get the same answers."""

    def __init__(self, seed=1):
        PiquetBot.__init__(self)
        self.rng = Seeded(seed)

    def blanche(self, view):
        return self.rng.below(2) == 1

    look = declare = blanche

    def exchange(self, view):
        lo, hi = view["exchange"]
        hand = list(view["hand"])
        n = lo + self.rng.below(hi - lo + 1)
        return [hand.pop(self.rng.below(len(hand))) for _ in range(n)]

    def card(self, view):
        legal = view["legal"]
        return legal[self.rng.below(len(legal))]

