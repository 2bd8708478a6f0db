# Bots behind the emulated panels. They see only their own seat's display view
# and answer with button presses, as a person at the table would.
from tapis.firmware import panel as B
from tapis.firmware.cards import KING, QUEEN, rank, suit
from tapis.firmware.evaluate import ECARTE_STRENGTH as STRENGTH, beats


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
    from tapis.cython_core.twins import ecarte_solver  # compiled when built: ~0.1 ms a decision
    return ecarte_solver


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
    """A player at an écarté panel; at a gallery seat it backs a player once."""

    def __init__(self):
        self.acted = None  # the decision point last answered, so each is answered once

    def presses(self, view):
        if view.get("gallery"):
            return ecarte_gallery(view)
        out = []
        if view["king"]:
            out.append((B.KING, 0))
        if not view["turn"]:
            return out
        point = (view["phase"], tuple(view["hand"]), view["led"], view["stock"], tuple(view["tricks"]),
                 view.get("question"), tuple(view.get("choices", ())), tuple(view.get("may", ())))
        if point == self.acted:
            return out
        self.acted = point
        phase = view["phase"]
        if phase == "choose":  # an irregularity: the first thing the laws offer (play on)
            return out + [(B.SELECT, 1), (B.CONFIRM, 0)]
        hand, trump = view["hand"], suit(view["trump"])
        if phase == "answer":
            strong = ecarte_estimate(hand, trump)
            yes = strong >= 2.5 if view["question"] == "double" else strong < 3.5
            out.append((B.ACCEPT if yes else B.REFUSE, 0))
        elif phase == "propose":
            out.append((B.STAND if ecarte_stands(hand, view["trump"]) else B.PROPOSE, 0))
        elif phase == "respond":
            out.append((B.REFUSE if ecarte_stands(hand, view["trump"], leads=False) else B.ACCEPT, 0))
        elif phase == "discard":
            lo, hi = view["discard"]
            for c in ecarte_discard(hand, trump, lo, hi):
                out.append((B.SELECT, hand.index(c) + 1))
            out.append((B.CONFIRM, 0))
        elif phase == "play":
            may = view.get("may", ())
            if "double" in may and ecarte_estimate(hand, trump) >= 3.5:
                return out + [(B.DOUBLE, 0)]
            if "offer" in may and ecarte_estimate(hand, trump) <= 1:
                return out + [(B.OFFER, 0)]
            out.append((B.SELECT, hand.index(ecarte_card(view)) + 1))
            out.append((B.CONFIRM, 0))
        return out


def ecarte_gallery(view):
    """Back player (seat % 2) for 1 + seat % 3 units, from the next game on."""
    seat = view["seat"]
    side, want = seat % 2, 1 + seat % 3
    if view["side"] != side:
        return [(B.SELECT, side + 1)]
    if view["bet"][0] != side or view["bet"][1] < want:
        return [(B.BET_PLUS, 0)]
    return []
