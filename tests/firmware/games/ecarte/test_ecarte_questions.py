# Écarté's variants inside a hand (firmware/games/ecarte/questions.py, SPEC §4, seeds 000-001):
# doubling, offering the point and the quick game's showdown.
import pytest

from tapis.firmware.cards import parse
from tapis.firmware.games.ecarte import questions
from tapis.firmware.games.ecarte import rules as R
from helpers import dealt, shoe


def test_the_rules_ask_through_this_mixin():
    assert issubclass(R.Ecarte, questions.Questions)


def test_doubling_is_refused_unless_the_table_plays_it():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    with pytest.raises(R.IllegalAction, match="'doubling' variant"):
        g.verify(("double", 1, None))
    with pytest.raises(R.IllegalAction, match="'offer-point' variant"):
        g.verify(("offer", 1, None))


def test_a_double_accepted_doubles_the_hand_and_refused_ends_it_for_the_asker():
    opts = R.Options(doubling=True)
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H", options=opts)
    g.apply(("double", 1, None))
    assert g.phase == R.ANSWER and g.to_act == 0
    g.apply(("accept", 0, None))
    with pytest.raises(R.IllegalAction, match="already proposed"):
        g.verify(("double", 0, None))
    assert g.multiplier == 2 and g.phase == R.PROPOSE and g.to_act == 1  # back where it was
    assert g.hand_points([0, 5]) == (1, 4, "vole")  # a vole (2) doubled
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H", options=opts)
    g.apply(("double", 1, None))
    g.apply(("refuse", 0, None))
    assert g.scores == [0, 1] and ("score", 1, (1, "double refused")) in g.log


def test_no_double_once_the_third_trick_has_begun():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H", options=R.Options(doubling=True))
    g.apply(("stand", 1, None))
    g.tricks = [1, 1]
    g.led = parse("8C")
    with pytest.raises(R.IllegalAction, match="before the third trick"):
        g.verify(("double", 0, None))


def test_the_point_offered_and_refused_makes_the_refuser_play_for_the_vole():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H", options=R.Options(offer_point=True))
    g.apply(("offer", 1, None))
    g.apply(("refuse", 0, None))
    assert g.must_vole == 0
    assert g.hand_points([4, 1]) == (1, 2, "vole missed")  # four tricks are not the vole
    assert g.hand_points([5, 0]) == (0, 2, "vole")


def test_the_point_offered_and_accepted_scores_it_for_the_acceptor():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H", options=R.Options(offer_point=True))
    g.apply(("offer", 1, None))
    g.apply(("accept", 0, None))
    assert ("score", 0, (1, "point offered")) in g.log and g.scores == [1, 0]


def test_the_quick_game_shows_down_on_the_higher_trump():
    g = R.Ecarte(R.Options(quick=True), first_dealer=0)
    # four each in packets of two, the 9th turned: hearts; seat 0 (dealer) holds the jack
    shoe(g, "7S 8S JH 9S 7H 8C 9D TD QH")  # elder 7S 8S, dealer JH 9S, elder 7H 8C, ...
    shown = [e for e in g.log if e[0] == "showdown"]
    assert shown and shown[0][1] == 0 and shown[0][2][0] == "higher trump"
    assert g.scores == [1, 0]
