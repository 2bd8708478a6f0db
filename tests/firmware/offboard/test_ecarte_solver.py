# The exact écarté advisor: the double-dummy count behind `tapis odds ecarte` against an
# independent brute force written here, the figures of seed 002 (SPEC §7), the advice of
# `tapis eval ecarte`, the twins (names, signatures, same answers) and the bots' use of it.
import itertools
import json
from fractions import Fraction
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from tapis.cython_core import ecarte_solver as compiled  # a missing build must fail here
from tapis.firmware.offboard import ecarte_solver as pure
from tapis.firmware.offboard import ecarte_search
from tapis.firmware.cards import parse, parse_list
from tapis.host.odds.ecarte import count
from tapis.host.odds.split import ecarte_by_trumps
from tapis.cython_core import twins

ROOT = Path(__file__).resolve().parents[3]

# ---- the independent brute force: text cards, plain recursive minimax over every legal play ----
ORDER = "789TAJQK"  # king high, low to high (SPEC §4)
DECK = [r + s for s in "SHDC" for r in ORDER]


def bf_legal(hand, led, trump):
    """Follow suit and win if able; void: trump if able; else anything (seed 002 line 23)."""
    if led is None:
        return list(hand)
    same = [c for c in hand if c[1] == led[1]]
    if same:
        higher = [c for c in same if ORDER.index(c[0]) > ORDER.index(led[0])]
        return higher or same
    trumps = [c for c in hand if c[1] == trump]
    return trumps or list(hand)


def bf_follower_takes(lead, follow, trump):
    if follow[1] == lead[1]:
        return ORDER.index(follow[0]) > ORDER.index(lead[0])
    return follow[1] == trump


def bf_elder_tricks(elder, dealer, trump, elder_leads=True, memo=None):
    """Tricks elder takes, elder maximising and dealer minimising, every line tried. memo: a
    dict of the positions already solved (the same minimax, each position once: the
    dealer's 65,780 hands share most of their endings)."""
    if not elder:
        return 0
    key = (elder, dealer, elder_leads)
    if memo is not None and key in memo:
        return memo[key]
    leader, follower = (elder, dealer) if elder_leads else (dealer, elder)
    results = []
    for x in leader:
        replies = []
        for y in bf_legal(follower, x, trump):
            f = bf_follower_takes(x, y, trump)
            elder_won = (not f) if elder_leads else f
            rest_e = tuple(c for c in elder if c not in (x, y))
            rest_d = tuple(c for c in dealer if c not in (x, y))
            replies.append(int(elder_won) + bf_elder_tricks(rest_e, rest_d, trump, elder_won, memo))
        results.append(min(replies) if elder_leads else max(replies))
    got = max(results) if elder_leads else min(results)
    if memo is not None:
        memo[key] = got
    return got


def bf_dealer_hands(elder, turned):
    unseen = [c for c in DECK if c not in elder and c != turned]
    return list(itertools.combinations(unseen, 5))


def bf_count(elder, turned, dealers, memo=None):
    total = wins = voles = 0
    for d in dealers:
        t = bf_elder_tricks(tuple(elder), d, turned[1], True, memo)
        total += 1
        wins += t >= 3
        voles += t == 5
    return total, wins, voles


def codes(cards):
    return [parse(c) for c in cards]


