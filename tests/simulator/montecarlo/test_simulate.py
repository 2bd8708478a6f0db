# tapis simulate for écarté, piquet and club: the direct table against the emulated one,
# what the tallies count against what the rules engine did with the money, the same figures
# for any worker count and on Dask, streaming, Ctrl-C, and the command's outputs.
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers import within
from tapis.cython_core import twins
from tapis.firmware.games import find
from tapis.firmware.offboard import named
from tapis.host.cli import main
from tapis.host.commands import simulate as cmd
from tapis.simulator import kits
from tapis.simulator.montecarlo import stats, tallies
from tapis.simulator.montecarlo import bot_session as BS
from tapis.simulator.montecarlo import chunks as CH
from tapis.simulator.montecarlo import club_sums as SUMS
from tapis.simulator.montecarlo import simulate as MC
from tapis.simulator.montecarlo.direct import DirectTable
from tapis.simulator.table.emulated import EmulatedTable

TAPIS = [sys.executable, "-m", "tapis"]
GAMES = {"ecarte": 6, "piquet": 3, "club": 12}  # deals to compare, per game


def run(*args, timeout=300):
    return subprocess.run(TAPIS + list(args), capture_output=True, text=True, timeout=timeout)


# ---- the direct table ----------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [3, 8])
def test_the_direct_table_plays_the_emulated_tables_game_event_for_event(game, seed):
    """On a pipe per device (wires=False): on the polled bus two seats that may act at once
    (a king announced while the other seat plays) are taken in the order they are polled,
    a legal game but not always the same order as the direct table's."""
    n = GAMES[game]
    emulated = EmulatedTable(seed, game, evaluator=twins.evaluate, wires=False)
    emulated.run_deals(n)
    direct = DirectTable(seed, game, evaluator=twins.evaluate)
    direct.run_deals(n)
    assert len(direct.game.log) > 30 * n
    assert direct.game.log == emulated.game.log


class Spy:
    """A rules bot that checks what it is shown is its seat's display view, decoded, and
    then spoils its copy: the game must not notice."""

    def __init__(self, game, seat, table):
        self.bot, self.seat, self.table, self.shown = kits.find(game).Bot(), seat, table, 0

    def presses(self, view):
        assert view == json.loads(json.dumps(self.table[0].table.view(self.seat)))
        out = self.bot.presses(view)
        self.shown += 1
        for v in view.values():
            if isinstance(v, list):
                v.clear()
        return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_bot_sees_its_seats_view_only_and_a_copy_of_it(game):
    n = GAMES[game]
    holder = []
    seats = find(game).Table(kits.find(game).new_game()).SEATS
    spies = [Spy(game, s, holder) for s in range(seats)]
    spied = DirectTable(5, game, evaluator=twins.evaluate, players=spies)
    holder.append(spied)
    spied.run_deals(n)
    plain = DirectTable(5, game, evaluator=twins.evaluate)
    plain.run_deals(n)
    assert all(s.shown > n for s in spies)
    assert spied.game.log == plain.game.log


def test_a_table_no_bot_moves_is_reported_stalled():
    from tapis.simulator.table.emulated import StalledTable

    class Idle:
        def presses(self, view):
            return []

    t = DirectTable(1, "ecarte", players=[Idle(), Idle()])
    with pytest.raises(StalledTable, match="no bot acts"):
        t.run_deals(1)


# ---- the tallies against the engine's money ----------------------------------------------------
def play(game, seed, rounds, variant=None, keep=True):
    """A direct table run as a chunk is, and its tally: (table, tally data)."""
    o = named.options(game, variant)
    rules = kits.find(game).new_game(o, twins.evaluate)
    seats = find(game).Table(rules).SEATS
    t = DirectTable(seed, game, rules=rules, keep_log=keep)
    tally = BS.TALLIES[game](seats)
    (t.run_deals if game == "club" else t.run_games)(rounds, tally.feed)
    return t, tally.result(rounds)


