# Bots behind the emulated panels. They see only their own seat's display view
# and answer with button presses, as a person at the table would.
from tapis.firmware.games import panel as B
from tapis.firmware.cards import KING, QUEEN, rank, suit
from tapis.firmware.evaluate import ECARTE_STRENGTH as STRENGTH, beats
from tapis.firmware.offboard.rng import Seeded


def _strength(c):
    return STRENGTH[rank(c)]


def ecarte_estimate(hand, trump):
    """Rough tricks: every trump, every side king, half a side queen with a guard."""
    est = 0.0
    for c in hand:
        if suit(c) == trump:
            est += 1
        elif rank(c) == KING:
            est += 1
        elif rank(c) == QUEEN and sum(1 for x in hand if suit(x) == suit(c)) > 1:
            est += 0.5
    return est


_ADVICE = {}  # (hand, turned card, leads) -> stand: the advisor's answer, cached


def _advisor():
    from tapis.cython_core.twins import for_players  # compiled when built: ~0.1 ms a decision
    return for_players("ecarte_solver")


def ecarte_stands(hand, trump, leads=True):
    """The exact advisor's jeu de règle (firmware/ecarte_solver.py `stands`, seed 002 lines
    39-41). `trump` is the turned card's code, as the view shows it (`view["trump"]`); a bare
    suit (0..3, older callers) falls back to the rough estimate, since the advisor needs the
    card. Elder (`leads`) stands when the double-dummy point is at least 2 to 1 (with the
    trump king, only if the vole is probable too); the dealer answering a proposal refuses
    when he takes the point at least 2 to 1 against every hand elder may hold, elder leading."""
    key = (tuple(sorted(hand)), trump, bool(leads))
    got = _ADVICE.get(key)
    if got is None:
        try:
            if trump < 4:
                raise ValueError("a bare suit, not the turned card")
            got = _advisor().stands(hand, trump, leads)
        except ValueError:  # no turned card, or a position the advisor refuses (an irregular deal)
            s = trump if trump < 4 else suit(trump)
            king = any(suit(c) == s and rank(c) == KING for c in hand)
            got = ecarte_estimate(hand, s) >= (4 if king else 3)
        if len(_ADVICE) > 200000:
            _ADVICE.clear()
        _ADVICE[key] = got
    return got


def ecarte_discard(hand, trump, lo, hi):
    """Keep trumps and side kings; throw the rest, weakest first, within [lo, hi]."""
    keep = lambda c: suit(c) == trump or rank(c) == KING
    order = sorted(hand, key=lambda c: (keep(c), suit(c) == trump, _strength(c)))
    n = sum(1 for c in hand if not keep(c))
    return order[:max(lo, min(n, hi))]


def ecarte_card(view):
    """Lead: trumps from three or more, else the best side card. Follow: win as
    cheaply as possible, else throw the cheapest card."""
    legal = view["legal"]
    trump = suit(view["trump"])
    if view["led"] is None:
        trumps = [c for c in legal if suit(c) == trump]
        pool = trumps if len(trumps) >= 3 else [c for c in legal if suit(c) != trump] or legal
        return max(pool, key=_strength)
    led = view["led"]
    winners = [c for c in legal if beats(c, led, trump, STRENGTH)]
    pool = winners or legal
    return min(pool, key=lambda c: (suit(c) == trump and not winners, _strength(c)))


