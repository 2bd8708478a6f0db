# Deal records as the audit trail (issue 14.12, SPEC §4 "Records", docs/records.md): every
# game's `tapis table --json` record carries the cards as dealt, drawn and discarded, every
# card played with its seat, and the scores, with a `schema` version; `tapis replay RECORD`
# re-derives each deal from its record alone and says whether it matches.
import json
import subprocess
import sys

import pytest

from tapis.firmware.offboard import deck
from tapis.firmware.cards import name
from tapis.simulator.kits.replay import audit
from tapis.simulator.kits.schema import COMMON, SCHEMA

TAPIS = [sys.executable, "-m", "tapis"]
CARDS = {name(c) for c in deck.deck(range(0, 13))}


def tapis(*args, stdin=None):
    return subprocess.run(TAPIS + list(args), capture_output=True, text=True, timeout=300, input=stdin)


def table_json(game, deals, seed, *extra):
    p = tapis("table", "--game", game, "--deals", str(deals), "--seed", str(seed), "--json", *extra)
    assert p.returncode == 0, p.stderr
    return p.stdout, [json.loads(line) for line in p.stdout.splitlines()]


@pytest.mark.parametrize("game, deals", [("ecarte", 12), ("piquet", 6), ("club", 12)])
def test_every_record_replays_from_itself_and_tapis_replay_says_so(game, deals, tmp_path):
    text, records = table_json(game, deals, 7)
    for r in records:
        assert r["schema"] == SCHEMA and r["game"] == game and all(k in r for k in COMMON)
        assert audit(r)["matches"], (r["deal"], audit(r))
    path = tmp_path / "deals.jsonl"
    path.write_text(text)
    p = tapis("replay", str(path))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[-1] == "%d records: all match" % len(records)
    assert lines[0] == "%s deal 1: matches" % game
    p = tapis("replay", "-", "--json", stdin=text)
    assert p.returncode == 0 and all(json.loads(x)["matches"] for x in p.stdout.splitlines())


def test_the_ecarte_record_names_every_card_dealt_drawn_discarded_and_played():
    """SPEC §4 "Records": the hands as dealt, the exchanges (discards never reach the table
    display, but the record is the audit trail), every card played with its seat: together
    they account for every card of the deal, none twice."""
    _, records = table_json("ecarte", 30, 3)
    exchanged = 0
    for r in [x for x in records if x.get("ended_by") not in ("void", "king", "turned king")]:
        held = [list(h) for h in r["hands"]]
        for x in r["exchanges"]:
            assert set(x["discarded"]) <= set(held[x["seat"]]) and len(x["drawn"]) == len(x["discarded"])
            held[x["seat"]] = [c for c in held[x["seat"]] if c not in x["discarded"]] + x["drawn"]
            exchanged += 1
        played = [[], []]
        for seat, c in r["plays"]:
            played[seat].append(c)
        if r.get("ended_by") in ("point", "vole"):
            assert [sorted(p) for p in played] == [sorted(h) for h in held]
        every = [c for h in r["hands"] for c in h] + [r["trump"]] + \
            [c for x in r["exchanges"] for c in x["drawn"]]
        assert len(every) == len(set(every)) and set(every) <= CARDS
    assert exchanged > 5


def test_the_piquet_record_carries_the_talon():
    _, records = table_json("piquet", 6, 3)
    for r in records:
        assert len(r["talon"]) == 8 and len(r["dealt"][0]) == len(r["dealt"][1]) == 12
        assert len(set(r["talon"]) | set(r["dealt"][0]) | set(r["dealt"][1])) == 32


def test_a_record_changed_after_the_fact_does_not_match(tmp_path):
    """The replay is an audit: a record whose result was altered, or whose inputs were,
    does not match, and `tapis replay` exits 1 naming the difference."""
    _, records = table_json("ecarte", 4, 5)
    forged = dict(records[0], scores=[s + 1 for s in records[0]["scores"]])
    a = audit(forged)
    assert not a["matches"] and [d["key"] for d in a["differences"]] == ["scores"]
    path = tmp_path / "forged.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [records[1], forged]) + "\n")
    p = tapis("replay", str(path))
    assert p.returncode == 1
    assert "does not match: scores recorded" in p.stdout and p.stdout.splitlines()[-1] == "2 records: 1 does not match"
    bad_input = dict(records[0], inputs=records[0]["inputs"][:-1] + [["play", 0, "2C"]])
    a = audit(bad_input)
    assert not a["matches"] and "refused by the rules" in a["why"]


@pytest.mark.parametrize("text, message", [
    ("not json\n", "line 1 is not JSON"),
    ('{"schema": 1, "game": "ecarte"}\n', "this tapis reads deal records of schema 2"),
    ('{"schema": 2, "game": "ecarte"}\n', "the record lacks"),
    ("", "holds no deal record"),
])
def test_replay_refuses_what_is_no_deal_record_with_exit_2(text, message, tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text(text)
    p = tapis("replay", str(path))
    assert p.returncode == 2 and message in p.stderr and p.stdout == ""
    p = tapis("replay", str(tmp_path / "absent.jsonl"))
    assert p.returncode == 2 and "cannot read" in p.stderr
