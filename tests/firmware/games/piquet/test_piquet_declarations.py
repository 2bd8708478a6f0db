# Piquet declarations (SPEC §4, seed 003): golden hands for every rule and its ties,
# repique and pique, the carte blanche count of SPEC §7, and the compiled twin against
# the pure one (names, signatures, random hands, the batch API).
import math
from array import array
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from tapis.cython_core import declarations as compiled  # a missing build must fail here
from tapis.firmware.games.piquet import declarations as pure
from tapis.firmware.offboard import deck
from tapis.firmware.cards import parse_list
from tapis.firmware.games.piquet import rules as R
from helpers import piquet_dealt as dealt

TWINS = [pure, compiled]
FIELDS = pure.FIELDS
SEED_EXAMPLE = ("AS AH AD AC 8H 7H 8S 7S 9D 8D 9C 8C",  # elder: quatorze of aces
                "KH QH JH TH 9H KS QS JS TS 9S 7D 7C")  # younger: point of 5, two quints


def H(text):
    cards = parse_list(text)
    assert len(cards) == len(set(cards))
    return cards


def answer(twin, elder, younger):
    e, y = H(elder), H(younger)
    assert len(e) == len(y) == 12 and not set(e) & set(y)
    return dict(zip(FIELDS, twin.declare(e, y)))


# ---- point -------------------------------------------------------------------------------
@pytest.mark.parametrize("twin", TWINS)
def test_point_more_cards_win_and_score_their_number(twin):
    r = answer(twin, "AH KH QH JH 7H 8H 8S 9S TS 7D 8D TD",  # six hearts
               "AS KS QS JS 7S 9D JD QD 8C 9C JC QC")  # five spades
    assert (r["point_winner"], r["point_score"]) == (pure.ELDER, 6)


@pytest.mark.parametrize("twin", TWINS)
def test_point_equal_length_goes_to_the_higher_pip_total(twin):
    # hearts A K Q J 7 = 11+10+10+10+7 = 48 against spades A K Q J 8 = 49
    r = answer(twin, "AH KH QH JH 7H 7S 9S TS 7D 8D TD 7C",
               "AS KS QS JS 8S 9D JD QD 8C 9C JC QC")
    assert twin.point_key(H("AH KH QH JH 7H")) == 5 << 8 | 48
    assert (r["point_winner"], r["point_score"]) == (pure.YOUNGER, 5)


@pytest.mark.parametrize("twin", TWINS)
def test_point_equal_totals_score_nothing(twin):
    r = answer(twin, "AH KH QH JH 7H 8S 9S TS 7D 8D TD 7C",
               "AS KS QS JS 7S 9D JD QD 8C 9C JC QC")
    assert (r["point_winner"], r["point_score"]) == (pure.NOBODY, 0)


@pytest.mark.parametrize("twin", TWINS)
def test_pip_values(twin):
    assert [twin.pips(r) for r in range(4, 13)] == [6, 7, 8, 9, 10, 10, 10, 10, 11]


# ---- sequences -----------------------------------------------------------------------------
@pytest.mark.parametrize("twin", TWINS)
def test_sequence_values_are_the_traditional_ones(twin):
    assert [twin.sequence_value(n) for n in range(1, 9)] == [0, 0, 3, 4, 15, 16, 17, 18]
    assert twin.sequence_score(H("AH KH QH JH TH 9H 8H 7H AS AD AC 7S")) == 18  # huitième


@pytest.mark.parametrize("twin", TWINS)
def test_a_longer_sequence_beats_a_higher_one(twin):
    # elder: quart 7-8-9-T of hearts; younger: tierce to the ace of spades
    r = answer(twin, "7H 8H 9H TH 7S 8S JS 7D 9D JD 7C 9C",
               "AS KS QS 9S AH QH AD KD QD 8C TC QC")
    assert twin.sequence_key(H("7H 8H 9H TH")) == 4 << 4 | 8
    assert (r["sequence_winner"], r["sequence_score"]) == (pure.ELDER, 4)


@pytest.mark.parametrize("twin", TWINS)
def test_equal_length_goes_to_the_higher_top_and_the_winner_scores_all_his_sequences(twin):
    # elder: tierce to the king (hearts); younger: tierce to the ace (spades) and tierce
    # to the ten (diamonds): younger scores both, 6
    r = answer(twin, "KH QH JH 8H 7H AC JC 9C 7C 7S 9S 7D",
               "AS KS QS 8S QD TD 9D 8D 8C KC TC 9H")
    assert (r["sequence_winner"], r["sequence_score"]) == (pure.YOUNGER, 6)


