# Écarté's part of the board's self-test (firmware/boot/selftest.py): a fixed deal of 10 cards
# and the turn-up; the rules must score the turned king and refuse a card nobody holds.
from ..rules import CHANCE
from .rules import Ecarte

def run():
    g = Ecarte(first_dealer=0)
    for c in (0x0B, 0x0A, 0x09, 0x1B, 0x1A, 0x08, 0x07, 0x06, 0x18, 0x17, 0x2B):
        g.apply(("shoe", CHANCE, c))
    got = [e for e in g.log if e[0] == "score"]
    if not got or got[0][2][0] != 1:
        return "rules: the turned king did not score its point"
    if g.can(("play", g.to_act, 0x3C)):
        return "rules: a card nobody holds was playable"
    return None
