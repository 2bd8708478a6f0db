# Wagers (firmware/wagers.py, SPEC §4 "Gallery"): each player stakes per game x the game
# value; gallery seats back a player at even money x the game value, covered by the player
# backed against. Money is conserved in every state: unit, property and stateful tests,
# then the same through the engine and through the emulated table's panels and displays.
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tapis.firmware.offboard import deck
from tapis.firmware.offboard.rng import Seeded
from tapis.firmware.games.ecarte import rules as R
from tapis.firmware.games.ecarte.wagers import MAX_BET, Wagers
from tapis.simulator.table.emulated import EmulatedTable


def test_the_loser_pays_the_stake_times_the_game_value():
    w = Wagers(2, stake=5)
    assert w.settle(winner=1, loser=0, value=3) == [(0, 1, 15)]  # treble: the loser had 0
    assert w.balances == [-15, 15]
    w.settle(winner=0, loser=1, value=1)
    assert w.balances == [-10, 10]


def test_gallery_backs_a_player_at_even_money_times_the_game_value():
    w = Wagers(4, stake=1)
    w.place(2, 0, 3)  # seat 2 backs player 0 for 3
    w.place(3, 1, 2)  # seat 3 backs player 1 for 2
    w.lock((0, 1))
    got = w.settle(winner=0, loser=1, value=2)
    assert sorted(got) == sorted([(1, 0, 2), (1, 2, 6), (3, 0, 4)])
    assert w.balances == [2 + 4, -2 - 6, 6, -4] and sum(w.balances) == 0


def test_a_bet_placed_during_a_game_counts_from_the_next_game():
    w = Wagers(3)
    w.lock((0, 1))
    w.place(2, 1, 4)
    w.settle(1, 0, 1)
    assert w.balances == [-1, 1, 0]  # the bet was not locked for that game
    w.lock((0, 1))
    w.settle(1, 0, 1)
    assert w.balances == [-2 - 4, 2, 4]


@pytest.mark.parametrize("bettor, side, amount, players, why", [
    (0, 1, 1, (0, 1), "a player cannot back a side"),
    (2, 2, 1, (0, 1), "player 0 or 1"),
    (2, 0, MAX_BET + 1, (0, 1), "0 to %d units" % MAX_BET),
    (2, 0, -1, (0, 1), "0 to"),
    (7, 0, 1, (0, 1), "no account 7"),
])
def test_bad_bets_are_refused_with_a_reason(bettor, side, amount, players, why):
    assert why in Wagers(3).bet_error(bettor, side, amount, players)


@settings(max_examples=200, deadline=None)
@given(accounts=st.integers(2, 8), stake=st.integers(0, 10),
       games=st.lists(st.tuples(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 1),
                                                   st.integers(0, MAX_BET))),
                                st.integers(0, 1), st.sampled_from([1, 2, 3])), max_size=12))
def test_money_is_conserved_and_every_transfer_matches_a_stake_or_a_bet(accounts, stake, games):
    w = Wagers(accounts, stake)
    players = (0, 1)
    for bets, winner, value in games:
        for bettor, side, amount in bets:
            if w.bet_error(bettor, side, amount, players) is None:
                w.place(bettor, side, amount)
        w.lock(players)
        locked = list(w.locked)
        before = list(w.balances)
        out = w.settle(players[winner], players[1 - winner], value)
        assert sum(w.balances) == 0
        # the winner gains the stake and the bets against him lose to him: an independent sum
        expect = [0] * accounts
        expect[players[winner]] += stake * value
        expect[players[1 - winner]] -= stake * value
        for bettor, backed, against, amount in locked:
            sign = 1 if backed == players[winner] else -1
            expect[bettor] += sign * amount * value
            expect[against] -= sign * amount * value
        assert [b - a for a, b in zip(before, w.balances)] == expect
        assert all(amount >= 0 and payer != payee for payer, payee, amount in out)


class WagersMachine(RuleBasedStateMachine):
    """Bets placed and changed at any time, games locked and settled in any order."""

    @initialize(accounts=st.integers(2, 8), stake=st.integers(0, 5))
    def start(self, accounts, stake):
        self.w = Wagers(accounts, stake)
        self.in_game = False
        self.paid = 0  # total moved, to see that money moved at all

    @rule(bettor=st.integers(-1, 9), side=st.integers(-1, 2), amount=st.integers(-2, MAX_BET + 2))
    def place(self, bettor, side, amount):
        if self.w.bet_error(bettor, side, amount, (0, 1)) is None:
            self.w.place(bettor, side, amount)
        else:
            assert bettor in (0, 1) or not 0 <= bettor < len(self.w.balances) or \
                side not in (0, 1) or not 0 <= amount <= MAX_BET

    @precondition(lambda self: hasattr(self, "w") and not self.in_game)
    @rule()
    def a_game_starts(self):
        self.w.lock((0, 1))
        self.in_game = True

    @precondition(lambda self: hasattr(self, "w") and self.in_game)
    @rule(winner=st.integers(0, 1), value=st.sampled_from([1, 2, 3]))
    def the_game_ends(self, winner, value):
        for _payer, _payee, amount in self.w.settle(winner, 1 - winner, value):
            self.paid += amount
        self.in_game = False

    @invariant()
    def money_is_conserved(self):
        if hasattr(self, "w"):
            assert sum(self.w.balances) == 0


