# Issue 33.5: every amount a person sets at a panel starts at the least allowed and stays in
# the allowed range as BET+ / BET- (tapis play's + - ] [) move it: club écarté's stakes (a
# punter's, under the limited bank's minimums or the responsible bank's means), écarté's
# gallery bets (0 to the largest bet), and the operator's limits (L doubles them: held to
# what the table takes). Piquet has no money at the table. Measured on main (f43841d): in club
# the stake amount started at 0 though the minimum was 6; + made it 1, and Enter was refused
# ("seat 1 may stake 6 to 15 now, not 1").
import pytest

from tapis.firmware.games import panel as B
from tapis.firmware.games.club import rules as CR
from tapis.firmware.games.club.table import ClubTable
from tapis.firmware.games.ecarte import rules as ER
from tapis.firmware.games.ecarte.table import EcarteTable


def club_at_stake(**kw):
    """A club game whose limited bank is laid: the first punter (seat 1) to stake."""
    g = CR.Club(CR.Options(**kw))
    t = ClubTable(g)
    g.apply(t.press(0, B.CONFIRM, 0))  # lay
    t.done(0)
    return g, t


def stake(g, t, seat):
    a = t.press(seat, B.CONFIRM, 0)
    g.apply(a)  # the rules take it: IllegalAction otherwise
    t.done(seat)
    return a


def test_a_club_stake_starts_at_the_minimum_and_enter_stakes_it():
    g, t = club_at_stake()
    assert g.stake_range(1) == (6, 15) and t.view(1)["range"] == [6, 15]
    assert t.view(1)["amount"] == 6  # was 0
    assert stake(g, t, 1) == ("stake", 1, (1, 6))
    assert t.view(2)["amount"] == 3  # the second punter's minimum
    t.press(2, B.BET_PLUS, 1)
    assert t.view(2)["amount"] == 4 and stake(g, t, 2) == ("stake", 2, (1, 4))


@pytest.mark.parametrize("presses, amount", [
    ([(B.BET_PLUS, 1)], 7),
    ([(B.BET_MINUS, 1)], 6),  # not below the minimum
    ([(B.BET_MINUS, 10), (B.BET_PLUS, 1)], 7),
    ([(B.BET_PLUS, 10)], 15),  # not above what may be staked (the bank)
    ([(B.BET_PLUS, 10), (B.BET_PLUS, 10), (B.BET_MINUS, 1)], 14),
    ([(B.BET_PLUS, 255)] * 3 + [(B.BET_MINUS, 10)], 6),
])
def test_club_plus_minus_keep_the_stake_in_range_and_it_is_taken(presses, amount):
    g, t = club_at_stake()
    for button, arg in presses:
        assert t.press(1, button, arg) is None
        lo, hi = t.view(1)["range"]
        assert lo <= t.view(1)["amount"] <= hi
    assert t.view(1)["amount"] == amount
    assert stake(g, t, 1) == ("stake", 1, (1, amount))


def test_club_an_amount_set_before_the_turn_is_held_to_the_range_at_it():
    g, t = club_at_stake()
    t.press(2, B.BET_PLUS, 1)  # the second punter, before his turn: 1 (0 to his balance then)
    assert t.view(2)["amount"] == 1
    stake(g, t, 1)
    assert t.view(2)["amount"] == 3  # his minimum now
    assert stake(g, t, 2) == ("stake", 2, (1, 3))


def test_club_without_a_minimum_the_amount_starts_at_1_and_refuse_sits_out():
    """Issue 46: a seat that may sit out still starts at the least stake (1), never at 0;
    sitting out is its own key, REFUSE."""
    g, t = club_at_stake(minimums=(0, 0))
    assert t.view(1)["range"] == [0, 15] and t.view(1)["amount"] == 1
    t.press(1, B.BET_MINUS, 1)
    assert t.view(1)["amount"] == 1
    assert t.press(1, B.REFUSE, 0) == ("skip", 1, None)
    g, t = club_at_stake(minimums=(0, 0))
    assert stake(g, t, 1) == ("stake", 1, (1, 1))


