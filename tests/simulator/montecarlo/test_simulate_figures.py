# The Monte Carlo's figures against what is known exactly: the intervals cover the true
# return to player as often as they say, a stronger bot wins what the weaker loses, and
# the same seed gives the same tallies whatever the number of workers.
import random

import pytest

from tapis.firmware.games import club as R
from tapis.host.cli import main
from tapis.simulator.montecarlo import stats
from tapis.simulator.montecarlo import club_session as CLUB
from tapis.simulator.montecarlo import club_sums as SUMS
from tapis.simulator.montecarlo import simulate as MC


def figures(report):
    return {k: v for k, v in report.items() if k not in ("workers", "backend")}


# ---- intervals that cover ---------------------------------------------------------------
def test_the_rtp_intervals_cover_the_exact_return_of_an_unbreakable_bank_95_times_in_100():
    """Club écarté without commission from a bank that never breaks: a single tableau is
    symmetric (SPEC §7), so every stake returns exactly 1 in expectation. 600 intervals
    of independent chunks of 2,000 deals; each covers 1 with probability 0.95, so the
    count lies in [551, 589] unless the intervals are wrong (±3.6 sd)."""
    o = R.Options(seats=4, balance=CLUB.BIG, bank=CLUB.BIG // 2)
    hit = total = 0
    rtps = []
    for k in range(150):
        sums = SUMS.Sums.from_list(CLUB.club_session(9, k, 2000, o))
        for row in SUMS.club_report(sums)["seats"]:
            lo, hi = row["ci95"]
            total += 1
            hit += lo <= 1 <= hi
            rtps.append(row["rtp"])
    assert total == 600
    assert 551 <= hit <= 589, hit / total
    assert abs(sum(rtps) / len(rtps) - 1) < 0.004  # the mean of the estimates is the exact 1


def test_a_limited_bank_pays_its_punters_less_than_they_stake():
    """A limited bank pays winners only what it holds (firmware/games/club), so a punter's
    return is below 1 even without commission, and the interval says so: a bank of 4
    against stakes of 2, 200,000 deals (the default bank of 15 costs less, about 0.4 %:
    docs/analysis.md). The same deals from an unbreakable bank return 1."""
    for bank, below in ((4, True), (CLUB.BIG // 2, False)):
        o = R.Options(seats=4, balance=CLUB.BIG, bank=bank, minimums=(2, 2))
        sums = SUMS.Sums.from_list(CLUB.club_session(5, 0, 200_000, o))
        for s in SUMS.club_report(sums)["seats"]:
            if below:
                assert 0.97 < s["rtp"] and s["ci95"][1] < 1 and s["house_edge_ci95"][0] > 0, s
            else:
                assert s["ci95"][0] <= 1 <= s["ci95"][1], s


def test_the_stakes_duels_are_won_pushed_and_lost_at_the_exact_odds_of_a_fresh_shoe():
    """Every deal of a shuffled shoe is dealt as from a fresh one (the cards are
    exchangeable), so a stake's duel is won, en carte or lost with `tapis odds club`'s
    exact probabilities. Over 300,000 deals each seat's rates are within 3.5 sd of them
    (Wilson's interval at z = 3.5: twelve figures, so not 95 % intervals, which would all
    cover only about half the time), and the report's 95 % intervals are Wilson's."""
    from tapis.cython_core import twins
    from tapis.host.odds import club_count

    exact = club_count.odds(twins.duel.solve)
    r, _ = MC.simulate("club", 300_000, 6)
    for key, rate, name in (("won", "win_rate", "punter_win"), ("pushed", "push_rate", "push"),
                            ("lost", "loss_rate", "banker_win")):
        p = float(exact[name])
        for s in r["seats"]:
            _k, (lo, hi) = stats.proportion(s[key], s["stakes"], z=3.5)
            assert lo <= p <= hi, (key, s)
            assert (s[rate], s[rate + "_ci95"]) == stats.proportion(s[key], s["stakes"])
    assert all(s["won"] + s["pushed"] + s["lost"] == s["stakes"] > 150000 for s in r["seats"])


def test_the_wilson_and_mean_intervals_cover_95_times_in_100():
    rng = random.Random(4)
    cover = {"proportion": 0, "mean": 0}
    for _ in range(2000):
        xs = [rng.random() < 0.3 for _ in range(60)]
        _p, (lo, hi) = stats.proportion(sum(xs), len(xs))
        cover["proportion"] += lo <= 0.3 <= hi
        ys = [rng.expovariate(1.0) for _ in range(60)]  # skewed, mean 1
        _m, (lo, hi) = stats.mean(len(ys), sum(ys), sum(y * y for y in ys))
        cover["mean"] += lo <= 1 <= hi
    assert 1860 <= cover["proportion"] <= 1960, cover  # Wilson's: near 95 % at n = 60
    assert 1820 <= cover["mean"] <= 1940, cover  # the normal interval, a little short on skew


# ---- bots of a strength per seat -------------------------------------------------------------
def test_simulate_refuses_a_strength_no_kit_has():
    with pytest.raises(ValueError, match="ecarte has no bots of strength 'nobody'; it has: random, rules, advisor"):
        MC.check({"game": "ecarte", "variant": None, "bots": ["nobody"]})


@pytest.mark.parametrize("bots", [["rules", "random"], ["random", "rules"]])
def test_the_rules_bot_takes_the_random_bots_money_at_piquet(bots):
    r, _ = MC.simulate("piquet", 30, 3, bots=bots)
    strong = bots.index("rules")
    rows = r["seats"]
    assert rows[strong]["ci95"][0] > 1 > rows[1 - strong]["ci95"][1]
    assert rows[strong]["points_per_deal"] > rows[1 - strong]["points_per_deal"]
    assert rows[strong]["net"] == -rows[1 - strong]["net"] > 0


def test_simulate_names_the_strengths_it_has(capsys):
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--game", "piquet", "--rounds", "2", "--bots", "expert"])
    assert e.value.code == 2
    assert "piquet has no bots of strength 'expert'; it has: random, rules, advisor" in capsys.readouterr().err


# ---- the same tallies for any number of workers ------------------------------------------------
@pytest.mark.parametrize("game, rounds, chunk, bots", [
    ("club", 23000, 5000, ["rules"]),
    ("club", 900, 200, ["random", "rules", "random", "rules"]),
    ("ecarte", 15, 5, ["random", "rules"]),
])
def test_the_same_seed_gives_the_same_tallies_on_one_two_or_three_workers(game, rounds, chunk, bots):
    runs = [MC.simulate(game, rounds, 21, workers=w, chunk=chunk, bots=bots, trace=3)[0] for w in (1, 2, 3)]
    assert [r["workers"] for r in runs] == [1, 2, 3]
    assert figures(runs[0]) == figures(runs[1]) == figures(runs[2])
    assert runs[0]["rounds"] == rounds and runs[0]["chunks"] == -(-rounds // chunk) >= 3
    other = MC.simulate(game, rounds, 22, chunk=chunk, bots=bots)[0]
    assert other["seats"] != runs[0]["seats"]


# ---- CSV: every figure of the JSON, a column each ------------------------------------------------
@pytest.mark.parametrize("game, rounds, bots", [("ecarte", 12, ["rules", "random"]), ("piquet", 4, ["rules"]),
                                               ("club", 6000, ["rules"])])
def test_the_csv_has_a_column_for_every_figure_of_the_json(game, rounds, bots):
    import csv
    import io

    from tapis.host.commands import simulate as cmd

    report, _ = MC.simulate(game, rounds, 4, bots=bots)
    out = io.StringIO()
    cmd.write_csv(report, out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(rows) == len(report["seats"]) == len(report["bots"])
    need = {"game", "unit", "rounds", "seed", "variant", "bot", "seat", "staked", "returned", "rtp",
            "ci95_low", "ci95_high", "house_edge", "house_edge_ci95_low", "house_edge_ci95_high"}
    if game != "club":
        need |= {"win_rate", "win_rate_ci95_low", "win_rate_ci95_high", "points_per_deal",
                 "points_per_deal_ci95_low", "points_per_deal_ci95_high", "deal_win_rate", "net"}
    assert need <= set(rows[0])
    for row, seat in zip(rows, report["seats"]):
        want = cmd.flat(seat)
        assert set(row) == set(want) | {"game", "unit", "rounds", "seed", "variant", "bot"}
        for k, v in want.items():
            assert row[k] == ("" if v is None else str(v)), k
        assert row["bot"] == report["bots"][seat["seat"]] and row["game"] == game
        assert row["rounds"] == str(rounds) and row["unit"] == report["unit"]


def test_random_bots_on_a_dask_cluster_play_as_they_do_here():
    """The random bots' coins are seeded per chunk, whichever worker thread plays it."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=2, processes=False, protocol="tcp://",
                      host="127.0.0.1", dashboard_address=None) as cluster:
        there, backend = MC.simulate("club", 800, 5, scheduler=cluster.scheduler_address, chunk=100,
                                     bots=["random", "rules", "random", "rules"])
    here, _ = MC.simulate("club", 800, 5, chunk=100, bots=["random", "rules", "random", "rules"])
    assert backend == "dask" and figures(there) == figures(here)
    assert sum(s["stakes"] for s in here["seats"]) > 1000
