# The club écarté bank's life and its money (firmware/games/club/bank.py, SPEC §4 "Limited
# bank", "Responsible bank", "Rotation and accounting"; SPEC §8: the supervisor's actions).
import pytest

from tapis.firmware.games.club import bank
from tapis.firmware.games.club import events as CE
from tapis.firmware.games.club import rules as R
from tapis.firmware.games.rules import IllegalAction
from club_driver import deal


def new(**kw):
    return R.Club(R.Options(**kw))


def accounts(g):
    return sum(g.balances) + g.bank + g.table_money + g.house


def test_the_rules_bank_through_this_mixin():
    assert issubclass(R.Club, bank.Banking)


def test_every_movement_of_money_is_a_move_event_and_money_is_kept():
    g = new(seats=3, bank=20, minimums=(0, 0))
    total = accounts(g)
    g.apply(("lay", 0, None))
    assert ("move", 0, (0, CE.BANKS, 20)) in g.log and g.bank == 20 and g.balances[0] == 80
    g.apply(("stake", 1, (1, 5)))
    assert ("move", 1, (1, CE.TABLE, 5)) in g.log and g.table_money == 5
    g.apply(("skip", 2, None))
    deal(g, banker="9", t1="A")  # the punter's ace beats the bank's nine
    assert g.table_money == 0 and accounts(g) == total
    # the balances rebuilt from the moves alone are the balances kept
    acct = {s: 100 for s in range(3)}
    for kind, _seat, value in g.log:
        if kind == "move":
            src, dst, amount = value
            acct[src] = acct.get(src, 0) - amount
            acct[dst] = acct.get(dst, 0) + amount
    assert [acct[s] for s in range(3)] == g.balances and acct[CE.BANKS] == g.bank
    assert acct.get(CE.HOUSE, 0) == g.house


def test_a_passed_bank_takes_its_money_home_and_goes_to_the_next_seat():
    g = new(seats=3, bank=20, minimums=(0, 0))
    g.apply(("lay", 0, None))
    g.apply(("skip", 1, None))
    g.apply(("skip", 2, None))
    deal(g, cut=True)  # the talia ends: the banker chooses
    assert g.phase == R.BANK and g.to_act == 0
    g.apply(("pass", 0, None))
    assert g.bank == 0 and g.balances[0] == 100 and g.banker == 1
    assert ("banker", 1, None) in g.log and g.phase == R.BANK and g.to_act == 1


def test_only_the_supervisor_sets_limits_authorises_or_gives_the_bank():
    g = new(seats=3, bank=20, minimums=(0, 0))
    with pytest.raises(IllegalAction, match="that is the supervisor's"):
        g.verify(("limits", 0, ("sup", 30, 0, 0)))
    with pytest.raises(IllegalAction, match="takes \\(who, ...\\)"):
        g.verify(("limits", CE.SUP, ("sup", 30)))
    with pytest.raises(IllegalAction, match="not a whole number"):
        g.verify(("give", CE.SUP, ("sup", True)))
    with pytest.raises(IllegalAction, match="to another seat"):
        g.verify(("give", CE.SUP, ("sup", 0)))
    with pytest.raises(IllegalAction, match="needs no authorisation"):
        g.verify(("authorise", CE.SUP, ("sup", 1)))
    g.apply(("give", CE.SUP, ("sup", 2)))
    assert g.banker == 2 and g.to_act == 2


def test_limits_set_before_a_bank_is_laid_are_in_force_at_once_else_at_the_next_banker():
    g = new(seats=3, bank=20, minimums=(0, 0))
    g.apply(("limits", CE.SUP, ("sup", 30, 0, 0)))
    assert g.lim[0] == 30 and ("in_force", CE.SUP, (30, 0, 0)) in g.log
    g.apply(("lay", 0, None))
    assert g.bank == 30
    g.apply(("limits", CE.SUP, ("sup", 10, 0, 0)))
    assert g.lim[0] == 30 and g.pending == [10, 0, 0]  # this bank keeps its size
