# Abandoned and claimed écarté hands (000:76, 002:27, SPEC §4), loaded on the first one.
from .events import PLAY


def on_abandon(g, seat, claim):
    """An abandoned hand gives the opponent the point, or the vole if the abandoner took no
    trick. A claim is checked with every card seen: justified, it is scored as the hand
    would end with both sides playing perfectly, without penalty; otherwise the hand is
    abandoned."""
    if claim:
        sure = g.tricks[seat] + sure_tricks(g, seat)
        g.emit(("claimed", seat, sure))
        if sure * 2 > g.hand_size:
            tricks = [0, 0]
            tricks[seat], tricks[1 - seat] = sure, g.hand_size - sure
            g.end_hand(*g.hand_points(tricks))
            return
    vole = g.tricks[seat] == 0
    points = 2 if vole or g.vulnerable == seat else 1
    g.end_hand(1 - seat, points * g.multiplier, "abandoned: vole" if vole else "abandoned: point")


def sure_tricks(g, seat):
    """Tricks `seat` takes from here whatever the other does, all cards seen."""
    if g.phase != PLAY:
        return 0
    return _best(g, [list(g.hands[0]), list(g.hands[1])], g.to_act, g.led, seat)


def _best(g, hands, to_act, led, seat):
    if not hands[to_act]:
        return 0
    best = -1
    for c in g.ev.legal_plays(hands[to_act], led, g.trump_suit, g.strength):
        hands[to_act].remove(c)
        if led is None:
            v = _best(g, hands, 1 - to_act, c, seat)
        else:
            w = to_act if g.ev.trick_winner(led, c, g.trump_suit, g.strength) else 1 - to_act
            v = (1 if w == seat else 0) + _best(g, hands, w, None, seat)
        hands[to_act].append(c)
        if best < 0 or (v > best if to_act == seat else v < best):
            best = v
    return best
