# `tapis eval piquet` and `tapis table --game piquet` end to end, through the CLI.
import json
import os
import subprocess
import sys

import pytest

from tapis.firmware.games.piquet import declarations as D
from tapis.firmware.offboard import deck
from tapis.firmware.cards import name, parse_list
from tapis.host.cli import main

TAPIS = [sys.executable, "-m", "tapis"]
PACK = {name(c) for c in deck.deck32()}
# seed 003:109: elder's quatorze of aces (and a jack: the seed's elder is not carte blanche)
ELDER = "AS AH AD AC 8H 7H 8S 7S 9D 8D JC 8C"
YOUNGER = "KH QH JH TH 9H KS QS JS TS 9S 7D 7C"  # younger: point of 5 and two quints


def run(*args, env=None):
    return subprocess.run(TAPIS + list(args), capture_output=True, text=True, timeout=300, env=env)


def test_eval_json_of_the_seed_example():
    p = run("eval", "piquet", "--elder", ELDER, "--younger", YOUNGER, "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {
        "schema": "tapis.eval.piquet/2", "hands": {"elder": ELDER.split(), "younger": YOUNGER.split()},
        "carte_blanche": {"winner": None, "score": 0},
        "point": {"winner": "younger", "score": 5},
        "sequence": {"winner": "younger", "score": 30},
        "sets": {"winner": "elder", "score": 14},
        "repique": "younger", "totals": {"elder": 14, "younger": 5 + 30 + 60}}


def test_eval_reports_nobody_on_equal_categories_under_both_twins():
    args = ["eval", "piquet", "--elder", "AH KH QH JH 7H 8S 9S TS 7D 8D TD 7C",
            "--younger", "AS KS QS JS 7S 9D JD QD 8C 9C JC QC", "--json"]
    outs = []
    for env in ({}, {"TAPIS_PURE": "1"}):
        p = run(*args, env=dict(os.environ, **env))
        assert p.returncode == 0, p.stderr
        outs.append(json.loads(p.stdout))
    assert outs[0] == outs[1]
    assert outs[0]["point"] == {"winner": None, "score": 0}
    r = D.declare(parse_list(args[3]), parse_list(args[5]))
    assert outs[0]["totals"] == {"elder": r[7], "younger": r[8]}


