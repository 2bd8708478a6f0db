# Piquet's play and score (firmware/games/piquet/play.py, SPEC §4 "Play", "Rubicon scoring"):
# following suit, the lead and trick points, the cards, and the partie's Rubicon value.
import pytest

from tapis.firmware.cards import parse, parse_list
from tapis.firmware.games.piquet import play
from tapis.firmware.games.piquet import rules as R
from tapis.firmware.games.rules import IllegalAction
from helpers import piquet_dealt


def declared():
    """Elder (seat 0) holds AS..7S, TD 9D 8D, TC; younger 7H, AD KD QD JD, AC KC QC JC 9C
    8C 7C; every declaration made (elder's repique: 92 to 0)."""
    g = piquet_dealt("AS KS QS JS TS 9S 8S 7D AH KH QH JH", "TH 9H 8H 7H AD KD QD JD AC KC QC JC",
                     "7S TD 9D 8D TC 9C 8C 7C")
    g.apply(("exchange", 0, parse_list("7D AH KH QH JH")))
    g.apply(("exchange", 1, parse_list("TH 9H 8H")))
    while g.phase == R.DECLARE:
        g.apply(("declare", g.to_act, R.CATEGORIES[g.cat]))
    assert g.phase == R.PLAY and g.points == [92, 0]
    return g


def test_the_partie_is_worth_the_difference_plus_100_or_the_sum_plus_100_below_the_rubicon():
    assert play.rubicon(105, 101) == 104  # seed 003
    assert play.rubicon(97, 89) == 286
    assert play.rubicon(150, 100) == 150


def test_the_lead_scores_one_and_the_follower_must_follow_suit():
    g = declared()
    g.apply(("play", 0, parse("TD")))
    assert g.points == [93, 0]  # a point for the lead
    with pytest.raises(IllegalAction, match="must follow suit"):
        g.verify(("play", 1, parse("7C")))
    assert sorted(g.legal_cards(1)) == sorted(parse_list("AD KD QD JD"))
    g.apply(("play", 1, parse("AD")))
    assert g.tricks == [0, 1] and g.points == [93, 1] and g.to_act == 1  # won by following: a point


def test_every_trick_won_is_capot_its_cards_counted_at_elders_seventh_trick():
    g = declared()
    while g.phase == R.PLAY:  # elder leads his spades down; younger throws his diamonds
        g.apply(("play", g.to_act, g.legal_cards(g.to_act)[0]))
    tricks = [e for e in g.log if e[0] == "trick"]
    assert [e[1] for e in tricks] == [0] * 12
    scored = [e for e in g.log if e[0] == "score" and e[2][1] in ("cards", "capot")]
    # seed 003:113: the cards' 10 at the seventh trick, so the capot adds 30, not 40
    assert scored == [("score", 0, (10, "cards")), ("score", 0, (30, "capot"))]
    assert g.log.index(scored[0]) < g.log.index(tricks[7])
    assert g.finished == 1 and g.deal_no == 2 and g.phase == R.DEAL
