# The emulated table end to end, through the CLI: records, determinism, errors.
import json
import re
import subprocess
import sys

import pytest

from tapis.firmware.offboard import deck
from tapis.firmware.cards import name
from tapis.host.cli import main

TAPIS = [sys.executable, "-m", "tapis"]
PACK = {name(c) for c in deck.deck32()}


def run(*args):
    return subprocess.run(TAPIS + list(args), capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("deals", [150, pytest.param(500, marks=pytest.mark.slow)])
def test_many_deals_are_reproducible_and_consistent(deals):
    args = ("table", "--game", "ecarte", "--deals", str(deals), "--seed", "7", "--json")
    a, b = run(*args), run(*args)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    records = [json.loads(line) for line in a.stdout.splitlines()]
    assert [r["deal"] for r in records] == list(range(1, deals + 1))
    scores, balances = [0, 0], [0, 0]
    for r in records:
        assert r["seed"] == 7
        cards = r["hands"][0] + r["hands"][1] + [r["trump"]]
        assert len(r["hands"][0]) == len(r["hands"][1]) == 5
        assert len(set(cards)) == 11 and set(cards) <= PACK
        if r["ended_by"] in ("point", "vole"):
            assert sum(r["tricks"]) == 5
        else:  # a king took the game before a card was played (seed 002)
            assert r["ended_by"] in ("king", "turned king") and "game_over" in r
            assert sum(r["tricks"]) == 0
        assert [s + p for s, p in zip(scores, r["points"])] == r["scores"]
        scores = [0, 0] if "game_over" in r else r["scores"]
        if "game_over" in r:
            assert max(r["scores"]) >= 5
            assert r["scores"][r["game_over"]["winner"]] >= 5
            # the stake (1) times the game value, from the loser to the winner
            w = r["game_over"]["winner"]
            assert r["payments"] == [[1 - w, w, r["game_over"]["value"]]]
            balances[w] += r["game_over"]["value"]
            balances[1 - w] -= r["game_over"]["value"]
        assert r["balances"] == balances
    assert sum("game_over" in r for r in records) > deals // 6  # seed 7: 34 games in 150 deals, 112 in 500


def test_default_run_watches_a_whole_game(capsys):
    assert main(["table", "--seed", "3", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "Deal 1" in out and "Trump turned" in out and "Trick 5" in out
    lines = out.rstrip().splitlines()
    # the players cut for the first deal (issue 14.4, 000:39): the higher card deals
    cuts = [re.fullmatch(r"  (West|East) cuts (\S+)", ln) for ln in lines[2:4]]
    assert [m.group(1) for m in cuts] == ["West", "East"], lines[2:4]
    order = "789TAJQK"  # écarté's ranks, low to high
    high = max(cuts, key=lambda m: order.index(m.group(2)[0])).group(1)
    assert cuts[0].group(2)[0] != cuts[1].group(2)[0] and "%s deals" % high in lines[5]
    # the game's end, then its settlement
    won = re.fullmatch(r"★ (West|East) wins the game \((single|double|triple)\)", lines[-3])
    assert won, lines[-3]
    w, value = won.group(1), {"single": 1, "double": 2, "triple": 3}[won.group(2)]
    loser = "East" if w == "West" else "West"
    assert lines[-2:] == ["  %s pays %s %d" % (loser, w, value),
                          "  Balances: West %+d, East %+d" % ((value, -value) if w == "West" else (-value, value))]
    assert out.count("wins the game") == 1


@pytest.mark.parametrize("args, message", [
    (["table", "--game", "poker"], "invalid choice: 'poker'"),
    (["table", "--deals", "0"], "at least 1"),
    (["table", "--deals", "x"], "whole number"),
    (["table", "--seed", "-1"], "between 0"),
    (["fly"], "invalid choice"),
])
def test_bad_arguments_exit_2_with_a_message(args, message):
    p = run(*args)
    assert p.returncode == 2 and message in p.stderr and not p.stdout


def test_info_json():
    p = run("info", "--json")
    assert p.returncode == 0, p.stderr
    info = json.loads(p.stdout)
    assert info["core"] in ("cython", "pure")
    assert info["version"] == "0.1.0"
    assert isinstance(info["micropython"], str) and info["micropython"].startswith("1.")


def test_help_prints_for_every_command():
    from tapis.host.cli import COMMANDS

    for args in [["--help"]] + [[c, "--help"] for c in COMMANDS]:
        p = run(*args)
        assert p.returncode == 0 and "usage: tapis" in p.stdout, (args, p.stderr)