def test_club_a_stake_is_held_to_what_the_bank_holds():
    g, t = club_at_stake(balance=10, bank=8)
    assert t.view(1)["range"] == [6, 8] and t.view(1)["amount"] == 6
    t.press(1, B.BET_PLUS, 10)
    assert t.view(1)["amount"] == 8 and stake(g, t, 1) == ("stake", 1, (1, 8))


def gallery_table():
    g = ER.Ecarte(ER.Options(gallery=1))
    return g, EcarteTable(g)


def test_a_gallery_bet_starts_at_1_stays_1_to_the_largest_and_r_alone_withdraws_it():
    """Issue 46.6, the rule of every amount: a bet starts at the least (1), BET- holds it
    there, and sitting the next game out is its own key (REFUSE), as club's stakes."""
    g, t = gallery_table()
    most = g.wagers.max_bet
    assert t.press(2, B.BET_MINUS, 0) is None  # no bet: nothing to take back, no refusal
    assert t.press(2, B.REFUSE, 0) is None  # ... nor to withdraw
    g.apply(t.press(2, B.BET_PLUS, 0))
    assert g.wagers.standing[2] == (0, 1)  # the least
    for _ in range(most - 1):
        g.apply(t.press(2, B.BET_PLUS, 0))
    assert g.wagers.standing[2] == (0, most)
    assert t.press(2, B.BET_PLUS, 0) is None  # at the largest: stays (was refused: most + 1)
    g.apply(t.press(2, B.BET_MINUS, 10))  # ten at a time, as club's ] [
    assert g.wagers.standing[2] == (0, most - 10)
    g.apply(t.press(2, B.BET_PLUS, 255))
    assert g.wagers.standing[2] == (0, most)
    g.apply(t.press(2, B.BET_MINUS, 255))
    assert g.wagers.standing[2] == (0, 1)  # held at the least: BET- never sits the game out
    assert t.press(2, B.BET_MINUS, 0) is None
    t.press(2, B.SELECT, 2)  # the other player: a bet on him starts at the least too
    g.apply(t.press(2, B.BET_PLUS, 0))
    assert g.wagers.standing[2] == (1, 1)
    g.apply(t.press(2, B.REFUSE, 0))
    assert 2 not in g.wagers.standing  # withdrawn: the next game sat out


def test_the_play_keys_move_every_amount_by_1_and_by_10():
    from tapis.host.play import club, ecarte
    for ui in (club, ecarte):
        assert ui.KEYS["plus"][0] == B.BET_PLUS and ui.KEYS["minus"][0] == B.BET_MINUS
        assert ui.KEYS["right_square_bracket"] == (B.BET_PLUS, 10)
        assert ui.KEYS["left_square_bracket"] == (B.BET_MINUS, 10)


@pytest.mark.parametrize("game, most", [("ecarte", 999), ("club", 0xFFFF)])
def test_the_operators_limits_are_held_to_what_the_table_takes(game, most):
    """L doubles the limits in force; doubled past what the table takes (écarté: 999 units
    a stake or bet; club: two bytes on the wire) they are held there, not refused (or worse)."""
    from tapis.host.play.table import doubled_limits
    assert doubled_limits(game, [5, 20]) == [10, 40]
    assert doubled_limits(game, [most - 1, 3]) == [most, 6]
    assert doubled_limits(game, [most, most]) == [most, most]


def test_tapis_play_club_the_persons_stake_starts_at_the_minimum_and_is_taken():
    """tapis play --game club at seat 1: the person's display shows the minimum as the
    amount, and Enter alone stakes it (on main: 0 shown, + then Enter refused)."""
    from tapis.host.play.table import PlayTable
    t = PlayTable(2, "club", 1, pause_s=0)
    turn = lambda: (t.view() or {}).get("turn") and t.view()["phase"] == "stake"  # noqa: E731
    while not turn() and t.now < 200000:
        t.advance(100, turn)
    v = t.view()
    assert turn() and v["amount"] == v["range"][0] > 0, v
    t.panel.press(B.CONFIRM, 0)
    done = lambda: any(e[0] == "stake" and e[1] == 1 for e in t.game.log)  # noqa: E731
    while not done() and t.now < 400000:
        t.advance(100, done)
    assert ("stake", 1, (1, v["range"][0])) in t.game.log
    assert not t.view()["msg"] and t.controller.errors.get("input", 0) == 0