def tapis(*argv, env=None):
    return subprocess.run([sys.executable, "-m", "tapis", *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env=env)


def odds_json(hand, turned):
    p = tapis("odds", "ecarte", "--hand", hand, "--turned", turned, "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


FOSTER = ("7H KS QS JS 7D", "8H")  # seed 002 lines 42-45: one trump, K Q J, a small card; hearts
HANDS = [FOSTER, ("KH QH 8S 9D TC", "7H"), ("7S 8S 9D TC AC", "JH"), ("KC QC JC AC 7H", "TC"),
         ("JD 9D KS 7C 8C", "AD"), ("KS 7S KD 7D KC", "QH")]


@pytest.mark.parametrize("hand,turned", HANDS)
def test_odds_match_an_independent_brute_force_on_a_sample_of_dealer_hands(hand, turned):
    elder = hand.split()
    dealers = random.Random(hand).sample(bf_dealer_hands(elder, turned), 60)
    expected = bf_count(elder, turned, dealers)
    assert count(codes(elder), parse(turned), [codes(d) for d in dealers]) == expected
    for d in dealers[:20]:  # and deal by deal, both twins
        want = bf_elder_tricks(tuple(elder), d, turned[1])
        for twin in (pure, compiled):
            assert twin.tricks(codes(elder), codes(d), parse(turned) >> 4, True) == want


@pytest.mark.slow
def test_odds_match_an_independent_brute_force_on_every_dealer_hand():
    """Every figure of `tapis odds ecarte --json` for Foster's hand against the brute force
    over all 65,780 dealer hands (and the split of those by trumps)."""
    hand, turned = FOSTER
    elder = hand.split()
    dealers = bf_dealer_hands(elder, turned)
    total, wins, voles = bf_count(elder, turned, dealers, {})
    trumps = [0] * 6
    for d in dealers:
        trumps[sum(c[1] == turned[1] for c in d)] += 1
    got = odds_json(hand.replace(" ", ","), turned)
    assert (got["total"], got["wins"], got["voles"]) == (total, wins, voles)
    assert wins == 44724  # Foster's count (seed 002 line 45)
    assert Fraction(got["fraction"]) == Fraction(wins, total) and got["probability"] == wins / total
    assert Fraction(got["vole_fraction"]) == Fraction(voles, total)
    assert got["dealer_trumps"] == trumps


def test_spec7_the_dealer_holds_65780_hands_and_fewer_than_two_trumps_as_seed_002_counts():
    # seed 002 line 39: 44,574 with one trump in elder's hand, 50,274 with two
    for hand, turned, fewer in (("7H KS QS JS 7D", "8H", 44574), ("7H 9H KS QS 7D", "8H", 50274)):
        dealers = bf_dealer_hands(hand.split(), turned)
        assert len(dealers) == 65780
        assert sum(1 for d in dealers if sum(c[1] == "H" for c in d) < 2) == fewer
        assert odds_json(hand, turned)["total"] == 65780
        by_trumps = tuple(sum(1 for d in dealers if sum(c[1] == "H" for c in d) == k) for k in range(6))
        for twin in (pure, compiled):
            split = twin.dealer_trumps(codes(hand.split()), parse(turned))
            assert split == by_trumps and split[0] + split[1] == fewer
        p = tapis("odds", "ecarte", "--hand", hand, "--turned", turned)
        assert "fewer than two in %d" % fewer in p.stdout


def test_fosters_jeu_de_regle_wins_44724_of_65780_with_any_turned_heart():
    # seed 002 lines 42-45: hearts trumps, the lowest trump (7H), K Q J of spades, a small
    # diamond. Double dummy gives Foster's 44,724 whichever other heart is turned.
    for turned in ("8H", "9H", "TH", "AH", "JH", "QH", "KH"):
        assert odds_json("7H,KS,QS,JS,7D", turned)["wins"] == 44724


def test_fosters_hand_cannot_lose_the_point_unless_the_dealer_holds_two_trumps():
    # seed 002 line 45: "if the dealer has not two trumps, nothing can stop the point"
    hand, turned = FOSTER
    elder = hand.split()
    short = [d for d in bf_dealer_hands(elder, turned) if sum(c[1] == "H" for c in d) < 2]
    assert len(short) == 44574
    # every one of them, solved once per set of alike hands (host/odds/split.py)
    split = ecarte_by_trumps(codes(elder), parse(turned))
    assert sum(k[1] for k in split[:2]) == sum(k[2] for k in split[:2]) == 44574
    # and one by one: all of them on the compiled twin, a spread of 1 in 40 on the pure one
    some = short if twins.CORE == "cython" else short[::40]
    total, wins, _ = count(codes(elder), parse(turned), [codes(d) for d in some])
    assert total == wins == len(some)
    sample = random.Random(3).sample(short, 30)
    assert bf_count(elder, turned, sample)[1] == 30


def test_odds_json_has_total_wins_voles_and_a_human_form():
    got = odds_json("KH,QH,8S,9D,TC", "7H")
    assert sorted(got) == ["dealer_trumps", "fraction", "hand", "probability", "schema", "total", "turned",
                           "vole_fraction", "vole_probability", "voles", "wins"]
    assert got["schema"] == "tapis.odds.ecarte/1" and got["hand"] == ["KH", "QH", "8S", "9D", "TC"]
    assert got["total"] == 65780 and 0 <= got["voles"] <= got["wins"] <= got["total"]
    assert Fraction(got["fraction"]) == Fraction(got["wins"], got["total"])
    assert got["probability"] == got["wins"] / got["total"]
    assert Fraction(got["vole_fraction"]) == Fraction(got["voles"], got["total"])
    assert sum(got["dealer_trumps"]) == got["total"]
    p = tapis("odds", "ecarte", "--hand", "KH QH 8S 9D TC", "--turned", "7H")
    assert p.returncode == 0 and str(got["wins"]) in p.stdout and str(got["voles"]) in p.stdout


@pytest.mark.parametrize("hand,turned", [FOSTER, ("KH 9S 8S 9D TC", "7H"), ("KH QH JH KS QS", "7H"),
                                         ("7S 8S 9D TC AC", "JH")])
def test_eval_stands_on_two_to_one_and_holding_the_trump_king_only_if_the_vole_is_probable(hand, turned):
    p = tapis("eval", "ecarte", "--hand", hand, "--turned", turned, "--json")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    odds = odds_json(hand, turned)
    # odds gives the probabilities eval gives, in the same words (the double dummy's own advice beside)
    assert {k: v for k, v in got["double_dummy"].items() if k not in ("advice", "reason")} == \
        {k: v for k, v in odds.items() if k not in ("schema", "hand", "turned")}
    assert got["double_dummy"]["probability"] == odds["wins"] / odds["total"]
    assert (got["hand"], got["turned"]) == (odds["hand"], odds["turned"])
    king = ("K" + turned[1]) in hand.split()
    stand = 3 * odds["wins"] >= 2 * odds["total"] and (not king or 2 * odds["voles"] >= odds["total"])
    # the double-dummy rule's advice sits under "double_dummy"; "advice" is the seed's verdict
    # (tests/firmware/offboard/test_ecarte_verdict.py)
    assert got["double_dummy"]["advice"] == ("stand" if stand else "propose") and got["double_dummy"]["reason"]
    if hand == FOSTER[0]:
        assert got["double_dummy"]["advice"] == got["advice"] == "stand"
    assert tapis("eval", "ecarte", "--hand", hand, "--turned", turned).stdout.strip()


def test_the_trump_king_exception_turns_a_two_to_one_hand_into_a_proposal():
    hand, turned = codes("KH KS QS 9D 7D".split()), parse("8H")
    stand, wins, voles, total, reason = compiled.advice(hand, turned, True)
    assert 3 * wins >= 2 * total and 2 * voles < total and not stand and "king" in reason


@pytest.mark.parametrize("argv,message", [
    (["--hand", "7H,KS,QS,JS,XX", "--turned", "8H"], "bad card code 'XX'"),
    (["--hand", "7H,KS,QS,JS,JS", "--turned", "8H"], "JS appears twice"),
    (["--hand", "7H,KS,QS,JS,8H", "--turned", "8H"], "8H is the turned card"),
    (["--hand", "7H,KS,QS,JS", "--turned", "8H"], "must hold 5 cards, got 4"),
    (["--hand", "7H,KS,QS,JS,7D,8D", "--turned", "8H"], "must hold 5 cards, got 6"),
    (["--hand", "7H,KS,QS,JS,2D", "--turned", "8H"], "2D is not in the écarté pack"),
    (["--hand", "7H,KS,QS,JS,7D", "--turned", "5H"], "5H is not in the écarté pack"),
])
@pytest.mark.parametrize("command", ["odds", "eval"])
def test_bad_input_exits_2_with_a_clear_message(command, argv, message):
    p = tapis(command, "ecarte", *argv, "--json")
    assert p.returncode == 2 and message in p.stderr and not p.stdout


def test_the_solver_refuses_a_bad_position_quoting_it():
    for twin in (pure, compiled):
        with pytest.raises(ValueError, match="appears twice"):
            twin.odds(codes(["7H", "7H", "KS", "QS", "JS"]), parse("8H"), True)
        with pytest.raises(ValueError, match="turned card 8H"):
            twin.odds(codes(["8H", "7H", "KS", "QS", "JS"]), parse("8H"), True)
        with pytest.raises(ValueError, match="not an écarté card"):
            twin.odds([0, 21, 22, 23, 24], parse("8H"), True)


positions = st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.permutations(DECK).map(lambda d: (d[:n], d[n:2 * n], d[2 * n])), st.booleans()))