VARIANTS = {g: [None] + sorted(named.variants(g)) for g in ("ecarte", "piquet", "club")}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), variant=st.sampled_from(VARIANTS["ecarte"]), games=st.integers(1, 4))
def test_the_ecarte_tally_counts_the_engines_games_deals_and_money(seed, variant, games):
    t, d = play("ecarte", seed, games, variant)
    g = t.game
    log = g.log
    assert d["games"] == games == g.finished_games()
    assert d["deals"] == sum(1 for e in log if e[0] == "deal") - 1  # the last one has just begun
    assert sum(d["games_won"]) == games == sum(sum(v) for v in d["values"].values())
    assert sum(d["rubbers_won"]) == sum(1 for e in log if e[0] == "rubber")
    points = [sum(x["points"][s] for x in d["reasons"].values()) for s in range(len(d["points"]))]
    assert points == d["points"]
    scored = sum(e[2][0] for e in log if e[0] == "score")
    assert sum(d["points"]) == scored
    for s, m in enumerate(d["money"]):  # each seat's net is the balance the wagers hold
        assert m[2] - m[1] == g.wagers.balances[s]
    # no house: what was staked came back, but for pool écarté's pool still on the table
    assert sum(m[1] for m in d["money"]) == sum(m[2] for m in d["money"]) + g.wagers.pool
    report = tallies.ecarte_report(d)
    assert sum(r["net"] for r in report["seats"]) == -g.wagers.pool


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), variant=st.sampled_from(VARIANTS["piquet"]))
def test_the_piquet_tally_counts_the_engines_parties_and_rubicon_money(seed, variant):
    t, d = play("piquet", seed, 1, variant)
    g = t.game
    (winner, value, scores), = g.results
    assert d["games"] == 1 and d["deals"] == g.finished_deals()
    assert d["points"] == [sum(e[2][0] for e in g.log if e[0] == "score" and e[1] == s) for s in (0, 1)]
    if winner < 0:
        assert d["drawn"] == 1 and d["money"] == [[0] * 6, [0] * 6]
    else:
        assert d["games_won"][winner] == 1 and d["value_sum"][winner] == value
        assert [m[2] - m[1] for m in d["money"]] == [value if s == winner else -value for s in (0, 1)]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), variant=st.sampled_from(VARIANTS["club"]), deals=st.integers(1, 60))
def test_the_club_tally_of_the_table_bots_is_the_engines_money(seed, variant, deals):
    t, d = play("club", seed, deals, variant)
    g, o = t.game, t.game.options
    sums = d["sums"]
    assert d["house"] == g.house
    for s, row in enumerate(sums):  # stakes won and lost, and the bank's takings, are the balance
        bank = g.bank if s == g.banker else 0
        assert g.balances[s] + bank - o.balance == row[2] - row[1] + row[7]
    assert sum(r[6] for r in sums) == deals
    duels = {-1: 0, 0: 0, 1: 0}  # the duel of each stake, from the engine's log
    results = {}
    for kind, who, value in g.log:
        if kind == "result":
            results[who] = value[0]
        elif kind == "settle":
            duels[results[value[0]]] += 1
    assert [sum(r[k] for r in sums) for k in (8, 9, 10)] == [duels[-1], duels[0], duels[1]]
    assert all(sum(r[8:]) == r[0] for r in sums)
    report = SUMS.club_summary(d)
    assert sum(r["returned"] - r["staked"] + r["banker_net"] for r in report["seats"]) + report["house"] == 0


def test_a_tally_adds_up_whatever_the_order():
    a = {"n": 1, "l": [1, 2], "d": {"x": [1], "y": [[1, 2]]}}
    b = {"n": 2, "l": [3, 4], "d": {"x": [5], "z": [7]}}
    assert tallies.add(a, b) == tallies.add(b, a) == {"n": 3, "l": [4, 6], "d": {"x": [6], "y": [[1, 2]], "z": [7]}}


def test_the_intervals():
    assert stats.mean(0, 0, 0) == (None, None)
    m, (lo, hi) = stats.mean(4, 10, 30)  # 1, 2, 3, 4: variance 5/3
    assert m == 2.5 and hi - m == pytest.approx(stats.Z95 * (5 / 3 / 4) ** 0.5)
    p, (lo, hi) = stats.proportion(0, 10)
    assert p == 0 and lo == 0 and 0.2 < hi < 0.35  # Wilson's: not the empty normal interval
    r, ci = stats.ratio(3, 6, 6, 14, 14, 14)  # (1,1) (2,2) (3,3): no spread at all
    assert r == 1 and ci == [1, 1]
    assert stats.edge(1.02, [1.0, 1.04]) == (pytest.approx(-0.02), [pytest.approx(-0.04), 0.0])