@pytest.mark.parametrize("twin", TWINS)
def test_equal_best_sequences_score_nothing_not_even_the_others(twin):
    # both have a tierce to the king; elder also has a tierce to the nine: nobody scores
    r = answer(twin, "KH QH JH 9C 8C 7C AS 9S 7S AD 9D 7D",
               "KS QS JS AH 9H 7H AC JC TC KD JD 8D")
    assert (r["sequence_winner"], r["sequence_score"]) == (pure.NOBODY, 0)


@pytest.mark.parametrize("twin", TWINS)
def test_quints_and_more_carry_the_ten(twin):
    assert twin.sequence_score(H("AS KS QS JS TS AH KH QH JH TH 9H 7C")) == 15 + 16


# ---- sets ------------------------------------------------------------------------------
@pytest.mark.parametrize("twin", TWINS)
def test_a_quatorze_beats_any_trio(twin):
    # younger's four tens beat elder's three aces
    r = answer(twin, "AS AH AD KS QH JD 9C 8C 7C 9S 8S 7H",
               "TS TH TD TC KH QS JS 9H 8H 9D 8D 7D")
    assert (r["sets_winner"], r["sets_score"]) == (pure.YOUNGER, 14)


@pytest.mark.parametrize("twin", TWINS)
def test_trios_rank_by_their_rank_and_the_winner_scores_all_sets(twin):
    # elder: three aces and three tens (3 + 3); younger: three kings
    r = answer(twin, "AS AH AD TS TH TD 9C 8C 7C 9S 8S 7H",
               "KS KH KD QS JS 9H 8H QD JD 7D QC JC")
    assert (r["sets_winner"], r["sets_score"]) == (pure.ELDER, 6)


@pytest.mark.parametrize("twin", TWINS)
def test_nines_and_lower_make_no_set(twin):
    hand = H("9S 9H 9D 9C 8S 8H 8D 8C 7S 7H 7D AS")
    assert twin.sets(hand) == [] and twin.set_key(hand) == 0 and twin.set_score(hand) == 0
    assert twin.sets(H("AS AH AD AC KS KH KD 7C 8C 9C TC 9S")) == [(4, 12), (3, 11)]
    assert twin.set_score(H("AS AH AD AC KS KH KD 7C 8C 9C TC 9S")) == 17


# ---- repique ------------------------------------------------------------------------------
@pytest.mark.parametrize("twin", TWINS)
def test_seed_003_younger_repique_beats_elders_quatorze(twin):
    """seed 003:107-109: the quatorze is scored after younger has made 30 in point and
    sequences, so younger's repique stands (5 + 15 + 15 = 35 here)."""
    r = answer(twin, *SEED_EXAMPLE)
    assert (r["point_winner"], r["point_score"]) == (pure.YOUNGER, 5)
    assert (r["sequence_winner"], r["sequence_score"]) == (pure.YOUNGER, 30)
    assert (r["sets_winner"], r["sets_score"]) == (pure.ELDER, 14)
    assert r["repique"] == pure.YOUNGER
    assert (r["elder"], r["younger"]) == (14, 5 + 30 + 60)


@pytest.mark.parametrize("twin", TWINS)
def test_an_equality_does_not_break_a_repique(twin):
    # point 4 cards of 36 each (A K 8 7 clubs against Q J 9 7 diamonds): nobody;
    # elder's tierce to the ace 3 + quatorzes of aces and kings 28 = 31: repique
    r = answer(twin, "AS KS QS AH KH 7H AD KD AC KC 8C 7C",
               "QD JD 9D 7D JS 9S 8S QH JH 9H QC JC")
    assert (r["point_winner"], r["point_score"]) == (pure.NOBODY, 0)
    assert (r["sequence_winner"], r["sequence_score"]) == (pure.ELDER, 3)
    assert (r["sets_winner"], r["sets_score"]) == (pure.ELDER, 28)
    assert r["repique"] == pure.ELDER and (r["elder"], r["younger"]) == (91, 0)


@pytest.mark.parametrize("twin", TWINS)
def test_no_repique_once_the_opponent_has_scored(twin):
    # as above, but younger's point (Q J 9 8 of diamonds, 37) is good: 4 for younger first
    r = answer(twin, "AS KS QS AH KH 7H AD KD AC KC 8C 7C",
               "QD JD 9D 8D JS 9S 8S QH JH 9H QC JC")
    assert (r["point_winner"], r["point_score"]) == (pure.YOUNGER, 4)
    assert r["repique"] == pure.NOBODY and (r["elder"], r["younger"]) == (31, 4)
    assert twin.repique([(1, 4), (0, 31)]) == pure.NOBODY
    assert twin.repique([(1, 0), (0, 29), (0, 1)]) == pure.ELDER
    assert twin.repique([(0, 29), (1, 3), (0, 14)]) == pure.NOBODY
    assert twin.repique([(-1, 40), (0, 30)]) == pure.ELDER  # nobody's award is no award


