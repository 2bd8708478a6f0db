# The bots at three strengths (each kit's BOTS: random legal play, rules of thumb, the
# advisor): each plays whole deals of its game, on the rules alone and on the emulated
# table through the controller, without a press the table refuses; a stronger level
# scores measurably more than random play; --bots chooses them per seat in `tapis table`.
import pytest

from tapis.cython_core.twins import evaluate
from tapis.host.cli import main
from tapis.simulator import kits
from tapis.simulator.montecarlo.direct import DirectTable
from tapis.simulator.table.emulated import EmulatedTable

DEALS = {"ecarte": 12, "piquet": 6, "club": 40}


def test_every_game_has_the_three_strengths_weakest_first():
    for game in kits.GAMES:
        assert kits.levels(game) == ("random", "rules", "advisor")
    with pytest.raises(ValueError, match="no bots of strength 'genius'"):
        kits.bot("piquet", "genius")


@pytest.mark.parametrize("game", kits.GAMES)
@pytest.mark.parametrize("level", ["random", "rules", "advisor"])
def test_each_strength_plays_whole_deals_with_no_refused_press(game, level):
    seats = 4 if game == "club" else 2
    for seed in (1, 2):
        m = DirectTable(seed, game, evaluator=evaluate, players=[kits.bot(game, level) for _ in range(seats)])
        m.run_deals(DEALS[game])
        assert m.game.finished_deals() >= DEALS[game]
        assert sum(m.refused) == 0, "%s %s: the table refused %r" % (game, level, m.refused)
        assert m.presses > 0


@pytest.mark.parametrize("game", kits.GAMES)
def test_mixed_strengths_on_the_emulated_table_through_the_controller(game):
    seats = 4 if game == "club" else 2
    levels = (["random", "advisor", "rules", "advisor"])[:seats]
    sim = EmulatedTable(5, game, evaluator=evaluate, players=[kits.bot(game, lv) for lv in levels])
    sim.run_deals(3)
    assert sim.game.finished_deals() >= 3


def _points(game, levels, deals, seed):
    m = DirectTable(seed, game, evaluator=evaluate, players=[kits.bot(game, lv) for lv in levels])
    m.run_deals(deals)
    got = [0, 0]
    for kind, seat, value in m.game.log:
        if kind == "score" and seat in (0, 1):
            got[seat] += value[0]
    return got


@pytest.mark.parametrize("game,deals", [("ecarte", 40), ("piquet", 6)])
def test_rules_of_thumb_outscore_random_play_seats_swapped(game, deals):
    """Over a few sessions, seats swapped: the edge is many standard errors wide
    (benchmarks/bots.py measures it: about +0.56 points a deal at écarté, +34 at piquet)."""
    edge = 0
    for seed in range(1, 4):
        a = _points(game, ["rules", "random"], deals, seed)
        b = _points(game, ["random", "rules"], deals, seed)
        edge += (a[0] - a[1]) + (b[1] - b[0])
    assert edge > {"ecarte": 0.2, "piquet": 15}[game] * deals * 6


def test_table_bots_per_seat_and_bad_levels(capsys):
    assert main(["table", "--game", "piquet", "--seed", "2", "--deals", "1",
                 "--bots", "0=advisor,1=random", "--json"]) == 0
    assert capsys.readouterr().out.count("\n") == 1  # one deal's record
    assert main(["table", "--bots", "genius"]) == 2
    assert "no bots of strength 'genius'" in capsys.readouterr().err
    assert main(["table", "--bots", "7=random"]) == 2
    assert "seats 0 to 1, not 7" in capsys.readouterr().err


def _edge(game, sessions, deals):
    """benchmarks/bots.py's measure: the advisor's points a deal over the rules of thumb's,
    seats swapped, a session a seed: (mean, standard deviation) over the sessions."""
    import math
    diffs = []
    for seed in range(2001, 2001 + sessions):
        a = _points(game, ["advisor", "rules"], deals, seed)
        b = _points(game, ["rules", "advisor"], deals, seed)
        diffs.append(((a[0] - a[1]) + (b[1] - b[0])) / (2 * deals))
    m = sum(diffs) / len(diffs)
    return m, math.sqrt(sum((d - m) ** 2 for d in diffs) / (len(diffs) - 1))


@pytest.mark.slow
@pytest.mark.parametrize("game,sessions,deals", [("ecarte", 30, 50), ("piquet", 10, 12)])
def test_the_advisor_outscores_the_rules_of_thumb(game, sessions, deals):
    """benchmarks/bots.py's measure, its 95% interval clear of 0 (écarté about +0.05
    points a deal, piquet about +5): a long run, opt-in with -m slow."""
    import math
    m, sd = _edge(game, sessions, deals)
    assert m - 1.96 * sd / math.sqrt(sessions) > 0, (m, sd)


def test_the_advisors_measure_runs_on_a_few_deals():
    """make test's case of the slow measure (issue 48.3): two sessions of three écarté deals,
    an edge within the 3 points a deal can make (a vole and the king)."""
    m, sd = _edge("ecarte", 2, 3)
    assert abs(m) <= 3 and sd >= 0
