# The supervisor's stake limits at écarté (SPEC §8; firmware/operator/commands.py SUPERVISE
# [LIMITS, stake, max_bet]): the stake a game and the gallery's largest bet. Loaded when
# the supervisor sets them, a resume replays them or they come into force, and unloaded
# after (a board that is never supervised keeps this out of its heap).
#   ("limits", -2, (who, stake, max_bet))  journaled as an input, with who
#   ("in_force", -2, (stake, max_bet))     when the next game begins: a game's stake never
#                                          changes mid-game, nor a bet already locked in
from ...compat import const, unload
from ..rules import IllegalAction

_MOST = const(999)  # units: the most a stake or a bet may be set to
MOST = _MOST  # the host's tapis play holds the limits its operator doubles to it


def verify(g, seat, value):
    if seat != -2:
        raise IllegalAction("seat %r cannot set the limits: that is the supervisor's" % (seat,))
    if not isinstance(value, tuple) or len(value) != 3 or not isinstance(value[0], str):
        raise IllegalAction("the supervisor's limits at écarté are (who, stake, max_bet), got %r" % (value,))
    for v in value[1:]:
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= _MOST:
            raise IllegalAction("the supervisor's limits are refused: a stake and a bet are 0 to %d units, "
                                "not %r" % (_MOST, v))


def change(g, value):
    g.emit(("limits", -2, value))
    g.wagers.next = [value[1], value[2]]
    if g.wagers.locked is None:  # the game has not begun (no card dealt): it is the next
        in_force(g)


def in_force(g):
    w = g.wagers
    w.stake, w.max_bet = w.next
    w.next = None
    for b in list(w.standing):  # a standing bet (for the games to come) is at most the new largest
        side, amount = w.standing[b]
        w.place(b, side, min(amount, w.max_bet))
    g.emit(("in_force", -2, (w.stake, w.max_bet)))
    unload("games.ecarte.limits")