def test_eval_counts_carte_blanche_first_and_toward_the_repique(capsys):
    """003:39, 003:100 (issue 14.10): carte blanche scores 10 before the point and counts
    toward the repique; `tapis eval piquet` left it out, so its repique verdict was wrong
    for a hand dealt blanche. Elder's blanche (no J, Q, K) wins the point (5), a quart (4)
    and a quatorze of tens (14): 23, no repique; with the blanche's 10 first, 33 before
    younger scores: the repique."""
    elder = "7S TS 8H TH 7D TD AD 7C 8C 9C TC AC"
    younger = "8S QS AS 9H JH KH AH 9D JD QD KD JC"
    assert D.is_carte_blanche(parse_list(elder))
    r = D.declare(parse_list(elder), parse_list(younger))
    assert r[6] == D.NOBODY and (r[7], r[8]) == (23, 0)  # the declarations alone
    p = run("eval", "piquet", "--elder", elder, "--younger", younger, "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["carte_blanche"] == {"winner": "elder", "score": 10}
    assert out["repique"] == "elder" and out["totals"] == {"elder": 10 + 23 + 60, "younger": 0}
    # a hand without the blanche: nothing changes
    p = run("eval", "piquet", "--elder", ELDER, "--younger", YOUNGER, "--json")
    assert json.loads(p.stdout)["carte_blanche"] == {"winner": None, "score": 0}
    assert main(["eval", "piquet", "--elder", elder, "--younger", younger]) == 0
    text = capsys.readouterr().out
    assert "blanche   elder scores 10" in text and "repique   elder scores 60" in text


def test_eval_prints_a_readable_answer(capsys):
    assert main(["eval", "piquet", "--elder", ELDER, "--younger", YOUNGER]) == 0
    out = capsys.readouterr().out
    assert "repique   younger scores 60" in out and "elder 14, younger 95" in out


@pytest.mark.parametrize("elder, younger, message", [
    (ELDER.rsplit(" ", 1)[0], YOUNGER, "must hold 12 cards, got 11"),
    (ELDER, YOUNGER + " 8S", "must hold 12 cards, got 13"),
    (ELDER.replace("8C", "8D"), YOUNGER, "names a card twice: 8D"),
    (ELDER.replace("8C", "6C"), YOUNGER, "outside the 32-card piquet pack"),
    (ELDER.replace("8C", "2C"), YOUNGER, "outside the 32-card piquet pack"),
    (ELDER, YOUNGER.replace("7C", "AS"), "cannot be in both hands: AS"),
    (ELDER.replace("8C", "XC"), YOUNGER, "bad card code 'XC'"),
])
def test_eval_bad_input_exits_2_with_a_message(elder, younger, message):
    p = run("eval", "piquet", "--elder", elder, "--younger", younger, "--json")
    assert p.returncode == 2 and message in p.stderr and not p.stdout


def records(*args):
    p = run("table", "--game", "piquet", *args)
    assert p.returncode == 0, p.stderr
    return p.stdout, [json.loads(line) for line in p.stdout.splitlines()]


def test_table_json_streams_a_partie_of_six_deal_records_ending_in_the_rubicon_result():
    out, recs = records("--deals", "12", "--seed", "7", "--json")
    assert out == records("--deals", "12", "--seed", "7", "--json")[0]  # reproducible
    assert [r["deal"] for r in recs] == list(range(1, 13))
    assert [r["partie"] for r in recs] == [1] * 6 + [2] * 6
    scores = [0, 0]
    for r in recs:
        assert {"deal", "dealer", "hands", "declarations", "points", "scores"} <= set(r)
        assert len(r["hands"][0]) == len(r["hands"][1]) == 12
        assert len(set(r["hands"][0] + r["hands"][1])) == 24 and set(r["hands"][0] + r["hands"][1]) <= PACK
        assert sum(r["tricks"]) == 12
        assert set(r["declarations"]) == {"point", "sequence", "sets"}
        for d in r["declarations"].values():
            assert d["verdict"] in ("good", "not good", "equal", "none")
        scores = [s + p for s, p in zip(scores, r["points"])]
        assert r["scores"] == scores
        if r["deal"] % 6:
            assert "result" not in r
        else:
            res = r["result"]
            hi, lo = max(scores), min(scores)
            assert res["scores"] == scores and res["winner"] == scores.index(hi)
            assert res["value"] == (hi - lo + 100 if lo >= 100 else hi + lo + 100)
            scores = [0, 0]
    dealers = [r["dealer"] for r in recs[:6]]
    assert dealers == [dealers[0], 1 - dealers[0]] * 3  # the deal alternates
    assert recs[0]["cut"] and recs[6]["cut"]  # each partie begins with the cut


def test_the_hands_are_those_after_the_exchange():
    _, recs = records("--deals", "6", "--seed", "3", "--json")
    for r in recs:
        for seat in (0, 1):
            mine = [x for x in r["exchanges"] if x["seat"] == seat]
            took = sum(len(x["drawn"]) for x in mine)
            assert 1 <= took and len(set(r["dealt"][seat]) - set(r["hands"][seat])) == took
            # issue 14.12: the record names the cards discarded and drawn, and the talon
            out = {c for x in mine for c in x["discarded"]}
            assert len(out) == took and out == set(r["dealt"][seat]) - set(r["hands"][seat])
            assert {c for x in mine for c in x["drawn"]} <= set(r["talon"])


@pytest.mark.parametrize("variant", ["carte-rouge", "last-trick-10", "au-cent"])
def test_variants_play_through(variant):
    _, recs = records("--variant", variant, "--seed", "4", "--json")
    last = recs[-1]
    assert "result" in last and sum(last["tricks"]) == 12
    if variant == "au-cent":
        assert max(last["scores"]) >= 100
        assert last["result"]["value"] == abs(last["scores"][0] - last["scores"][1])
        assert len(recs[0]["hands"][0]) == 12
    else:
        assert len(recs) == 6
    if variant == "last-trick-10":
        assert all([10, "last trick"] in [s[1:] for s in r["scoring"]] for r in recs)


def test_au_cent_deals_the_sixes():
    _, recs = records("--variant", "au-cent", "--deals", "20", "--seed", "5", "--json")
    assert any(c[0] == "6" for r in recs for h in r["dealt"] for c in h)


def test_the_default_run_watches_one_whole_partie(capsys):
    assert main(["table", "--game", "piquet", "--seed", "3", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert out.count("── Partie 1 · deal") == 6 and "Partie 2" not in out
    assert "point:" in out and "Trick 12" in out
    assert out.count("wins the partie") + out.count("partie is drawn") == 1


def test_an_unknown_variant_exits_2():
    p = run("table", "--game", "piquet", "--variant", "rubicon-bezique")
    assert p.returncode == 2 and "carte-rouge" in p.stderr


def test_the_bot_discards_low_cards_and_keeps_its_sequence_and_stoppers():
    from tapis.simulator.kits.piquet.bots import piquet_card, piquet_discard

    hand = parse_list("AH KH QH JH TH 7S 8S KS 8D QD 9C 7C")
    out = piquet_discard(hand, 1, 5, elder=True)
    assert len(out) == 5 and set(out) == set(parse_list("7S 8S 8D 9C 7C"))
    younger = piquet_discard(parse_list("AS KS QS JS 7H 9H KD QD JD AC KC 8C"), 1, 3, elder=False)
    assert set(younger) == set(parse_list("7H 9H 8C"))  # the quart, the tierce and the guarded ace-king stay
    view = {"legal": hand, "hand": hand, "played": [], "led": None}
    assert piquet_card(view) == parse_list("AH")[0]  # a master from the longest suit
    view = {"legal": parse_list("KS 7S 8S"), "hand": hand, "played": [], "led": parse_list("QS")[0]}
    assert piquet_card(view) == parse_list("KS")[0]  # wins when it can


def test_a_partie_on_the_virtual_board_matches_the_host_run():
    """`--board micropython` runs the firmware controller under real MicroPython."""
    host, recs = records("--seed", "3", "--json")
    board, _ = records("--seed", "3", "--json", "--board", "micropython")
    assert board == host and "result" in recs[-1]