@settings(max_examples=150, deadline=None)
@given(positions)
def test_twins_and_brute_force_agree_on_random_small_positions(position):
    (hand, other, turned), leads = position
    trump = parse(turned) >> 4
    want = bf_elder_tricks(tuple(hand), tuple(other), turned[1], leads)
    assert pure.tricks(codes(hand), codes(other), trump, leads) == want
    assert compiled.tricks(codes(hand), codes(other), trump, leads) == want


@settings(max_examples=120, deadline=None)
@given(positions)
def test_the_search_counts_and_forces_the_tricks_the_brute_force_counts(position):
    """ecarte_search.value (the count) and reach (can `need` tricks be forced?) agree with
    the brute force: reach(need) is value >= need, for every need."""
    (hand, other, turned), leads = position
    trump = parse(turned) >> 4
    want = bf_elder_tricks(tuple(hand), tuple(other), turned[1], leads)
    assert ecarte_search.value(codes(hand), codes(other), trump, leads, {}) == want
    for need in range(len(hand) + 2):
        assert ecarte_search.reach(codes(hand), codes(other), trump, leads, need, {}) == (want >= need)


def test_the_search_checks_a_position_quoting_what_is_wrong():
    assert ecarte_search.check(codes(["KS", "7H"]), parse("AD")) == codes(["KS", "7H"])
    for hand, turned, why in ((["6S"], "AD", "not an écarté card"), (["KS", "KS"], "AD", "twice"),
                              (["AD"], "AD", "cannot be in the hand"), ([], "AD", "1 to 5 cards"),
                              (["KS"], "2S", "turned card")):
        with pytest.raises(ValueError, match=why):
            ecarte_search.check(codes(hand), parse(turned))
    with pytest.raises(ValueError, match="as many cards"):
        ecarte_search.check_pair(codes(["KS"]), codes(["QS", "JS"]))
    with pytest.raises(ValueError, match="dealt twice"):
        ecarte_search.check_pair(codes(["KS"]), codes(["KS"]))