# ---- the same figures, wherever the chunks run ------------------------------------------------------
def figures(report):
    return {k: v for k, v in report.items() if k not in ("workers", "backend")}


@pytest.mark.parametrize("game, rounds, chunk", [("ecarte", 25, 8), ("piquet", 16, 5)])  # 4 chunks, the last short
def test_the_same_seed_gives_the_same_figures_on_one_worker_or_two(game, rounds, chunk):
    one, b1 = MC.simulate(game, rounds, 11, chunk=chunk)
    two, b2 = MC.simulate(game, rounds, 11, workers=2, chunk=chunk)
    assert (b1, b2) == ("inline", "processes") and two["workers"] == 2
    assert figures(one) == figures(two)
    assert one["chunks"] == -(-rounds // chunk) > 2
    other, _ = MC.simulate(game, rounds, 12, chunk=chunk)
    assert other["seats"] != one["seats"]


def test_the_figures_on_a_dask_cluster_are_those_of_a_local_run():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=2, processes=False, protocol="tcp://",
                      host="127.0.0.1", dashboard_address=None) as cluster:
        there, backend = MC.simulate("ecarte", 36, 4, scheduler=cluster.scheduler_address, trace=3, chunk=10)
    assert backend == "dask"
    here, _ = MC.simulate("ecarte", 36, 4, trace=3, chunk=10)
    assert figures(there) == figures(here)


def test_the_trace_ends_at_the_report_and_is_the_same_on_two_workers():
    one, _ = MC.simulate("club", 40000, 2, trace=4)
    two, _ = MC.simulate("club", 40000, 2, workers=2, trace=4)
    assert one["trace"] == two["trace"]
    assert [p["rounds"] for p in one["trace"]] == [10000, 20000, 30000, 40000]
    assert one["trace"][-1]["seats"] == [[s["rtp"], s["ci95"]] for s in one["seats"]]


def test_the_chunks_are_a_stream_not_a_list():
    jobs = CH.chunks(10 ** 13)
    assert next(jobs) == (0, CH.CHUNK) and next(jobs) == (1, CH.CHUNK)
    assert list(CH.chunks(12001, 5000)) == [(0, 5000), (1, 5000), (2, 2001)]


def test_a_random_bot_draws_from_its_chunks_stream_and_plays_the_same_in_any_worker():
    import random

    spec = {"game": "club", "seed": 3, "bots": ["random"], "variant": None}
    random.seed(1)
    a = MC.run_chunk(spec, 0, 300)
    random.seed(99)  # the global random is not the bots' source
    b = MC.run_chunk(spec, 0, 300)
    assert a == b and a["sums"] != BS.table_session(dict(spec, bots=["rules"]), 0, 300)["sums"]


# ---- the command -----------------------------------------------------------------------------
@pytest.mark.parametrize("game, rounds", [("ecarte", 12), ("piquet", 12), ("club", 7000)])
def test_simulate_reports_every_game_in_json_and_csv(game, rounds):
    j = run("simulate", "--game", game, "--rounds", str(rounds), "--seed", "3", "--json")
    c = run("simulate", "--game", game, "--rounds", str(rounds), "--seed", "3", "--csv")
    assert j.returncode == 0 and c.returncode == 0, j.stderr + c.stderr
    r = json.loads(j.stdout)
    assert r["game"] == game and r["rounds"] == rounds and r["unit"] == cmd.ROUNDS[game]
    rows = list(csv.DictReader(io.StringIO(c.stdout)))
    assert len(rows) == len(r["seats"]) == len(r["bots"])
    for row, seat in zip(rows, r["seats"]):
        assert float(row["rtp"]) == seat["rtp"] and float(row["ci95_low"]) == seat["ci95"][0]
        assert float(row["house_edge"]) == pytest.approx(1 - seat["rtp"])
        assert row["bot"] == "rules" and int(row["staked"]) == seat["staked"]
    if game != "club":
        for s in r["seats"]:
            for k in ("win_rate", "deal_win_rate", "points_per_deal", "rtp"):
                lo, hi = s[k + "_ci95" if k != "rtp" else "ci95"]
                assert lo <= s[k] <= hi
        assert sum(s["games_won"] for s in r["seats"]) + r.get("drawn", 0) == rounds
        assert sum(s["net"] for s in r["seats"]) == 0


