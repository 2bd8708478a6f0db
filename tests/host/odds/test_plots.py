# --plot: the exact splits the odds plots draw (host/odds/split.py) against the totals
# `tapis odds` prints and a brute force, and the three commands writing their figures.
import json
import struct
import subprocess
import sys
from itertools import combinations

import pytest

from tapis.cython_core.twins import ecarte_solver
from tapis.firmware.cards import parse, parse_list, suit
from tapis.firmware.offboard.deck import deck32
from tapis.host.odds import club_count, split as odds_split
from tapis.cython_core import twins

TAPIS = [sys.executable, "-m", "tapis"]
FOSTER = (parse_list("7H,KS,QS,JS,7D"), parse("8H"))  # seed 002's jeu de règle: 44,724


def run(*args):
    return subprocess.run(TAPIS + list(args), capture_output=True, text=True, timeout=300)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


@pytest.mark.parametrize("hand, turned", [FOSTER, (parse_list("KH,QH,7S,8D,9C"), parse("TH")),
                                          (parse_list("AS,KD,QD,8C,7C"), parse("JS"))])
def test_the_ecarte_split_adds_up_to_the_odds_and_the_dealers_trumps(hand, turned):
    rows = odds_split.ecarte_by_trumps(hand, turned)
    assert [r[0] for r in rows] == list(range(6))
    assert tuple(r[1] for r in rows) == ecarte_solver.dealer_trumps(hand, turned)
    total, wins, voles = ecarte_solver.odds(hand, turned, True)
    assert (sum(r[1] for r in rows), sum(r[2] for r in rows), sum(r[3] for r in rows)) == (total, wins, voles)


@pytest.mark.parametrize("hand, turned, ks", [FOSTER + ((4, 5),), (parse_list("KH,QH,JH,AS,KS"), parse("7H"), (3, 4))])
def test_the_ecarte_split_is_the_brute_force_where_the_dealer_is_strong_in_trumps(hand, turned, ks):
    unseen = [c for c in deck32() if c not in hand and c != turned]
    rows = odds_split.ecarte_by_trumps(hand, turned)
    for k in ks:  # every dealer hand holding k trumps, solved one by one
        hands = [o for o in combinations(unseen, 5) if sum(1 for c in o if suit(c) == suit(turned)) == k]
        assert (rows[k][1], rows[k][2], rows[k][3]) == ecarte_solver.odds_against(hand, turned, hands, True)
    assert len({(r[2] / r[1], r[3] / r[1]) for r in rows if r[1]}) > 2  # the chances change with the trumps


def test_the_club_split_adds_up_to_the_exact_odds_and_is_symmetric():
    split = odds_split.club_by_pattern()
    o = club_count.odds(twins.duel.solve)
    assert sum(v[0] for v in split.values()) == o["punter_win"]
    assert sum(v[1] for v in split.values()) == o["push"]
    assert sum(v[2] for v in split.values()) == o["banker_win"]
    assert set(split) == {(i, j) for i in range(5) for j in range(5)}
    for (i, j), v in split.items():  # the side with the highest trump leads, whoever it is
        assert v[0] == split[(j, i)][2] and v[1] == split[(j, i)][1]
    assert split[(0, 0)][0] == split[(0, 0)][2] == 0 < split[(0, 0)][1]  # no trumps: en carte
    assert all(v[1] == 0 for (i, j), v in split.items() if (i == 0) != (j == 0))  # one side bare: no push


def test_the_club_split_on_a_small_shoe_is_the_brute_force():
    """Three ranks, two suits, one copy, tableaux of 2: every deal counted by hand."""
    from tapis.firmware.games.club import duel as D

    ranks, suits, tableau = 3, 2, 2
    split = {}
    club_count.counts(twins.duel.solve, ranks=ranks, suits=suits, copies=1, tableau=tableau, split=split)
    pack = [(r, s) for s in range(suits) for r in range(ranks)]
    want = {}
    for t_rank in range(ranks):
        turned = (t_rank, 0)  # trumps are suit 0
        rest = [c for c in pack if c != turned]
        for b in combinations(rest, tableau):
            left = [c for c in rest if c not in b]
            for p in combinations(left, tableau):
                bt = sorted((r for r, s in b if s == 0), reverse=True)
                pt = sorted((r for r, s in p if s == 0), reverse=True)
                d = D.solve(pattern(bt, pt))
                w = want.setdefault((len(bt), len(pt)), [0, 0, 0])
                w[1 if d == 0 else (2 if d > 0 else 0)] += 1
    assert {k: v for k, v in split.items() if any(v)} == want and len(want) > 4


def pattern(banker, punter):
    """The duel's pattern: the remaining trumps high to low, 1 for the banker's, under a leading 1."""
    code = 1
    b, p = list(banker), list(punter)
    for r in sorted(set(b) & set(p), reverse=True):
        b.remove(r)
        p.remove(r)
    for r in sorted(b + p, reverse=True):
        code = code << 1 | (1 if r in b else 0)
    return code


