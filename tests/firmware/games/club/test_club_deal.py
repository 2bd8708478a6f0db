# The club écarté deal and its settlement (firmware/games/club/deal.py, SPEC §4 "The deal",
# "Trump duel", seed 004:17): four tableaux dealt a card at a time, the 17th turned, the
# duels, the settlement in tableau order, the talia's end at the cut card.
import pytest

from tapis.firmware.cards import parse, parse_list
from tapis.firmware.games.club import deal as club_deal
from tapis.firmware.games.club import rules as R
from tapis.firmware.games.rules import CHANCE, IllegalAction
from club_driver import deal


def staked(**kw):
    g = R.Club(R.Options(**dict(dict(seats=4, bank=30, minimums=(0, 0)), **kw)))
    g.apply(("lay", 0, None))
    g.apply(("stake", 1, (3, 4)))
    g.apply(("stake", 2, (1, 5)))
    g.apply(("stake", 3, (3, 6)))
    assert g.phase == R.DEAL and g.cards_due()[0] == 17
    return g


def test_the_rules_deal_through_this_mixin():
    assert issubclass(R.Club, club_deal.Dealing)


def test_four_tableaux_a_card_at_a_time_the_bankers_first_then_the_trump_turned():
    g = staked()
    cards = parse_list("2C 3C 4C 5C 6C 7C 8C 9C 2H 3H 4H 5H 6H 7H 8H 9H AS")
    for c in cards[:16]:
        g.apply(("shoe", CHANCE, c))
    assert g.tableaux == [cards[0:16:4], cards[1:16:4], cards[2:16:4], cards[3:16:4]]
    assert [e[1] for e in g.log if e[0] == "card"] == [0, 1, 2, 3] * 4
    ev = g.apply(("shoe", CHANCE, cards[16]))
    assert ev[0] == ("turn", CHANCE, parse("AS"))
    assert [e[1] for e in ev if e[0] == "result"] == [1, 2, 3]


def test_stakes_are_settled_in_tableau_order():
    g = staked()
    ev = deal(g, banker="9", t1="A", t3="K")
    assert [(e[1], e[2][0]) for e in ev if e[0] == "settle"] == [(2, 1), (1, 3), (3, 3)]
    assert g.last["trump"] == parse("2S") and g.last["deal"] == g.deal_no - 1  # the next is open


def test_a_card_a_third_time_in_a_talia_or_a_non_card_is_refused():
    g = staked()
    for _ in range(2):  # the fill's cards twice, 2S turned
        deal(g)
        assert g.phase == R.STAKE
        for s in (1, 2, 3):
            g.apply(("skip", s, None))
    with pytest.raises(IllegalAction, match="a third time: imperfect shoe"):
        g.verify(("shoe", CHANCE, parse("2C")))
    with pytest.raises(IllegalAction, match="not a card"):
        g.verify(("shoe", CHANCE, 99))


def test_the_cut_card_ends_the_talia_and_the_banker_chooses():
    g = staked()
    deal(g, cut=True)
    assert g.phase == R.BANK and g.to_act == 0 and g.choices() == ["hold", "pass"]
    assert g.fresh and g.talia == 1
