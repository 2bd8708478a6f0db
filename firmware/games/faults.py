# The shoe's fault codes the 32-card games read alike (wire.py), as the rules' chance
# actions; each game's table adds its own (a short pack, a deal out of turn). Loaded at a
# fault only, so its names stay off the board's heap in an ordinary deal.
from .. import wire as W
from .rules import CHANCE


def shoe_fault(code):
    """A card not read, a card face up, two cards at once: the action, else None."""
    k, n = code[0] if code else -1, len(code)
    if k == W.UNREAD:
        return ("unread", CHANCE, None)
    if k == W.FACE_UP and n == 2:
        return ("exposed", CHANCE, code[1])
    if k == W.DOUBLE and n == 3:
        return ("double feed", CHANCE, (code[1], code[2]))
    return None