def test_odds_ecarte_plot_draws_the_split_and_says_so(tmp_path):
    out = tmp_path / "ecarte.png"
    p = run("odds", "ecarte", "--hand", "7H,KS,QS,JS,7D", "--turned", "8H", "--plot", str(out), "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["wins"] == 44724 and r["plot"] == str(out)
    assert [x["trumps"] for x in r["by_dealer_trumps"]] == list(range(6))
    assert sum(x["wins"] for x in r["by_dealer_trumps"]) == 44724
    w, h = png_size(out)
    assert w > 600 and h > 300 and out.stat().st_size > 15000
    text = run("odds", "ecarte", "--hand", "7H,KS,QS,JS,7D", "--turned", "8H", "--plot", str(out))
    assert "plot: " + str(out) in text.stdout


def test_odds_club_plot_draws_the_outcomes_by_trumps(tmp_path):
    out = tmp_path / "club.png"
    p = run("odds", "club", "--plot", str(out), "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["punter_win"]["fraction"] == "102970087961/252171840900" and len(r["by_trumps"]) == 25
    assert png_size(out)[0] > 600 and out.stat().st_size > 20000


def test_simulate_plot_draws_the_rtp_convergence(tmp_path):
    out = tmp_path / "rtp.png"
    p = run("simulate", "--game", "club", "--rounds", "30000", "--seed", "1", "--plot", str(out), "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["plot"] == str(out) and "trace" not in r
    assert png_size(out)[0] > 600 and out.stat().st_size > 20000


@pytest.mark.parametrize("args, message", [
    (["odds", "ecarte", "--all", "--plot", "x.png"], "--plot goes with --hand and --turned"),
    (["odds", "ecarte", "--hand", "7H,KS,QS,JS,7D", "--turned", "8H", "--plot", "/no/such/x.png"], "no folder"),
    (["odds", "club", "--plot", "club.jpeg"], "a plot is a .png"),
])
def test_a_plot_that_cannot_be_written_is_refused_first(args, message):
    p = run(*args)
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr


# ---- what the figures draw: the figures' own data, read back from matplotlib's artists ------------
@pytest.fixture
def drawn(monkeypatch):
    from tapis.host import plot

    figs = []
    monkeypatch.setattr(plot, "_save", lambda fig, path: figs.append(fig))
    return figs


def test_the_rtp_plot_draws_each_seats_trace_and_its_band(drawn):
    from tapis.host import plot
    from tapis.simulator.montecarlo import simulate as MC

    report, _ = MC.simulate("club", 40000, 2, trace=8)
    plot.rtp_convergence(report, "x.png")
    ax = drawn[0].axes[0]
    assert len(ax.lines) == 4 + 1  # a line a seat and RTP = 1
    rounds = [p["rounds"] for p in report["trace"]]
    for s in range(4):
        line = ax.lines[s]
        assert list(line.get_xdata()) == rounds == [5000 * (i + 1) for i in range(8)]
        assert list(line.get_ydata()) == [p["seats"][s][0] for p in report["trace"]]
        assert line.get_ydata()[-1] == report["seats"][s]["rtp"]
        band = ax.collections[s].get_paths()[0].vertices
        lo, hi = zip(*(p["seats"][s][1] for p in report["trace"]))
        assert band[:, 1].min() == pytest.approx(min(lo)) and band[:, 1].max() == pytest.approx(max(hi))
    assert list(ax.lines[4].get_ydata()) == [1.0, 1.0]


def test_the_ecarte_plot_draws_the_exact_odds_by_the_dealers_trumps(drawn):
    from tapis.host import plot

    split = odds_split.ecarte_by_trumps(*FOSTER)
    plot.ecarte_by_trumps(split, "7H,KS,QS,JS,7D", "8H", "x.png")
    ax = drawn[0].axes[0]
    points, voles = ax.containers
    rows = [r for r in split if r[1]]
    assert [b.get_height() for b in points] == [r[2] / r[1] for r in rows]
    assert [b.get_height() for b in voles] == [r[3] / r[1] for r in rows]
    assert points[0].get_height() == 1.0 and points[1].get_height() == 1.0  # 0 and 1 trumps: every hand
    assert ax.lines[0].get_ydata()[0] == 44724 / 65780


def test_the_club_plot_stacks_each_patterns_outcomes_to_one_and_their_weights_to_one(drawn):
    from tapis.host import plot

    split = odds_split.club_by_pattern()
    plot.club_by_pattern(split, "x.png")
    top, bottom = drawn[0].axes
    wins, pushes, losses = top.containers
    for w, p, l in zip(wins, pushes, losses):
        assert w.get_height() + p.get_height() + l.get_height() == pytest.approx(1)
    assert sum(b.get_height() for b in bottom.containers[0]) == pytest.approx(1)
    assert len(wins) == 25