def test_simulate_says_one_round_in_the_singular():
    p = run("simulate", "--game", "ecarte", "--rounds", "1", "--seed", "2")
    assert p.returncode == 0, p.stderr
    assert "· 1 game (" in p.stdout and "1 games" not in p.stdout
    assert cmd.count(1, "deals") == "1 deal" and cmd.count(12000, "deals") == "12,000 deals"


def test_more_workers_than_chunks_are_not_started():
    p = run("simulate", "--game", "club", "--rounds", "10", "--workers", "8", "--seed", "1", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["workers"] == 1 and r["backend"] == "inline" and r["chunks"] == 1


@pytest.mark.parametrize("args, message", [
    (["--workers", "1000"], "--workers 1000: at most"),
    (["--bots", "rules,nobody"], "no bots of strength 'nobody'; it has: random, rules, advisor"),
    (["--bots", "rules,rules,rules"], "give one bot strength for all, or 2, got 3"),
    (["--bots", "rules,"], "names separated by commas"),
    (["--variant", "nope"], "no variant 'nope'"),
    (["--plot", "/no/such/folder/x.png"], "no folder"),
    (["--plot", "x.txt"], "a plot is a .png"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--workers goes without --scheduler"),
    (["--json", "--csv"], "not allowed with"),
])
def test_simulate_refuses_bad_input_with_one_line(args, message):
    p = run("simulate", "--game", "ecarte", "--rounds", "10", *args)
    assert p.returncode == 2 and message in p.stderr, p.stderr
    assert "Traceback" not in p.stderr


def test_simulate_without_matplotlib_names_the_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--rounds", "10", "--plot", "x.png"])
    assert e.value.code == 2
    assert "pip install 'tapis[plot]'" in capsys.readouterr().err


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_the_progress_bar_counts_in_the_games_unit_and_quiet_has_none(monkeypatch, capsys):
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["simulate", "--game", "piquet", "--rounds", "12", "--seed", "1"]) == 0
    bar = err.getvalue()
    assert "12/12" in bar and "parties" in bar and "parties/s" in bar
    err.seek(0)
    err.truncate()
    assert main(["simulate", "--game", "piquet", "--rounds", "12", "--seed", "1", "--quiet"]) == 0
    assert err.getvalue() == ""
    assert "RTP" in capsys.readouterr().out


def pgroup(pid):
    """{pid: resident KB} of the live (not zombie) processes of a process group."""
    out = subprocess.run(["ps", "-o", "pid=,stat=,rss=", "-g", str(pid)], capture_output=True, text=True).stdout
    return {int(p): int(rss) for p, stat, rss in (line.split() for line in out.splitlines()) if "Z" not in stat}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups and ps, as on Linux")
def test_ctrl_c_stops_a_run_of_ten_trillion_rounds_and_its_workers_at_once():
    p = subprocess.Popen(TAPIS + ["simulate", "--game", "club", "--rounds", "10000000000000", "--workers", "2",
                                  "--seed", "1", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as at a terminal
    try:
        within(60, lambda: len(pgroup(p.pid)) >= 3, "the command and its two workers")
        first = pgroup(p.pid)
        time.sleep(3)  # not a wait: the span over which the command must not grow
        later = pgroup(p.pid)
        assert later[p.pid] - first[p.pid] < 4096, (first, later)  # KB: no growth with the chunks
        t = time.monotonic()
        os.killpg(p.pid, signal.SIGINT)
        time.sleep(0.05)
        os.killpg(p.pid, signal.SIGINT)  # a second Ctrl-C while the workers are stopped
        out, err = p.communicate(timeout=20)
        took = time.monotonic() - t
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130 and took < 10
    assert "Traceback" not in err and "interrupted after" in err and "of 10,000,000,000,000 deals" in err
    r = json.loads(out)
    assert r["interrupted"] and r["asked"] == 10 ** 13 and 0 < r["rounds"] < 10 ** 13
    assert r["rounds"] % CH.CHUNK == 0 and sum(s["stakes"] for s in r["seats"]) > 0
    within(10, lambda: pgroup(p.pid) == {}, "no worker outliving the command")