# ---- pique (the rules engine: declarations and play) -----------------------------------

def test_pique_elder_reaches_30_in_declarations_and_play_before_younger_scores():
    # after the exchange elder holds point 5 + quint to the ace 15 + tierce 3 + three
    # kings 3 = 26; younger holds nothing that scores. Four leads make 30: pique.
    g = dealt("AH KH QH JH TH KS JS KD 7D 9C 8C 7C",
              "AS QS TS 9S 9H 7H AD QD TD 8D KC JC",
              "7S 8S 8H JD 9D AC QC TC")
    g.apply(("exchange", 0, (H("JS")[0],)))
    g.apply(("look", 0, False))
    g.apply(("exchange", 1, (H("9S")[0],)))
    g.apply(("look", 1, False))
    while g.phase == R.DECLARE:  # everything, others included (003:80, 003:84)
        g.apply(("declare", g.to_act, R.CATEGORIES[g.cat]))
    assert g.phase == R.PLAY and g.points == [26, 0] and g.repique == -1
    events = []
    for lead, follow in (("AH", "7H"), ("KH", "9H"), ("QH", "8S"), ("JH", "TS")):
        events += g.apply(("play", 0, H(lead)[0]))
        if g.pique < 0:
            events += g.apply(("play", 1, H(follow)[0]))
    assert ("score", 0, (30, "pique")) in events
    assert g.pique == 0 and g.points == [30 + 30, 0]


def test_younger_can_never_pique():
    g = dealt("AH KH QH JH TH KS JS KD 7D 9C 8C 7C",
              "AS QS TS 9S 9H 7H AD QD TD 8D KC JC",
              "7S 8S 8H JD 9D AC QC TC")
    assert g.elder == 0
    g.points = [0, 29]  # even with 29, younger leading a card never scores a pique
    g.leader = 1
    g._play_score(1, 1, "lead")
    assert g.pique == -1


# ---- SPEC §7: carte blanche once in about 1,792 deals, exactly -----------------------------
def test_carte_blanche_probability_is_c20_12_over_c32_12_by_counting():
    """Count the 12-card hands of the 32-card pack that the evaluator calls carte
    blanche: per suit, every subset of its 8 cards, then a convolution over the suits."""
    for twin in TWINS:
        suit_counts = []
        for s in range(4):
            cards = [c for c in deck.deck32() if c >> 4 == s]
            by_size = {}
            for m in range(256):
                sub = [cards[i] for i in range(8) if m >> i & 1]
                if twin.is_carte_blanche(sub):
                    by_size[len(sub)] = by_size.get(len(sub), 0) + 1
            suit_counts.append(by_size)
        ways = {0: 1}
        for by_size in suit_counts:
            nxt = {}
            for n, w in ways.items():
                for k, v in by_size.items():
                    if n + k <= 12:
                        nxt[n + k] = nxt.get(n + k, 0) + w * v
            ways = nxt
        p = Fraction(ways[12], math.comb(32, 12))
        assert ways[12] == math.comb(20, 12) == 125970
        assert p == Fraction(math.comb(20, 12), math.comb(32, 12))
        assert round(1 / p) == 1792


def hand_pairs(pack):
    return st.permutations(pack).map(lambda p: (sorted(p[:12]), sorted(p[12:24])))


@settings(max_examples=300, deadline=None)
@given(hand_pairs(deck.deck32()))
def test_twins_agree_on_random_hands(pair):
    e, y = pair
    assert pure.declare(e, y) == compiled.declare(e, y)
    assert pure.declare_masks(pure.hand_mask(e), pure.hand_mask(y)) == pure.declare(e, y)
    for f in ("point_key", "point_suit", "sequences", "sets", "sequence_key", "sequence_score",
              "set_key", "set_score", "is_carte_blanche", "suit_masks", "hand_mask"):
        assert getattr(pure, f)(e) == getattr(compiled, f)(e), f


@settings(max_examples=100, deadline=None)
@given(hand_pairs(deck.deck36()))
def test_twins_agree_with_the_sixes(pair):
    e, y = pair
    assert pure.declare(e, y) == compiled.declare(e, y)
    assert pure.mask_cards(pure.hand_mask(e)) == compiled.mask_cards(compiled.hand_mask(e)) == e


