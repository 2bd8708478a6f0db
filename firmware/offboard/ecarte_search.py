# The double-dummy search of an écarté play (solver.py): the tricks one side takes, or
# can force, when both sides see every card and play perfectly (the hand's side maximises,
# the other minimises). Play follows firmware/evaluate.py (SPEC §4). Hands are lists of
# cards; `memo` is the caller's, one per position searched. And the position as the solver
# and the verdict (verdict.py) take it: the cards checked, each refusal quoting what is
# wrong (their compiled twins too, where they do not check inline). One module, not two:
# neither is for the board, and each module is a header more of the image (about 80 B).
from ..cards import name
from .deck import deck32
from ..evaluate import ECARTE_STRENGTH, beats, legal_plays

TRICKS = 5  # cards in an écarté hand


def check(hand, turned, n_min=1):
    """The position as a list, or ValueError quoting what is wrong."""
    pack = deck32()
    hand = list(hand)
    if turned not in pack:
        raise ValueError("turned card %r is not an écarté card (7 to ace)" % (turned,))
    seen = []
    for c in hand:
        if c not in pack:
            raise ValueError("card %r is not an écarté card (7 to ace)" % (c,))
        if c in seen:
            raise ValueError("card %s appears twice in the hand" % name(c))
        if c == turned:
            raise ValueError("the turned card %s cannot be in the hand" % name(c))
        seen.append(c)
    if not n_min <= len(hand) <= TRICKS:
        raise ValueError("a hand holds %d to %d cards, got %d" % (n_min, TRICKS, len(hand)))
    return hand


def check_pair(hand, other):
    """ValueError unless both hands hold as many écarté cards, all different."""
    if len(hand) != len(other):
        raise ValueError("both hands must hold as many cards, got %d and %d" % (len(hand), len(other)))
    pack = deck32()
    both = list(hand) + list(other)
    for i, c in enumerate(both):
        if c not in pack:
            raise ValueError("card %r is not an écarté card (7 to ace)" % (c,))
        if c in both[:i]:
            raise ValueError("card %s is dealt twice" % name(c))



def value(mine, theirs, trump, i_lead, memo):
    """Tricks `mine` takes from here with best play (mine maximises, theirs minimises)."""
    if not mine:
        return 0
    key = (tuple(mine), tuple(theirs), i_lead)
    if key in memo:
        return memo[key]
    leader, follower = (mine, theirs) if i_lead else (theirs, mine)
    best = -1
    for x in leader:
        rest_l = [c for c in leader if c != x]
        reply = -1
        for y in legal_plays(follower, x, trump, ECARTE_STRENGTH):
            rest_f = [c for c in follower if c != y]
            mine_wins = beats(y, x, trump, ECARTE_STRENGTH) != i_lead
            if i_lead:
                v = value(rest_l, rest_f, trump, mine_wins, memo)
            else:
                v = value(rest_f, rest_l, trump, mine_wins, memo)
            if mine_wins:
                v += 1
            # the follower answers: theirs minimises, mine maximises
            if reply < 0 or (v < reply if i_lead else v > reply):
                reply = v
        if best < 0 or (reply > best if i_lead else reply < best):
            best = reply
    memo[key] = best
    return best


def reach(mine, theirs, trump, i_lead, need, memo):
    """Whether `mine` can force `need` more tricks from here (a yes/no search, faster)."""
    if need <= 0:
        return True
    if len(mine) < need:
        return False
    key = (tuple(mine), tuple(theirs), i_lead, need)
    if key in memo:
        return memo[key]
    leader, follower = (mine, theirs) if i_lead else (theirs, mine)
    found = not i_lead  # mine leading: any card that works; theirs leading: every card must
    for x in leader:
        rest_l = [c for c in leader if c != x]
        ok = i_lead  # theirs answering: every reply must fail; mine answering: any reply works
        for y in legal_plays(follower, x, trump, ECARTE_STRENGTH):
            rest_f = [c for c in follower if c != y]
            mine_wins = beats(y, x, trump, ECARTE_STRENGTH) != i_lead
            left = need - 1 if mine_wins else need
            if i_lead:
                r = reach(rest_l, rest_f, trump, mine_wins, left, memo)
            else:
                r = reach(rest_f, rest_l, trump, mine_wins, left, memo)
            if r != ok:
                ok = r
                break
        if ok == i_lead:
            found = i_lead
            break
    memo[key] = found
    return found