TestWagersMachine = WagersMachine.TestCase
TestWagersMachine.settings = settings(max_examples=60, stateful_step_count=40, deadline=None)


def drive_with_bets(seed, deals, gallery):
    """Random legal play; the gallery seats place random bets between actions."""
    g = R.Ecarte(R.Options(gallery=gallery, stake=2))
    rng = Seeded(seed)
    pack = []
    while g.deal_no <= deals:
        if rng.below(4) == 0:
            seat = 2 + rng.below(gallery)
            a = ("bet", seat, (rng.below(2), rng.below(MAX_BET + 1)))
            assert g.can(a)
            g.apply(a)
        elif g.to_act == R.CHANCE:
            if g.cards_due()[1]:  # a fresh pack: the cut, or a new deal
                pack = deck.shuffle(deck.deck32(), rng.below)
            g.apply(("shoe", R.CHANCE, pack[g.delivered]))
        else:
            acts = [a for a in g.legal_actions() if a[0] not in ("abandon", "claim")]
            g.apply(acts[rng.below(len(acts))])
        assert sum(g.wagers.balances) == 0
    return g


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(1, 4))
def test_the_engine_settles_each_game_and_conserves_money(seed, gallery):
    g = drive_with_bets(seed, 30, gallery)
    balances = [0] * (2 + gallery)
    for kind, seat, value in g.log:
        if kind == "pay":
            balances[seat] -= value[1]
            balances[value[0]] += value[1]
        elif kind == "balances":
            assert list(value) == balances
        elif kind == "game":
            pass
    assert balances == g.wagers.balances
    games = [e for e in g.log if e[0] == "game"]
    assert games, "no game was finished"
    # each game's first payment is the loser's stake x value to the winner
    for i, e in enumerate(g.log):
        if e[0] == "game":
            assert g.log[i + 1] == ("pay", 1 - e[1], (e[1], 2 * e[2]))


def test_gallery_bets_at_the_panels_and_balances_on_every_display():
    sim = EmulatedTable(5, options=R.Options(gallery=2, stake=1))
    checked = []

    def check(events):
        g = sim.game
        assert sum(g.wagers.balances) == 0
        for c in sim.consoles:
            if c.view is not None and c.view["balances"] != g.wagers.balances:
                return  # the displays are refreshed on the next step
        checked.append(list(g.wagers.balances))

    sim.run_games(3, check)
    g = sim.game
    assert [e for e in g.log if e[0] == "bet"], "no gallery seat placed a bet"
    assert any(e[0] == "pay" and (e[1] >= 2 or e[2][0] >= 2) for e in g.log)
    for _ in range(500):  # the last game's payments reach the displays on the next steps
        sim.step()
    check(())
    assert len(checked) > 100 and checked[-1] == g.wagers.balances
    for c in sim.consoles:  # every display shows the balances
        assert c.view["balances"] == g.wagers.balances
    assert sim.consoles[2].view["gallery"] and sim.consoles[2].view["bet"][1] > 0


def test_balances_in_the_json_records():
    p = subprocess.run([sys.executable, "-m", "tapis", "table", "--variant", "gallery",
                        "--seed", "4", "--deals", "60", "--json"], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    records = [json.loads(line) for line in p.stdout.splitlines()]
    balances = [0, 0, 0, 0]
    for r in records:
        for payer, payee, amount in r.get("payments", ()):
            balances[payer] -= amount
            balances[payee] += amount
        assert r["balances"] == balances and sum(r["balances"]) == 0
    assert any(r.get("payments") for r in records) and any(r.get("bets") for r in records)


def test_gallery_bets_placed_before_the_first_card_cover_game_1():
    """SPEC §4 "Gallery", 000:95 (issue 14.7): the gallery may bet from the first game on.
    A bet placed before the game's first card is dealt counts for that game (the bets are
    locked when the game's first card is dealt, after the cut); one placed after counts
    from the next. Before, game 1 was locked empty when the table was built."""
    from helpers import shoe

    g = R.Ecarte(R.Options(gallery=1), first_dealer=0)
    g.apply(("bet", 2, (0, 5)))  # the gallery seat backs seat 0, the dealer, for 5
    g.scores = [4, 0]
    shoe(g, "7S 8S 9D QH JH AH KC 8C KS 7C KH")  # the turned king: the dealer's fifth point
    assert ("game", 0, 3) in g.log  # treble: the loser had 0
    pays = [e for e in g.log if e[0] == "pay"]
    assert pays == [("pay", 1, (0, 3)), ("pay", 1, (2, 15))]
    assert g.wagers.balances == [3, -18, 15]
    # with the cut: a bet placed while the players cut is in, one placed later is not
    g = R.Ecarte(R.Options(gallery=1))
    g.apply(("bet", 2, (1, 4)))
    shoe(g, "7H KS")  # seat 1 deals
    assert g.wagers.locked is None  # not yet locked: nothing is dealt
    shoe(g, "8D")
    assert g.wagers.locked == [(2, 1, 0, 4)]
    g.apply(("bet", 2, (0, 6)))  # from the next game on
    assert g.wagers.locked == [(2, 1, 0, 4)] and g.wagers.standing == {2: (0, 6)}