@settings(max_examples=30, deadline=None)
@given(st.lists(hand_pairs(deck.deck32()), min_size=1, max_size=20))
def test_the_batch_api_answers_pair_by_pair(pairs):
    es = array("Q", [pure.hand_mask(e) for e, _ in pairs])
    ys = array("Q", [pure.hand_mask(y) for _, y in pairs])
    outs = []
    for twin in TWINS:
        out = array("i", [0]) * (9 * len(pairs))
        assert twin.declare_batch(es, ys, out) == len(pairs)
        outs.append(list(out))
    assert outs[0] == outs[1]
    for i, (e, y) in enumerate(pairs):
        assert tuple(outs[0][9 * i:9 * i + 9]) == pure.declare(e, y)


@pytest.mark.parametrize("twin", TWINS)
def test_the_batch_api_refuses_mismatched_arrays(twin):
    with pytest.raises(ValueError, match="declare_batch"):
        twin.declare_batch(array("Q", [1, 2]), array("Q", [3]), array("i", [0] * 18))


@settings(max_examples=200, deadline=None)
@given(hand_pairs(deck.deck32()))
def test_declare_follows_the_rules_written_out_independently(pair):
    """A second, naive reading of SPEC §4 against the evaluator."""
    e, y = pair

    def best_point(h):
        val = {5: 7, 6: 8, 7: 9, 8: 10, 9: 10, 10: 10, 11: 10, 12: 11}
        return max((sum(1 for c in h if c >> 4 == s), sum(val[c & 15] for c in h if c >> 4 == s))
                   for s in range(4))

    def runs(h):
        out = []
        for s in range(4):
            ranks = sorted(c & 15 for c in h if c >> 4 == s)
            start = 0
            for i in range(1, len(ranks) + 1):
                if i == len(ranks) or ranks[i] != ranks[i - 1] + 1:
                    if i - start >= 3:
                        out.append((i - start, ranks[i - 1]))
                    start = i
        return out

    def sets_of(h):
        return [(n, r) for r in range(8, 13) for n in [sum(1 for c in h if c & 15 == r)] if n >= 3]

    naive = []
    for key, score in ((best_point, lambda h: best_point(h)[0]),
                       (lambda h: max(runs(h), default=(0, 0)),
                        lambda h: sum(n if n < 5 else n + 10 for n, _ in runs(h))),
                       (lambda h: max(sets_of(h), default=(0, 0)),
                        lambda h: sum(3 if n == 3 else 14 for n, _ in sets_of(h)))):
        a, b = key(e), key(y)
        w = 0 if a > b else 1 if b > a else -1
        naive.append((w, score((e, y)[w]) if w >= 0 else 0))
    got = pure.declare(e, y)
    assert [(got[0], got[1]), (got[2], got[3]), (got[4], got[5])] == naive
    tot = [0, 0]
    rq = -1
    for w, s in naive:
        if w >= 0:
            tot[w] += s
            if rq < 0 and tot[w] >= 30 and tot[1 - w] == 0:
                rq = w
    if rq >= 0:
        tot[rq] += 60
    assert got[6:] == (rq, tot[0], tot[1])


def test_seed_003_repique_example_played_on_the_engine():
    """The same hands reached through a real deal and exchange: the engine scores in the
    order point, sequence, sets, so younger's repique comes before elder's quatorze."""
    g = dealt("AS AH AD AC 8H 7H 8S 7S 9D 8D 9C KD",  # elder throws KD, draws 8C
              "KH QH JH TH 9H KS QS JS TS 9S 7D KC",  # younger throws KC, draws 7C
              "8C 7C QD JD TD QC JC TC")
    g.apply(("exchange", 0, (H("KD")[0],)))
    g.apply(("look", 0, False))
    g.apply(("exchange", 1, (H("KC")[0],)))
    g.apply(("look", 1, False))
    assert sorted(g.hands[0]) == sorted(H(SEED_EXAMPLE[0]))
    events = []
    while g.phase == R.DECLARE:
        events += g.apply(("declare", g.to_act, R.CATEGORIES[g.cat]))
    assert [e for e in events if e[0] == "score"] == [
        ("score", 1, (5, "point")), ("score", 1, (30, "sequence")), ("score", 1, (60, "repique")),
        ("score", 0, (14, "sets"))]
    assert ("verdict", 1, ("point", "not good")) in events
    assert ("verdict", 0, ("sets", "good")) in events
    events = g.apply(("play", 0, H("AS")[0]))
    assert ("score", 0, (1, "lead")) in events and g.points == [15, 95] and g.pique == -1