class EcarteBot:
    """Rules of thumb ("rules"): stands and refuses by the exact advisor (ecarte_stands),
    keeps trumps and kings in the exchange (ecarte_discard), plays by ecarte_card, answers
    a double or an offer on its rough count of tricks. At a gallery seat it backs a player
    once. A stronger or weaker bot overrides the decisions (stands, refuses, discards, card,
    answer, choice, asks)."""

    def __init__(self, seed=None):  # plays the same whatever the seed
        self.acted = None  # the decision point last answered, so each is answered once
        self.kinged = None  # the king announced while open: the view's hand, trump, scores, message

    def presses(self, view):
        if view.get("gallery"):
            return self.gallery(view)
        self.watch(view)
        if view["king"]:  # alone: the king may end the game, and the next view says what is left
            key = (tuple(view["hand"]), view["trump"], tuple(view["scores"]), view["msg"])
            if self.kinged == key:  # pressed, not taken yet: a second press would be refused,
                return []  # and that refusal's view taken for a refused card (issue 48)
            self.kinged = key  # (a refusal's view, a new message; another deal: pressed again)
            return [(B.KING, 0)]
        self.kinged = None
        if not view["turn"]:
            self.acted = None  # the next turn is a new decision, even if it looks the same
            return []
        point = (view["phase"], tuple(view["hand"]), view["led"], view["stock"], tuple(view["tricks"]),
                 view.get("question"), tuple(view.get("choices", ())), tuple(view.get("may", ())),
                 view.get("msg"))
        if point == self.acted:  # (a press refused says so: then it is a new decision)
            return []
        self.acted = point
        phase, hand = view["phase"], view["hand"]
        if phase == "choose":  # an irregularity
            return [(B.SELECT, self.choice(view) + 1), (B.CONFIRM, 0)]
        if phase == "answer":
            return [(B.ACCEPT if self.answer(view) else B.REFUSE, 0)]
        if phase == "propose":
            return [(B.STAND if self.stands(view) else B.PROPOSE, 0)]
        if phase == "respond":
            return [(B.REFUSE if self.refuses(view) else B.ACCEPT, 0)]
        if phase == "discard":
            return [(B.SELECT, hand.index(c) + 1) for c in self.discards(view)] + [(B.CONFIRM, 0)]
        if phase == "play":
            ask = self.asks(view)
            if ask:
                return [(ask, 0)]
            return [(B.SELECT, hand.index(self.card(view)) + 1), (B.CONFIRM, 0)]
        return []

    # ---- the decisions, from the seat's view alone --------------------------------
    def watch(self, view):
        """Every view of a player's seat comes here first (a bot that remembers the deal)."""

    def gallery(self, view):
        return ecarte_gallery(view)

    def choice(self, view):
        """The laws' choice to take, 0-based: the first (play on)."""
        return 0

    def answer(self, view):
        strong = ecarte_estimate(view["hand"], suit(view["trump"]))
        return strong >= 2.5 if view["question"] == "double" else strong < 3.5

    def stands(self, view):
        return ecarte_stands(view["hand"], view["trump"])

    def refuses(self, view):
        return ecarte_stands(view["hand"], view["trump"], leads=False)

    def discards(self, view):
        lo, hi = view["discard"]
        return ecarte_discard(view["hand"], suit(view["trump"]), lo, hi)

    def asks(self, view):
        """DOUBLE or OFFER before a card, in those variants, or None."""
        may, est = view.get("may", ()), ecarte_estimate(view["hand"], suit(view["trump"]))
        if "double" in may and est >= 3.5:
            return B.DOUBLE
        if "offer" in may and est <= 1:
            return B.OFFER
        return None

    def card(self, view):
        return ecarte_card(view)


class RandomBot(EcarteBot):
    """Random legal play ("random"): every choice uniformly among what the view allows
    (stand or propose, accept or refuse, how many cards and which to discard, the card,
    the answer, the laws' choice); it marks the king, which costs nothing. Seeded: the
    same views get the same answers."""

    def __init__(self, seed=1):
        EcarteBot.__init__(self)
        self.rng = Seeded(seed)

    def _coin(self):
        return self.rng.below(2) == 1

    def gallery(self, view):
        if view["bet"][1] == 0 and view["side"] == view["bet"][0] and self.rng.below(4) == 0:
            return [(B.SELECT, 1 + self.rng.below(2)), (B.BET_PLUS, 0)]
        return []

    def choice(self, view):
        return self.rng.below(len(view["choices"]))

    def answer(self, view):
        return self._coin()

    def stands(self, view):
        return self._coin()

    def refuses(self, view):
        return self._coin()

    def discards(self, view):
        lo, hi = view["discard"]
        hand = list(view["hand"])
        n = lo + self.rng.below(hi - lo + 1)
        return [hand.pop(self.rng.below(len(hand))) for _ in range(n)]

    def asks(self, view):
        return None

    def card(self, view):
        legal = view["legal"]
        return legal[self.rng.below(len(legal))]


def ecarte_gallery(view):
    """Back player (seat % 2) for 1 + seat % 3 units, from the next game on."""
    seat = view["seat"]
    side, want = seat % 2, 1 + seat % 3
    if view["side"] != side:
        return [(B.SELECT, side + 1)]
    if view["bet"][0] != side or view["bet"][1] < want:
        return [(B.BET_PLUS, 0)]
    return []