small_hands = st.integers(1, 3).flatmap(lambda n: st.tuples(
    st.permutations(DECK).map(lambda d: (d[:n], d[n])), st.booleans()))


@settings(max_examples=60, deadline=None)
@given(small_hands)
def test_twins_enumerate_the_same_odds_and_advice(position):
    (hand, turned), leads = position
    h, t = codes(hand), parse(turned)
    assert pure.odds(h, t, leads) == compiled.odds(h, t, leads)
    assert pure.advice(h, t, leads) == compiled.advice(h, t, leads)
    assert pure.stands(h, t, leads) == compiled.stands(h, t, leads) == pure.advice(h, t, leads)[0]
    others = list(itertools.islice(itertools.combinations(
        [c for c in codes(DECK) if c not in h and c != t], len(h)), 40))
    assert pure.odds_against(h, t, others, leads) == compiled.odds_against(h, t, others, leads)


@settings(max_examples=8, deadline=None)
@given(st.permutations(DECK), st.booleans())
def test_twins_agree_on_full_hands(deck, leads):
    h, t = codes(deck[:5]), parse(deck[5])
    assert compiled.odds(h, t, leads) == pure.odds(h, t, leads)
    assert compiled.stands(h, t, leads) == pure.stands(h, t, leads) == compiled.advice(h, t, leads)[0]


# ---- the bots use the advisor ----

def test_the_bots_stand_and_refuse_by_the_advisor():
    from tapis.firmware.games import panel as B
    from tapis.simulator.kits.ecarte.bots import EcarteBot, ecarte_stands

    rng = random.Random(11)
    for _ in range(40):
        deck = codes(DECK)
        rng.shuffle(deck)
        hand, turned = deck[:5], deck[5]
        assert ecarte_stands(hand, turned) == compiled.advice(hand, turned, True)[0]
        assert ecarte_stands(hand, turned, leads=False) == compiled.advice(hand, turned, False)[0]
    for hand, turned in (FOSTER, ("7S 8S 9D TC AC", "JH")):
        h, t = parse_list(hand), parse(turned)
        view = {"king": False, "turn": True, "phase": "propose", "hand": h, "led": None, "stock": 21,
                "tricks": [0, 0], "trump": t}
        want = B.STAND if compiled.advice(h, t, True)[0] else B.PROPOSE
        assert EcarteBot().presses(view) == [(want, 0)]


@pytest.mark.parametrize("hand,other,trump,message", [
    (["7H", "8H"], ["9H"], 1, "as many cards"), (["7H", "8H"], ["7H", "9H"], 1, "7H is dealt twice"),
    (["7H"], ["2H"], 1, "not an écarté card"), (["7H"], ["8H"], 4, "trump is a suit")])
def test_both_twins_refuse_a_bad_deal_alike(hand, other, trump, message):
    for twin in (pure, compiled):
        with pytest.raises(ValueError, match=message):
            twin.tricks(codes(hand), codes(other), trump, True)


def test_eval_dealer_refuses_on_two_to_one_against_every_elder_hand():
    for hand in ("KS KH QH JS QS", "KS 8H QD JS 9S"):
        p = tapis("eval", "ecarte", "--hand", hand, "--turned", "7H", "--dealer", "--json")
        assert p.returncode == 0, p.stderr
        got = json.loads(p.stdout)
        stand, wins, voles, total, _ = pure.advice(codes(hand.split()), parse("7H"), False)
        dd = got["double_dummy"]
        assert (got["advice"], dd["wins"], dd["voles"], dd["total"]) == (
            "refuse" if stand else "accept", wins, voles, total)
        assert got["advice"] == ("refuse" if 3 * wins >= 2 * total else "accept")
