# Club écarté through the CLI: eval, odds, the emulated table and simulate.
import io
import json
import subprocess
import sys
import time
from fractions import Fraction
from itertools import combinations
from math import gcd

import pytest

from tapis.firmware.games.club import duel as D
from tapis.firmware.cards import parse, parse_list
from tapis.host.cli import main
from tapis.host.odds import club_count

TAPIS = [sys.executable, "-m", "tapis"]


def run(*args, timeout=300):
    return subprocess.run(TAPIS + list(args), capture_output=True, text=True, timeout=timeout)


# ---- eval -------------------------------------------------------------------------------------
def test_eval_club_gives_the_seed_004_21_en_carte():
    p = run("eval", "club", "--banker", "KS,JS,9S,2H", "--punter", "QS,JS,2S,3D", "--trump", "S", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"schema": "tapis.eval.club/1", "banker": ["KS", "JS", "9S", "2H"],
                                    "punter": ["QS", "JS", "2S", "3D"], "trump_suit": "S", "result": "push",
                                    "banker_tricks": 1, "punter_tricks": 1}


def test_eval_club_perfect_play_and_text_output(capsys):
    assert main(["eval", "club", "--banker", "AH QH QH 2C", "--punter", "KH,KH,JH,10D", "--trump", "h", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["result"], got["banker_tricks"], got["punter_tricks"], got["trump_suit"]) == ("banker", 2, 1, "H")
    assert got["punter"] == ["KH", "KH", "JH", "TD"]  # as printed: 10D is TD
    assert main(["eval", "club", "--banker", "AD,5D,2C,3C", "--punter", "AD,8D,4C,5C", "--trump", "D"]) == 0
    assert "punter wins" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--banker", "KS,JS,9S", "--punter", "QS,JS,2S,3D", "--trump", "S"], "a tableau is 4 cards"),
    (["--banker", "KS,JS,9S,XX", "--punter", "QS,JS,2S,3D", "--trump", "S"], "bad card code 'XX'"),
    (["--banker", "KS,JS,9S,2H", "--punter", "QS,JS,2S,3D", "--trump", "Z"], "a trump suit is one of"),
    (["--banker", "KS,KS,9S,2H", "--punter", "KS,JS,2S,3D", "--trump", "S"], "KS appears 3 times"),
    (["--banker", "KS,JS,9S,2H", "--trump", "S"], "required: --punter"),
])
def test_eval_club_bad_input_exits_2(args, message):
    p = run("eval", "club", *args, "--json")
    assert p.returncode == 2 and message in p.stderr and p.stdout == ""


# ---- odds -------------------------------------------------------------------------------------
def test_odds_club_is_exact_symmetric_and_fast():
    t = time.monotonic()
    p = run("odds", "club", "--json")
    elapsed = time.monotonic() - t
    assert p.returncode == 0, p.stderr
    assert elapsed < 5
    o = json.loads(p.stdout)
    fr = {}
    assert o["schema"] == "tapis.odds.club/2"
    for k in ("punter_win", "push", "banker_win"):
        num, den = (int(x) for x in o[k]["fraction"].split("/"))
        assert o[k]["probability"] == num / den
        assert gcd(num, den) == 1  # reduced
        fr[k] = Fraction(num, den)
    assert sum(fr.values()) == 1
    assert fr["punter_win"] == fr["banker_win"]  # SPEC §7: a single tableau is symmetric
    assert Fraction(1, 10) < fr["push"] < Fraction(1, 3)


def test_odds_club_counts_match_brute_force_on_a_small_shoe():
    # 2 ranks x 2 suits... the shrunken shoe: ranks 2..5 in spades and hearts, twice; two
    # cards a tableau. Every turned card, every banker pair, every punter pair.
    ranks, suits, copies, tableau = 4, 2, 2, 2
    shoe = [s << 4 | r for _ in range(copies) for s in range(suits) for r in range(ranks)]
    ways = {D.BANKER: 0, D.PUSH: 0, D.PUNTER: 0}
    for ti, turned in enumerate(shoe):
        rest = shoe[:ti] + shoe[ti + 1:]
        for b in combinations(range(len(rest)), tableau):
            left = [c for i, c in enumerate(rest) if i not in b]
            bank = [rest[i] for i in b]
            for p in combinations(left, tableau):
                ways[D.duel(bank, p, turned >> 4)[0]] += 1
    total = sum(ways.values())
    want = {"punter_win": Fraction(ways[D.PUNTER], total), "push": Fraction(ways[D.PUSH], total),
            "banker_win": Fraction(ways[D.BANKER], total)}
    assert club_count.odds(D.solve, ranks=ranks, suits=suits, copies=copies, tableau=tableau) == want


