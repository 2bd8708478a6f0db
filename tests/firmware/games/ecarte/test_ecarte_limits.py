# The supervisor's stake limits at écarté (firmware/games/ecarte/limits.py, SPEC §8): only the
# supervisor (seat -2) sets them, as (who, stake, max_bet) of 0 to MOST units each; set before
# a game begins they are in force at once; a refusal changes nothing.
import pytest

from tapis.firmware.games.ecarte import limits
from tapis.firmware.games.ecarte.rules import Ecarte
from tapis.firmware.games.rules import IllegalAction


def test_limits_set_before_the_game_begins_are_in_force_at_once():
    g = Ecarte()
    assert g.wagers.locked is None
    events = g.apply(("limits", -2, ("sup", 5, 3)))
    assert events == (("limits", -2, ("sup", 5, 3)), ("in_force", -2, (5, 3)))
    assert (g.wagers.stake, g.wagers.max_bet, g.wagers.next) == (5, 3, None)


@pytest.mark.parametrize("seat, value, why", [
    (0, ("sup", 5, 3), "supervisor's"),
    (-2, (5, 3), "(who, stake, max_bet)"),
    (-2, ("sup", limits.MOST + 1, 3), "not %d" % (limits.MOST + 1)),
    (-2, ("sup", 5, -1), "not -1"),
    (-2, ("sup", True, 3), "not True"),
])
def test_a_seat_a_bad_shape_or_an_amount_out_of_range_is_refused_and_changes_nothing(seat, value, why):
    g = Ecarte()
    before = (g.wagers.stake, g.wagers.max_bet, list(g.log))
    with pytest.raises(IllegalAction) as e:
        g.apply(("limits", seat, value))
    assert why in str(e.value)
    assert (g.wagers.stake, g.wagers.max_bet, list(g.log)) == before


def test_the_most_is_accepted():
    g = Ecarte()
    g.apply(("limits", -2, ("sup", limits.MOST, 0)))
    assert (g.wagers.stake, g.wagers.max_bet) == (limits.MOST, 0)
