# The écarté deal and exchange (firmware/games/ecarte/deal.py, SPEC §4 "Dealing", "Proposals"):
# the cut for the first deal, which cards the shoe may deliver, the discard's bounds and checks.
import pytest

from tapis.firmware.cards import parse, parse_list
from tapis.firmware.games.ecarte import deal
from tapis.firmware.games.ecarte.events import DRAW
from tapis.firmware.games.ecarte import rules as R
from helpers import dealt, shoe


def test_the_rules_deal_through_this_mixin():
    assert issubclass(R.Ecarte, deal.Dealing)
    assert R.Ecarte.discard_range is deal.Dealing.discard_range


def test_the_higher_cut_deals_and_equal_cuts_cut_again():
    g = R.Ecarte()  # no first dealer: the players cut (000:39)
    assert g.phase == R.CUT and g.to_act == R.CHANCE and g.cards_due() == (2, 32)
    shoe(g, "9S 9H")  # equal in écarté rank: cut again from the same pack
    assert g.phase == R.CUT and g.pending == [0, 1]
    shoe(g, "7C KD")  # seat 1 cut the king: seat 1 deals, seat 0 is elder
    assert g.phase == R.DEAL and g.dealer == 1 and g.elder == 0
    assert [e for e in g.log if e[0] == "cut"] == [("cut", 0, parse("9S")), ("cut", 1, parse("9H")),
                                                  ("cut", 0, parse("7C")), ("cut", 1, parse("KD"))]
    assert g.hands == [[], []] and g.delivered == 0  # the deal starts from a fresh pack


def test_a_card_outside_the_32_card_pack_or_not_due_is_refused():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    with pytest.raises(R.IllegalAction, match="no card is due"):
        g.verify(("shoe", R.CHANCE, parse("8D")))
    g = R.Ecarte(first_dealer=0)
    with pytest.raises(R.IllegalAction, match="not in the 32-card pack"):
        g.verify(("shoe", R.CHANCE, parse("6S")))


def test_the_same_card_twice_voids_the_deal_as_an_imperfect_pack():
    g = R.Ecarte(first_dealer=0)
    shoe(g, "7S 8S 7S")
    assert ("duplicate", R.CHANCE, parse("7S")) in g.log


def test_elder_discards_one_to_five_and_the_dealer_may_refuse_unless_he_must_exchange():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    assert g.discard_range(g.elder) == (1, 5)
    assert g.discard_range(g.dealer) == (0, 5)
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H", options=R.Options(dealer_must_exchange=True))
    assert g.discard_range(g.dealer) == (1, 5)
    g.delivered = 30  # two cards left in the stock: nobody may take more
    assert g.discard_range(g.elder) == (1, 2)


def test_a_discard_is_checked_against_the_hand_the_bounds_and_repeats():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    g.apply(("propose", 1, None))
    g.apply(("accept", 0, None))
    for cards, why in ((parse_list("QH"), "not in hand"), ((), "must discard 1 to 5"),
                       (parse_list("7S 7S"), "twice"), (7, "a list of cards")):
        with pytest.raises(R.IllegalAction, match=why):
            g.verify(("discard", 1, cards))
    g.apply(("discard", 1, parse_list("7S 8S")))
    assert g.phase == DRAW and g.to_act == R.CHANCE and g.pending == [1, 1]
    shoe(g, "TD JD")
    assert sorted(g.hands[1]) == sorted(parse_list("9D KC 8C TD JD"))
    assert g.phase == R.DISCARD and g.to_act == g.dealer  # now the dealer's exchange
