# Écarté's play and score (firmware/games/ecarte/play.py, SPEC §4 "King", "Play", "Scoring"):
# when the trump king may be announced, the play's legality, the game's value and rubbers.
import pytest

from tapis.firmware.cards import parse
from tapis.firmware.games.ecarte import play
from tapis.firmware.games.ecarte import rules as R
from helpers import dealt


def test_the_rules_play_through_this_mixin():
    assert issubclass(R.Ecarte, play.Playing)
    assert R.Ecarte.score is play.Playing.score


def test_the_king_of_trumps_is_announced_in_the_play_before_its_first_card():
    g = dealt("7S 8S 9D KH 8C", "QH JH AH KS 7C", "7H")  # elder (seat 1) holds KH, trumps hearts
    assert g.holds_king(1) and not g.holds_king(0)
    assert not g.king_open(1)  # still in the exchange
    with pytest.raises(R.IllegalAction, match="once the exchange is over"):
        g.verify(("king", 1, None))
    g.apply(("stand", 1, None))
    assert g.king_open(1) and not g.king_open(0)
    g.apply(("king", 1, None))
    assert g.scores == [0, 1] and not g.king_open(1)
    with pytest.raises(R.IllegalAction, match="already announced"):
        g.verify(("king", 1, None))


def test_a_player_must_follow_suit_and_win_or_else_trump():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    g.apply(("stand", 1, None))
    g.apply(("play", 1, parse("7S")))
    with pytest.raises(R.IllegalAction, match="must follow suit and win"):
        g.verify(("play", 0, parse("7C")))
    assert g.legal_cards(0) == [parse("KS")]
    g.apply(("play", 0, parse("KS")))
    assert ("trick", 0, 1) in g.log and g.to_act == 0 and g.tricks == [1, 0]


def test_five_points_win_the_game_treble_when_the_loser_has_none_double_with_two():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    g.scores = [4, 0]
    assert g.score(0, 1, "test") is True
    events = [e for e in g.log + g._out if e[0] in ("game", "score")]
    assert ("game", 0, 3) in events
    assert g.scores == [0, 0] and g.games == [1, 0] and g.game_no == 2
    g._out = []
    g.scores = [2, 4]
    assert g.score(0, 1, "test") is False and g.scores == [3, 4]
    assert g.score(1, 1, "test") is True and ("game", 1, 1) in g._out
    g._out = []
    g.scores = [2, 4]
    g.score(1, 2, "test")
    assert ("game", 1, 2) in g._out


def test_the_rubber_goes_to_the_seat_that_wins_most_of_its_games():
    g = R.Ecarte(R.Options(rubber=3), first_dealer=0)
    g._out = []
    for _ in range(2):
        g.scores = [0, 4]
        g.score(1, 1, "test")
    assert g.rubbers == [0, 1] and g.games == [0, 0]
    assert ("rubber", 1, (0, 2)) in g._out


def test_a_bet_is_a_side_and_an_amount():
    g = R.Ecarte(R.Options(gallery=1), first_dealer=0)
    with pytest.raises(R.IllegalAction, match=r"a bet is \(side, amount\)"):
        g.verify(("bet", 2, 5))
