# Club écarté (SPEC §4, seed 004): the trump duel of two tableaux, and the settlement
# of one deal's stakes. The pure twin of cython_core/duel.pyx: same names, same answers.
#
# The duel. Only trumps count. Trumps of equal rank cancel pairwise between the two
# tableaux (two decks: both may hold the same card). The rest play imaginary tricks:
# the side with the highest remaining trump leads, a led trump must be followed and
# beaten if possible, the winner of a trick leads the next, and once one side is out of
# trumps each trump the other still holds is a trick. Both sides play perfectly
# (minimax); more tricks wins, equal tricks (none at all included) is en carte, a push.
#
# After the cancellation the answer depends only on the order of the remaining trumps
# from high to low and on whose each one is, so a duel is reduced to a "pattern": a
# leading 1 bit, then one bit per remaining trump from the highest down, 1 for the
# banker's and 0 for the punter's. Four trumps a side at most: a pattern is < 512.
# The minimax value of each pattern is computed once and kept, in a table allocated up
# front (a byte a pattern, the value + 64; 0: not computed yet): a dict filled as patterns
# came grew the board's heap with the session, 1.7 KB every 100 deals on the unix port.
from ...compat import const

BANKER = const(1)  # the banker's tableau wins: the punter loses his stake
PUSH = const(0)  # en carte: no money moves
PUNTER = const(-1)  # the punter's tableau wins: the bank pays
OFF = const(2)  # settlement only: the bank was broken earlier, the stake neither wins nor loses

RESULT_NAMES = {BANKER: "banker", PUSH: "push", PUNTER: "punter", OFF: "off"}

TABLEAU = const(4)  # cards in a tableau
PATTERNS = const(512)  # pattern codes are below this

_memo = bytearray(PATTERNS)


def trump_ranks(tableau, trump):
    """The ranks of the trumps in a tableau (card codes), highest first."""
    return sorted([c & 15 for c in tableau if c >> 4 == trump], reverse=True)


def pattern(banker, punter, trump):
    """The duel's pattern code: after the equal trumps cancel, a 1 bit, then one bit per
    remaining trump from the highest down: 1 if it is the banker's, 0 if the punter's."""
    cb = [0] * 13
    cp = [0] * 13
    for c in banker:
        if c >> 4 == trump:
            cb[c & 15] += 1
    for c in punter:
        if c >> 4 == trump:
            cp[c & 15] += 1
    code = 1
    for r in range(12, -1, -1):
        d = cb[r] - cp[r]
        if d > 0:
            code = (code << d) | ((1 << d) - 1)
        elif d < 0:
            code <<= -d
    return code


def _split(code):
    """A pattern -> (banker strengths, punter strengths): position from the bottom."""
    b = []
    p = []
    n = 0
    while code > 1:
        (b if code & 1 else p).append(n)
        code >>= 1
        n += 1
    return b, p


def _without(cards, c):
    out = list(cards)
    out.remove(c)
    return out


def _best(mine, theirs):
    """Perfect play, `mine` to lead: (my tricks - their tricks) from here."""
    if not mine:
        return -len(theirs)
    if not theirs:
        return len(mine)
    best = -99
    for lead in set(mine):
        rest = _without(mine, lead)
        higher = [c for c in theirs if c > lead]
        worst = 99
        for f in set(higher or theirs):
            left = _without(theirs, f)
            if f > lead:  # they win the trick and lead the next
                v = -1 - _best(left, rest)
            else:
                v = 1 + _best(rest, left)
            if v < worst:
                worst = v
        if worst > best:
            best = worst
    return best


def solve(code):
    """(banker tricks - punter tricks) under perfect play, for a pattern code."""
    v = _memo[code]
    if v:
        return v - 64
    b, p = _split(code)
    if not b and not p:
        v = 0
    elif b and (not p or max(b) > max(p)):
        v = _best(b, p)
    else:
        v = -_best(p, b)
    _memo[code] = v + 64
    return v


def tricks(code):
    """(banker tricks, punter tricks) of a pattern under perfect play."""
    b, p = _split(code)
    total = len(b) if len(b) > len(p) else len(p)
    d = solve(code)
    return (total + d) // 2, (total - d) // 2


def result_of(diff):
    return BANKER if diff > 0 else (PUNTER if diff < 0 else PUSH)


def duel(banker, punter, trump):
    """The duel of the banker's tableau against a punter's, `trump` the trump suit (0..3):
    (result, banker tricks, punter tricks), result BANKER, PUSH or PUNTER."""
    code = pattern(banker, punter, trump)
    bt, pt = tricks(code)
    return result_of(bt - pt), bt, pt


def duel_batch(banker, punter, trumps, out):
    """Many duels at once. `banker` and `punter` hold 4 card codes per duel, end to end
    (duel i is cards 4i..4i+3); `trumps` one suit per duel; `out` receives one result per
    duel (BANKER, PUSH or PUNTER). Returns the number of duels."""
    n = len(trumps)
    if len(banker) < 4 * n or len(punter) < 4 * n or len(out) < n:
        raise ValueError("duel_batch: %d trumps need 4 cards a side per duel and %d results, "
                         "got %d banker cards, %d punter cards, room for %d results"
                         % (n, n, len(banker), len(punter), len(out)))
    for i in range(n):
        j = 4 * i
        out[i] = result_of(solve(pattern(banker[j:j + 4], punter[j:j + 4], trumps[i])))
    return n


def settle(stakes, results, bank, commission):
    """Settle one deal. `stakes` are (seat, tableau, amount) in tableau order (tableau 1..3,
    the punters' tableaux); `results[t - 1]` is tableau t's duel result. `bank` is what a
    limited bank holds, or -1 for a responsible bank, which answers every stake.
    `commission` is the house's percent of each win (0 by default in the rules).

    Returns (entries, bank after, broken): one entry per stake,
    (seat, tableau, amount, outcome, to punter, to bank, to house), with
    to punter + to bank + to house == amount: money is conserved. `to bank` is negative
    when the bank pays. Once a punter breaks a limited bank (it holds 0), the later stakes
    are OFF: they neither win nor lose (seed 004:31)."""
    entries = []
    broken = False
    for seat, tableau, amount in stakes:
        r = results[tableau - 1]
        if broken:
            entries.append((seat, tableau, amount, OFF, amount, 0, 0))
        elif r == PUSH:
            entries.append((seat, tableau, amount, PUSH, amount, 0, 0))
        elif r == BANKER:
            fee = amount * commission // 100
            if bank >= 0:
                bank += amount - fee
            entries.append((seat, tableau, amount, BANKER, 0, amount - fee, fee))
        else:
            win = amount if bank < 0 or amount <= bank else bank
            fee = win * commission // 100
            if bank >= 0:
                bank -= win
                broken = bank == 0
            entries.append((seat, tableau, amount, PUNTER, amount + win - fee, -win, fee))
    return entries, bank, broken
