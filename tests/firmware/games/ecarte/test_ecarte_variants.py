# Every écarté variant (SPEC §4, firmware/offboard/variants/ecarte.py) plays complete seeded games
# through `tapis table --variant NAME --json`, and each record obeys what the variant says.
import json
import subprocess
import sys

import pytest

from tapis.firmware.cards import parse, rank, suit
from tapis.firmware.offboard import named
from tapis.firmware.offboard.variants.ecarte import VARIANTS
from tapis.simulator.table.emulated import EmulatedTable

TAPIS = [sys.executable, "-m", "tapis", "table"]
ECARTE_ORDER = "789TAJQK"  # low to high, written here independently of the engine
ACE_ORDER = "789TJQKA"


def records(variant, seed, deals=None):
    args = TAPIS + ["--variant", variant, "--seed", str(seed), "--json"]
    if deals:
        args += ["--deals", str(deals)]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    again = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert again.stdout == p.stdout  # seeded: the same games
    return [json.loads(line) for line in p.stdout.splitlines()]


def consistent(rs, hand=5):
    scores = [0, 0]
    for r in rs:
        if r.get("ended_by") != "void":
            assert [len(h) for h in r["hands"]] == [hand, hand]
        assert [s + p for s, p in zip(scores, r["points"])] == r["scores"]
        scores = [0, 0] if "game_over" in r else r["scores"]
        assert sum(r["balances"]) + r.get("pool", 0) == 0  # pool écarté: the pool too


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_plays_a_complete_seeded_game(variant):
    rs = records(variant, 11)
    assert rs and "game_over" in rs[-1]
    assert sum("game_over" in r for r in rs) == 1
    consistent(rs, 4 if variant == "quick" else 5)


def test_doubling_refused_ends_the_hand_as_the_point_for_the_proposer():
    rs = records("doubling", 3, deals=60)
    consistent(rs)
    refused = [r for r in rs if r.get("ended_by") == "double refused"]
    assert refused
    for r in refused:
        proposer = [a for a in r["actions"] if a[0] == "double"][-1][1]
        assert r["points"][proposer] in (1, 2) and r["tricks"][0] + r["tricks"][1] < 3
    accepted = [r for r in rs if ["double", 0] in r["actions"] or ["double", 1] in r["actions"]]
    doubled = [r for r in accepted if r.get("ended_by") in ("point", "vole")]
    for r in doubled:  # the hand's points are doubled for whoever wins it
        assert max(r["points"]) - (1 if any(a[0] == "king" for a in r["actions"]) else 0) in (2, 4)


def test_offering_the_point():
    rs = records("offer-point", 3, deals=80)
    consistent(rs)
    offered = [r for r in rs if any(a[0] == "offer" for a in r["actions"])]
    assert offered
    for r in offered:
        offerer = [a for a in r["actions"] if a[0] == "offer"][0][1]
        if r.get("ended_by") == "point offered":  # accepted: the other scores the point
            assert r["points"][1 - offerer] in (1, 2) and sum(r["tricks"]) == 0
        elif r.get("ended_by") == "vole missed":  # refused and no vole: the offerer scores 2
            assert r["points"][offerer] == 2 and r["tricks"][offerer] >= 1


def test_pool_the_loser_swaps_with_the_watcher_until_two_games_running():
    """000:93 (pool écarté), SPEC §4: the loser swaps with the watcher until a seat wins
    two games running. The pool: each of the three puts in the stake when it begins; the
    loser of each game pays stake x game value into it; the seat that wins two games
    running takes it all, and a new pool begins (docs/rules.md "pool")."""
    rs = records("pool", 5, deals=50)  # seed 5: four pools won, and games that won none
    consistent(rs)
    players, watcher = [0, 1], 2
    last, streak, pools = None, 0, 0
    pot = 3  # three antes of the stake (1)
    assert rs[0]["start"]["pool"] == 3 and rs[0]["start"]["balances"] == [-1, -1, -1]
    for r in rs:
        assert r["players"] == players
        if "game_over" in r:
            w = players[r["game_over"]["winner"]]
            loser = players[1 - r["game_over"]["winner"]]
            pot += r["game_over"]["value"]
            assert [loser, "pool", r["game_over"]["value"]] in r["payments"]
            streak = streak + 1 if w == last else 1
            last = w
            if streak == 2:
                pools += 1
                assert r["pool_over"] == {"winner": w, "amount": pot}
                assert r["pool"] == 3  # the next pool, its three antes in
                pot = 3
                last, streak = None, 0
            else:
                assert "pool_over" not in r
            lo = 1 - r["game_over"]["winner"]
            players[lo], watcher = watcher, players[lo]
    assert pools >= 2  # a pool begins afresh after one is won
    assert len(rs[-1]["balances"]) == 3


def test_quick_game_four_cards_and_the_higher_trump_wins():
    rs = records("quick", 9, deals=60)
    consistent(rs, hand=4)
    for r in rs:
        t = parse(r["trump"])
        best = [max([ECARTE_ORDER.index("23456789TJQKA"[rank(parse(c))]) for c in h
                     if suit(parse(c)) == suit(t)], default=-1) for h in r["hands"]]
        if best[0] == best[1]:
            assert r["ended_by"] == "no trump" and r["points"] == [0, 0]
        else:
            w = best.index(max(best))
            assert r["ended_by"] == "higher trump" and r["points"][w] == 1
        assert r["trump"] not in r["hands"][0] + r["hands"][1]


@pytest.mark.parametrize("n", [3, 5, 7, 11])
def test_rubbers_of_3_5_7_11_games(n):
    rs = records("rubber-%d" % n, 2, deals=10 * n)  # seed 2: two or three whole rubbers at each length
    consistent(rs)
    rubbers = [r["rubber_over"] for r in rs if "rubber_over" in r]
    assert len(rubbers) >= 2  # the games are counted afresh after a rubber
    for rub in rubbers:
        assert max(rub["games"]) == n // 2 + 1 and min(rub["games"]) <= n // 2


def test_ace_high_ranks_the_ace_above_the_king():
    sim = EmulatedTable(8, options=named.options("ecarte", "ace-high"))
    sim.run_deals(30)
    order = {}
    trump = None
    checked = 0
    for kind, seat, value in sim.game.log:
        if kind == "turn":
            trump = suit(value)
        elif kind == "play":
            order.setdefault("trick", []).append((seat, value))
        elif kind == "trick":
            (s1, a), (s2, b) = order.pop("trick")
            if suit(b) == suit(a):
                win = s2 if ACE_ORDER.index("23456789TJQKA"[rank(b)]) > ACE_ORDER.index("23456789TJQKA"[rank(a)]) else s1
            else:
                win = s2 if suit(b) == trump else s1
            assert win == seat
            checked += 1
    assert checked > 100


def test_an_unknown_variant_exits_2_and_names_the_variants():
    p = subprocess.run(TAPIS + ["--variant", "blitz"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and not p.stdout
    assert "no variant 'blitz'" in p.stderr and "doubling" in p.stderr and "pool" in p.stderr


@pytest.mark.parametrize("variant, shows", [
    ("pool", ["In play: West and East; North watches", "In play: North", "North:"]),
    ("quick", ["Showdown:", "higher trump"]),
    ("doubling", ["proposes to double"]),
    ("gallery", ["Seat 3 backs", "Balances: West", "pays"]),
])
def test_watching_a_variant_on_the_table_display(variant, shows, capsys):
    from tapis.host.cli import main

    assert main(["table", "--variant", variant, "--seed", "2", "--deals", "30", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    for text in shows:
        assert text in out, text
