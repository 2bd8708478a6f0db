# Écarté variants played inside a hand (SPEC §4, seed 000 "Ставки", seed 001):
# doubling before the third trick, offering the point, and the quick 4-card game.
# Each is switched on by an Options field; pool écarté and rubbers are in the engine's
# scoring (ecarte.py `_score`, `_rotate`).
from ..cards import rank, suit
from . import CHANCE, IllegalAction
from .ecarte_phases import PLAY, ANSWER, PHASE_NAMES


def hand_points(g, tricks):
    """(winner, points, reason) for a hand played (or claimed) to its end."""
    w, points = g.ev.ecarte_points(tricks, g.vulnerable)
    reason = "vole" if tricks[w] == g.hand_size else "point"
    if g.must_vole >= 0 and tricks[g.must_vole] != g.hand_size:
        # the point was offered and refused: the refuser had to win the vole
        w, points, reason = 1 - g.must_vole, 2, "vole missed"
    return w, points * g.multiplier, reason


def verify_question(g, kind, seat):
    o = g.options
    if kind == "double":
        if not o.doubling:
            raise IllegalAction("seat %d cannot double: this table does not play the "
                                "'doubling' variant" % seat)
        _in_play(g, kind, seat)
        if g.doubled:
            raise IllegalAction("seat %d cannot double: doubling was already proposed in this hand" % seat)
        done = g.tricks[0] + g.tricks[1]
        if done > 2 or (done == 2 and g.led is not None):
            raise IllegalAction("seat %d cannot double: doubling is proposed before the third "
                                "trick begins" % seat)
    else:
        if not o.offer_point:
            raise IllegalAction("seat %d cannot offer the point: this table does not play the "
                                "'offer-point' variant" % seat)
        _in_play(g, kind, seat)
        if g.offered:
            raise IllegalAction("seat %d cannot offer the point: it was offered in this hand" % seat)
        if g.played[0] or g.played[1]:
            raise IllegalAction("seat %d cannot offer the point: it is offered before the first "
                                "card is played" % seat)


def _in_play(g, kind, seat):
    if g.phase != PLAY:
        raise IllegalAction("seat %d cannot %s now: the table is at the %s" % (
            seat, kind, PHASE_NAMES[g.phase]))


def ask(g, kind, seat):
    if kind == "double":
        g.doubled = True
    else:
        g.offered = True
    g.question, g.resume = (kind, seat), (g.phase, g.to_act)
    g.phase, g.to_act = ANSWER, 1 - seat


def answer(g, seat, yes):
    kind, asker = g.question
    g.question = None
    g._emit(("accept" if yes else "refuse", seat, None))
    g.phase, g.to_act = g.resume
    if kind == "double":
        if yes:  # the hand's points are doubled for whoever wins it
            g.multiplier = 2
        else:  # the hand ends, scored as the point for the proposer
            g._end_hand(asker, 2 if g.vulnerable == seat else 1, "double refused")
    elif yes:  # the hand ends, scored as the point won by the one who accepted
        g._end_hand(seat, 2 if g.vulnerable == asker else 1, "point offered")
    else:  # refused: he must win the vole, or the offerer scores 2
        g.must_vole = seat


def showdown(g):
    """The quick game (001:18): 4 cards each, the 9th turned; the higher trump wins the
    deal (1 point); with no trump on either side nobody scores."""
    best = [-1, -1]
    for s in (0, 1):
        for c in g.hands[s]:
            if suit(c) == g.trump_suit and g.strength[rank(c)] > best[s]:
                best[s] = g.strength[rank(c)]
    shown = (tuple(g.hands[0]), tuple(g.hands[1]))  # both hands are shown
    if best[0] == best[1]:
        g._emit(("showdown", CHANCE, ("no trump",) + shown))
        g._new_deal()
        return
    w = 0 if best[0] > best[1] else 1
    g._emit(("showdown", w, ("higher trump",) + shown))
    g._end_hand(w, 1, "higher trump")
