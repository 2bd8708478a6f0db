# Piquet's declarations refereed (firmware/games/piquet/declare.py, SPEC §4, seed 003:57-107):
# each category's best holding, what declaring brings out, the verdicts, and their scores in
# order with the repique.
from tapis.firmware.cards import parse_list
from tapis.firmware.games.piquet import declare
from tapis.firmware.games.piquet import rules as R
from helpers import piquet_dealt

ELDER = "AS KS QS JS TS 9S 8S 7D AH KH QH JH"
YOUNGER = "TH 9H 8H 7H AD KD QD JD AC KC QC JC"
TALON = "7S TD 9D 8D TC 9C 8C 7C"


def exchanged():
    """Elder holds AS..7S, TD 9D 8D, TC; younger 7H, AD KD QD JD, AC KC QC JC 9C 8C 7C."""
    g = piquet_dealt(ELDER, YOUNGER, TALON)
    g.apply(("exchange", 0, parse_list("7D AH KH QH JH")))
    g.apply(("exchange", 1, parse_list("TH 9H 8H")))
    assert g.phase == R.DECLARE and g.to_act == 0
    return g


def test_a_holding_keys_the_point_by_cards_then_pips_and_the_sequence_by_length_then_top():
    g = exchanged()
    # elder's point: 8 spades worth 75 pips; younger's: 7 clubs worth 65
    assert declare.holding(g.hands[0], 0) == 8 << 8 | 75
    assert declare.holding(g.hands[1], 0) == 7 << 8 | 65
    assert declare.holding(g.hands[0], 1) > declare.holding(g.hands[1], 1)  # huitième beats septième
    assert declare.holding(g.hands[0], 2) > 0 == declare.holding(g.hands[1], 2)  # three tens against nothing


def test_declaring_says_the_count_and_only_equal_counts_bring_out_the_pips():
    e, y = 7 << 8 | 70, 5 << 8 | 40
    assert declare.shown(0, e, y) == (7 << 8, 0)  # younger's lower point stays unsaid
    assert declare.shown(0, y, e) == (5 << 8, 7 << 8)  # younger's better one is said
    assert declare.shown(0, 5 << 8 | 50, 5 << 8 | 40) == (5 << 8 | 50, 0)  # a tie of count: the pips
    assert declare.shown(0, y, y) == (y, y)
    assert declare.shown(2, 0, 56) == (0, 56)  # a set is named whole


def test_the_declarations_are_refereed_then_scored_in_order_with_the_repique():
    g = exchanged()
    start = len(g.log)
    while g.phase == R.DECLARE:
        g.apply(("declare", g.to_act, R.CATEGORIES[g.cat]))
    log = g.log[start:]
    assert [e for e in log if e[0] == "verdict"] == [
        ("verdict", 0, ("point", "good")), ("verdict", 0, ("sequence", "good")),
        ("verdict", 0, ("sets", "good"))]
    assert ("holding", 0, ("point", 8 << 8)) in log  # elder said "eight", not his pips
    # the point 8; the huitième 18 and the tierce 3 declared too; three tens; 32 before the
    # other scores anything: the repique's 60
    assert [e for e in log if e[0] == "score"] == [
        ("score", 0, (8, "point")), ("score", 0, (21, "sequence")), ("score", 0, (3, "sets")),
        ("score", 0, (60, "repique"))]
    assert g.phase == R.PLAY and g.to_act == 0 and g.repique == 0


def test_a_sunk_point_lets_the_other_score_first_and_so_saves_the_repique():
    g = exchanged()
    g.apply(("sink", 0, "point"))
    g.apply(("declare", 1, "point"))
    assert g.verdicts[0][:2] == (1, "good")
    while g.phase == R.DECLARE:
        g.apply(("declare", g.to_act, R.CATEGORIES[g.cat]))
    # younger's point is scored before elder's sequence: elder's 24 come after it, no repique
    assert g.points == [21 + 3, 7] and g.repique == -1
