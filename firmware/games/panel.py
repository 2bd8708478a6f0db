# Panel buttons, as the panels send them in BUTTON frames: [button, arg].
from ..compat import const

STAND = const(1)  # "I play": play without proposing (PLAY/PROPOSE key, play side)
PROPOSE = const(2)
ACCEPT = const(3)
REFUSE = const(4)
SELECT = const(5)  # arg: the card's place in the hand as displayed, 1..12
CONFIRM = const(6)
KING = const(7)  # MARK KING
BET_PLUS = const(8)
BET_MINUS = const(9)
SUPERVISOR = const(10)
ABANDON = const(11)  # throw in the hand (écarté: the opponent scores the point or the vole)
CLAIM = const(12)  # lay the cards down claiming the point: the table checks the claim
DOUBLE = const(13)  # propose to double the hand (écarté variant "doubling")
OFFER = const(14)  # offer the opponent the point (écarté variant "offer-point")


def select(selected, place, hand, one):
    """SELECT `place` (1-based, in the hand as displayed): toggles a card in `selected`,
    or makes it the one card to play when `one`."""
    from .rules import IllegalAction
    if not 1 <= place <= len(hand):
        raise IllegalAction("no card %d in a hand of %d" % (place, len(hand)))
    if one:
        selected[:] = [place]
    elif place in selected:
        selected.remove(place)
    else:
        selected.append(place)


def chosen(selected, hand, one):
    """The cards CONFIRM submits: the selection, in hand order; exactly one when `one`."""
    from .rules import IllegalAction
    cards = tuple(hand[i - 1] for i in sorted(selected))
    if one and len(cards) != 1:
        raise IllegalAction("select one card to play, then CONFIRM")
    return cards
