# The piquet cut, deal, carte blanche and exchange (firmware/games/piquet/deal.py, SPEC §4,
# seed 003:1-56).
import pytest

from tapis.firmware.cards import parse, parse_list
from tapis.firmware.games.piquet import deal
from tapis.firmware.games.piquet import rules as R
from tapis.firmware.games.rules import CHANCE, IllegalAction
from helpers import piquet_dealt, shoe

ELDER = "AS KS QS JS TS 9S 8S 7D AH KH QH JH"
YOUNGER = "TH 9H 8H 7H AD KD QD JD AC KC QC JC"
TALON = "7S TD 9D 8D TC 9C 8C 7C"


def test_the_rules_deal_through_this_mixin():
    assert issubclass(R.Piquet, deal.Dealing)


def test_the_higher_cut_deals_and_an_equal_cut_cuts_again():
    g = R.Piquet()
    assert g.phase == R.CUT
    shoe(g, "9S 9H")
    assert g.phase == R.CUT and g.pending == [0, 1]
    shoe(g, "AC 7D")
    assert g.phase == R.DEAL and g.dealer == 0 and g.elder == 1


def test_twelve_each_in_packets_of_two_then_the_talon():
    g = piquet_dealt(ELDER, YOUNGER, TALON)
    assert g.hands[0] == parse_list(ELDER) and g.hands[1] == parse_list(YOUNGER)
    assert g.talon == parse_list(TALON)
    assert [e[1] for e in g.log if e[0] == "card"][:6] == [0, 0, 1, 1, 0, 0]
    assert g.phase == R.EXCHANGE and g.to_act == g.elder


def test_a_card_below_the_pack_or_not_due_is_refused_and_a_repeat_voids_the_deal():
    g = R.Piquet(first_dealer=1)
    with pytest.raises(IllegalAction, match="not in the 32-card pack"):
        g.verify(("shoe", CHANCE, parse("6S")))
    shoe(g, "AS KS AS")
    assert any(e[0] == "duplicate" for e in g.log)
    g = piquet_dealt(ELDER, YOUNGER, TALON)
    with pytest.raises(IllegalAction, match="no card is due"):
        g.verify(("shoe", CHANCE, parse("6S")))


def test_elder_takes_up_to_five_from_the_top_and_younger_the_rest():
    g = piquet_dealt(ELDER, YOUNGER, TALON)
    assert g.exchange_range(0) == (1, 5)
    with pytest.raises(IllegalAction, match="exchange 1 to 5"):
        g.verify(("exchange", 0, parse_list("7D AH KH QH JH 8S")))
    with pytest.raises(IllegalAction, match="not in hand"):
        g.verify(("exchange", 0, parse_list("TH")))
    g.apply(("exchange", 0, parse_list("7D JH")))
    assert g.discards[0] == parse_list("7D JH")
    assert parse_list("7S TD") == g.hands[0][-2:]  # the talon's first two
    # elder left three of his five: he may look at them
    assert g.phase == R.LOOK and g.to_act == 0
    g.apply(("look", 0, False))
    assert g.phase == R.EXCHANGE and g.to_act == 1 and g.exchange_range(1) == (1, 6)
    g.apply(("exchange", 1, parse_list("AD KD QD")))
    assert g.hands[1][-3:] == parse_list("9D 8D TC")


def test_carte_blanche_is_offered_to_its_holder():
    blanche = "AS 9S 8S 7S AH 9H 8H 7H AD 9D 8D 7D"
    g = piquet_dealt(blanche, "KS QS JS TS KH QH JH TH KD QD JD TD", "AC KC QC JC TC 9C 8C 7C")
    assert g.phase == R.BLANCHE and g.to_act == 0
