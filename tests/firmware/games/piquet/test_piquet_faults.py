# Piquet's misdeals from the shoe's faults (firmware/games/piquet/faults.py, SPEC §4
# "Misdeals"): each FAULT payload while a card is due as the rules' action (the common ones
# of games/faults.py, a short pack, a deal out of turn from the dealer's opponent), none once
# the deal is over; a short pack voids the deal, said in words, and the deal begins again.
import pytest

from tapis.firmware import wire as W
from tapis.firmware.games.piquet import faults as F
from tapis.firmware.games.piquet import rules as P
from tapis.firmware.games.rules import CHANCE, IllegalAction
from tapis.firmware.offboard import deck


def dealt(g):
    pack = deck.deck(range(g.options.low_rank, 13))
    while g.to_act == CHANCE:
        g.apply(("shoe", CHANCE, pack[g.delivered]))
    return g


@pytest.mark.parametrize("code, action", [
    (bytes([W.EMPTY]), ("missing", CHANCE, None)),
    (bytes([W.OUT_OF_TURN, 1]), ("outofturn", CHANCE, 1)),
    (bytes([W.OUT_OF_TURN, 0]), None),  # the dealer's own seat: no deal out of turn
    (bytes([W.OUT_OF_TURN, 2]), None),
    (bytes([W.UNREAD]), ("unread", CHANCE, None)),
    (b"", None),
])
def test_a_fault_while_a_card_is_due_is_the_rules_action(code, action):
    g = P.Piquet(first_dealer=0)
    assert g.to_act == CHANCE and g.dealer == 0
    assert F.shoe_fault(g, code) == action


def test_a_short_pack_voids_the_deal_in_words_and_deals_again():
    g = P.Piquet(first_dealer=0)
    events = g.apply(("missing", CHANCE, None))
    assert events[0] == ("missing", CHANCE, None)
    assert ("void", CHANCE, "a short pack: a card is missing") in events
    assert g.to_act == CHANCE and P.PHASE_NAMES[g.phase] == "deal" and g.delivered == 0


def test_once_the_deal_is_over_a_fault_is_no_action_and_refused():
    g = dealt(P.Piquet(first_dealer=0))
    assert P.PHASE_NAMES[g.phase] == "exchange"
    assert F.shoe_fault(g, bytes([W.EMPTY])) is None
    with pytest.raises(IllegalAction) as e:
        F.verify(g, "missing", None)
    assert "no card is due (exchange)" in str(e.value)
