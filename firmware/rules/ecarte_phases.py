# The phases of an écarté deal, shared by the engine (ecarte.py), its laws
# (ecarte_laws.py) and its variants (ecarte_variants.py).
from ..compat import const

DEAL = const(0)  # the shoe deals the hands in packets, then turns the trump
PROPOSE = const(1)  # elder: propose or stand ("I play")
RESPOND = const(2)  # dealer: accept or refuse
DISCARD = const(3)  # the seat to act discards
DRAW = const(4)  # the shoe replaces the discards
PLAY = const(5)  # tricks
CHOOSE = const(6)  # an irregularity: the non-dealer chooses what the laws offer him
ANSWER = const(7)  # a proposal to double, or an offer of the point, awaits its answer

PHASE_NAMES = ("deal", "propose", "respond", "discard", "draw", "play", "choose", "answer")

# The shoe faults the laws answer (ecarte_laws.py handles them)
SHOE_FAULTS = ("unread", "exposed", "double feed", "missing", "outofturn")