# ---- the table --------------------------------------------------------------------------------
def test_table_club_streams_reproducible_consistent_records():
    args = ("table", "--game", "club", "--deals", "60", "--seed", "11", "--json")
    a, b = run(*args), run(*args)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    records = [json.loads(line) for line in a.stdout.splitlines()]
    assert [r["deal"] for r in records] == list(range(1, 61))
    total = None
    for r in records:
        assert len(r["tableaux"]) == 4 and all(len(t) == 4 for t in r["tableaux"])
        tabs = [parse_list(" ".join(t)) for t in r["tableaux"]]
        trump = parse(r["trump"]) >> 4
        assert r["results"] == [D.RESULT_NAMES[D.duel(tabs[0], t, trump)[0]] for t in tabs[1:]]
        assert all(1 <= t <= 3 and a >= 1 for _s, t, a in r["stakes"])
        money = sum(r["balances"]) + r["bank"] + r["house"]
        total = total or money
        assert money == total and min(r["balances"]) >= 0  # conserved, never below zero
    assert any(r["bank_events"] for r in records[1:])  # the bank moves on
    # the emulated shoe shows its cut card 52-78 cards deep: that deal ends the talia
    cuts = [i for i, r in enumerate(records) if r.get("cut")]
    assert len(cuts) >= 8
    for i, r in enumerate(records[1:], 1):
        assert r["talia"] == records[i - 1]["talia"] + (1 if i - 1 in cuts else 0)
    for a, b in zip([-1] + cuts, cuts):
        assert 4 <= b - a <= 5  # 52..78 cards deep: the 4th or 5th deal of 17


def test_table_club_default_run_is_watchable(capsys):
    assert main(["table", "--game", "club", "--seed", "3", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    for text in ("club écarté", "takes the bank", "lays a limited bank", "Trump turned", "Tableau 2:",
                 "Balances:", "passes the bank"):
        assert text in out, text


# ---- simulate ---------------------------------------------------------------------------------
def seats_of(stdout):
    return json.loads(stdout)["seats"]


def test_simulate_club_reports_rtp_with_confidence_and_ignores_the_worker_count():
    one = run("simulate", "--game", "club", "--rounds", "12000", "--seed", "5", "--json")
    two = run("simulate", "--game", "club", "--rounds", "12000", "--seed", "5", "--workers", "2", "--json")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    r = json.loads(one.stdout)
    assert r["rounds"] == 12000 and "tableau" in r["staking"]
    assert seats_of(one.stdout) == seats_of(two.stdout)
    for s in r["seats"]:
        lo, hi = s["ci95"]
        assert lo < s["rtp"] < hi and hi - lo < 0.1
        assert s["returned"] == round(s["rtp"] * s["staked"])
    punters = sum(s["returned"] - s["staked"] for s in r["seats"])
    assert punters + sum(s["banker_net"] for s in r["seats"]) + r["house"] == 0
    other = run("simulate", "--game", "club", "--rounds", "12000", "--seed", "6", "--json")
    assert seats_of(other.stdout) != seats_of(one.stdout)


def test_simulate_club_on_a_dask_local_cluster_matches_the_local_run():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://",
                      host="127.0.0.1", dashboard_address=None) as cluster:
        p = run("simulate", "--rounds", "11000", "--seed", "8", "--json", "--scheduler",
                cluster.scheduler_address, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["backend"] == "dask"
    local = run("simulate", "--rounds", "11000", "--seed", "8", "--json")
    assert seats_of(p.stdout) == seats_of(local.stdout)


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_simulate_shows_a_progress_bar_on_a_terminal(monkeypatch, capsys):
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["simulate", "--rounds", "12000", "--seed", "1"]) == 0
    bar = err.getvalue()
    assert "12000/12000" in bar and "deals" in bar and "\n" in bar
    assert "RTP" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--rounds", "10", "--scheduler", "nonsense://x"], "unknown address scheme"),
    (["--rounds", "0"], "at least 1"),
    (["--rounds", "many"], "whole number"),
    (["--rounds", "10", "--workers", "0"], "at least 1"),
    (["--rounds", "10", "--game", "poker"], "invalid choice"),
    (["--rounds", "10", "--seed", "-4"], "seed"),
])
def test_simulate_bad_input_exits_2(args, message):
    p = run("simulate", *args, "--json")
    assert p.returncode == 2 and message in p.stderr
