# The seed-002 verdict on elder's écarté hand (pure twin of cython_core/ecarte_verdict.pyx:
# same names, same answers). docs/rules.md ("the seed's verdict") says why each step is so.
#
# 002:39: a jeu de règle is a hand "sure of three tricks if the dealer has not two trumps".
# Sure means one way of playing, decided only on what elder sees (his cards, the turned card,
# the cards played so far), that takes three tricks against every dealer hand holding fewer
# than two trumps and every legal dealer play. That is an and-or search over information
# sets: a node holds elder's cards and the set of dealer hands still consistent with the play.
# Elder's card is one choice for the whole set; each dealer reply splits the set, and elder,
# seeing the reply, chooses again for each part. Double dummy would let him choose per hand.
#
# The dealer's hands are counted by gaps, as firmware/ecarte_solver.py counts them: in each
# suit the unseen cards fall into runs that no card of elder's separates; cards of one run
# compare alike with every card elder holds, so a dealer hand is a count per run, and a dealer
# card is "a card of run g". Seeing which card of the run was played tells elder nothing more:
# the set of hands is closed under swapping cards within a run (tests check this against a
# brute force over the cards themselves).
from ..cards import KING, rank, suit
from .ecarte_search import check
from ..evaluate import ECARTE_STRENGTH

TRICKS = 5  # cards in an écarté hand
POINT = 3  # tricks for the point (002:28)
_BITS = 3  # bits per run count in a packed dealer hand (a count is 0..5)


def _code(c):
    """A card as suit * 8 + order (order 0..7 = 7 8 9 T A J Q K): higher in a suit is larger."""
    return suit(c) * 8 + ECARTE_STRENGTH[rank(c)] - 1


def _runs(hand, turned):
    """[(code of a card of the run, size)] for the unseen runs, suit by suit, low to high."""
    mine = [_code(c) for c in hand]
    out = []
    for s in range(4):
        size = top = 0
        for o in range(8):
            b = s * 8 + o
            if b == _code(turned):
                continue
            if b in mine:
                if size:
                    out.append((top, size))
                size = 0
            else:
                size += 1
                top = b
        if size:
            out.append((top, size))
    return out


def _dealers(runs, trump, n):
    """Every dealer hand of n cards holding fewer than two trumps, packed: run g's count in
    bits 3g..3g+2. Sorted, so that a set of them is a canonical tuple."""
    out = []

    def walk(g, left, trumps, packed):
        if left == 0:
            out.append(packed)
            return
        if g == len(runs):
            return
        code, size = runs[g]
        for k in range(min(left, size) + 1):
            t = trumps + (k if code >> 3 == trump else 0)
            if t < 2:
                walk(g + 1, left - k, t, packed | k << (_BITS * g))

    walk(0, n, 0, 0)
    out.sort()
    return tuple(out)


def _count(packed, g):
    return packed >> (_BITS * g) & 7


def _wins(later, first, trump):
    """Whether the card played second (`later`, a code) takes the trick from `first`."""
    if later >> 3 == first >> 3:
        return later > first
    return later >> 3 == trump


def _answers(cards, led, trump):
    """The legal answers among `cards` (codes) to `led`: follow and win if able; if void,
    trump if able; else any card (seed 002 line 23)."""
    same = [c for c in cards if c >> 3 == led >> 3]
    if same:
        return [c for c in same if c > led] or same
    return [c for c in cards if c >> 3 == trump] or list(cards)


def _sure(mine, dealers, i_lead, need, runs, trump, memo):
    """Whether elder, holding `mine` (codes), can force `need` more tricks against every
    packed dealer hand in `dealers` with one way of playing."""
    if need <= 0:
        return True
    if len(mine) < need:
        return False
    if not dealers:
        return True
    key = (mine, dealers, i_lead, need)
    got = memo.get(key)
    if got is not None:
        return got
    got = False
    if i_lead:
        for x in mine:  # one card for the whole set
            rest = tuple(c for c in mine if c != x)
            parts = {}
            for h in dealers:  # the dealer's legal replies split the set
                held = [runs[g][0] for g in range(len(runs)) if _count(h, g)]
                for y in _answers(held, x, trump):
                    g = _run_of(runs, y)
                    parts.setdefault(g, []).append(h - (1 << (_BITS * g)))
            got = True
            for g in parts:
                won = not _wins(runs[g][0], x, trump)
                if not _sure(rest, tuple(parts[g]), won, need - won, runs, trump, memo):
                    got = False
                    break
            if got:
                break
    else:
        got = True
        for g in range(len(runs)):  # the dealer leads a card of run g, from any hand holding one
            part = tuple(h - (1 << (_BITS * g)) for h in dealers if _count(h, g))
            if not part:
                continue
            y = runs[g][0]
            ok = False
            for x in _answers(mine, y, trump):  # elder answers, having seen it
                won = _wins(x, y, trump)
                if _sure(tuple(c for c in mine if c != x), part, won, need - won, runs, trump, memo):
                    ok = True
                    break
            if not ok:
                got = False
                break
    memo[key] = got
    return got


def _run_of(runs, code):
    for g in range(len(runs)):
        if runs[g][0] == code:
            return g
    raise ValueError("no run holds card code %r" % (code,))


def sure(hand, turned, need):
    """Whether elder, holding `hand` and leading without proposing, has one way of playing,
    decided on what he sees, that takes `need` tricks against every dealer hand (of as many
    cards) holding fewer than two trumps and every legal dealer play (seed 002 line 39)."""
    hand = check(hand, turned)
    trump = suit(turned)
    runs = _runs(hand, turned)
    dealers = _dealers(runs, trump, len(hand))
    mine = tuple(sorted(_code(c) for c in hand))
    return _sure(mine, dealers, True, need, runs, trump, {})


def lowest_trumps(hand, turned):
    """`hand` with its trumps, the king apart, made the lowest of the suit (the turned card
    excepted): Foster's examples are written so, and higher trumps do not make up for weak
    plain suits (seed 002 line 46). The king stays: it is led first and always wins."""
    hand = check(hand, turned)
    trump = suit(turned)
    low = [r for r in (5, 6, 7, 8, 12, 9, 10) if trump << 4 | r != turned]  # 7 8 9 T A J Q
    out = [c for c in hand if suit(c) != trump or rank(c) == KING]
    for c in hand:
        if suit(c) == trump and rank(c) != KING:
            out.append(trump << 4 | low.pop(0))
    return out


def verdict(hand, turned):
    """(jeu_de_regle, stand, sure_point, plain_suits, sure_vole, reason): seed 002's verdict on
    elder's hand. `sure_point`: sure() of the point (002:39). `plain_suits`: sure of it with the
    lowest trumps too, or three trumps held (002:46); asked only when sure of the point. A jeu
    de règle is both. `sure_vole`: sure() of every trick, asked only of a jeu de règle holding
    the trump king (002:39-40). A question not asked is None. Elder stands on a jeu de règle,
    unless he holds the king and the vole is not sure."""
    hand = check(hand, turned)
    trump = suit(turned)
    n = len(hand)
    point = n // 2 + 1
    trumps = sum(1 for c in hand if suit(c) == trump)
    king = any(suit(c) == trump and rank(c) == KING for c in hand)
    sure_point = sure(hand, turned, point)
    plain = vole = None
    if not sure_point:
        why = "not sure of the point when the dealer has fewer than two trumps (002:39)"
    else:
        plain = trumps >= 3 or sure(lowest_trumps(hand, turned), turned, point)
        if not plain:
            why = "sure of the point only by higher trumps; with the lowest the plain suits are too weak (002:46)"
        elif not king:
            why = "a jeu de règle: sure of the point when the dealer has fewer than two trumps (002:39)"
        else:
            vole = sure(hand, turned, n)
            why = "a jeu de règle with the trump king, and %s (002:39-40)" % (
                "sure of the vole too" if vole else "the vole is not sure")
    jeu = sure_point and plain is True
    return jeu, jeu and (not king or vole is True), sure_point, plain, vole, why
