# Club écarté rules (SPEC §4, seed 004): banks laid, broken, laid again, passed on;
# the responsible bank; rotation; money conserved and no balance below zero, checked by
# hypothesis over whole sessions; illegal actions refused without a trace.
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tapis.firmware.offboard import deck
from tapis.firmware.games import panel as B
from tapis.firmware.games.club import duel as D
from tapis.firmware.cards import parse_list
from tapis.firmware.games.rules import CHANCE, IllegalAction
from tapis.firmware.games.replay import inputs
from tapis.firmware.games.club import rules as R
from tapis.firmware.games.club import events as CE
from tapis.firmware.games.club.table import ClubTable
from tapis.simulator.montecarlo import club_session as CLUB
from tapis.simulator.kits.club.bots import ClubBot, bank_choice, stake_for
from club_driver import deal

def kinds(events):
    return [e[0] for e in events]


def snapshot(g):
    return {k: repr(v) for k, v in vars(g).items() if k not in ("options", "duel", "_out")}


def replay_moves(g):
    """Balances rebuilt from the log's money movements alone."""
    acct = {s: g.options.balance for s in range(g.options.seats)}
    for kind, _seat, value in g.log:
        if kind == "move":
            src, dst, amount = value
            acct[src] = acct.get(src, 0) - amount
            acct[dst] = acct.get(dst, 0) + amount
    return acct


def new(**kw):
    return R.Club(R.Options(**kw))


# ---- the limited bank --------------------------------------------------------------------
def test_the_first_two_punters_must_stake_the_minimum_on_the_first_card():
    g = new(seats=4, bank=15, minimums=(6, 3))
    g.apply(("lay", 0, None))
    assert g.stake_range(1) == (6, 15)
    with pytest.raises(IllegalAction, match="at least 6"):
        g.verify(("skip", 1, None))
    with pytest.raises(IllegalAction, match="6 to 15"):
        g.verify(("stake", 1, (1, 5)))
    g.apply(("stake", 1, (1, 6)))
    assert g.stake_range(2) == (3, 15)
    g.apply(("stake", 2, (2, 3)))
    assert g.stake_range(3) == (0, 15)  # the last punter stakes anything (seed 004:29)
    g.apply(("skip", 3, None))
    deal(g)  # no trumps anywhere: all en carte
    assert g.phase == R.STAKE and g.stake_range(1) == (0, 15)  # the minimum was for the first card


def test_a_broken_bank_leaves_later_punters_neither_winning_nor_losing():
    g = new(seats=4, bank=10, minimums=(0, 0))
    g.apply(("lay", 0, None))
    for s, t, a in ((1, 1, 10), (2, 2, 5), (3, 3, 7)):
        g.apply(("stake", s, (t, a)))
    ev = deal(g, banker="9", t1="A", t2="K", t3="2")  # punters 1, 2 beat the 9; 3 loses
    settles = [e for e in ev if e[0] == "settle"]
    assert [(e[1], e[2][2], e[2][3]) for e in settles] == [(1, D.PUNTER, 10), (2, D.OFF, 0), (3, D.OFF, 0)]
    assert "broken" in kinds(ev) and g.bank == 0 and g.balances == [90, 110, 100, 100]
    assert g.phase == R.BANK and g.choices() == ["lay", "pass"]


def test_a_broken_bank_is_laid_a_second_time_without_reshuffling_then_responsible_or_passed():
    g = new(seats=3, bank=10, minimums=(0, 0))
    g.apply(("lay", 0, None))
    g.apply(("stake", 1, (1, 10)))
    g.apply(("skip", 2, None))
    deal(g, banker="9", t1="A")
    assert g.choices() == ["lay", "pass"]
    g.apply(("lay", 0, None))
    g.apply(("stake", 1, (1, 10)))
    g.apply(("skip", 2, None))
    assert g.cards_due() == (17, 0)  # the same talia goes on (seed 004:33)
    ev = deal(g, banker="9", t1="A")
    assert "talia" not in kinds(ev) and g.talia == 1
    assert ("broken", 0, 2) in ev
    assert g.choices() == ["respond", "pass"]  # after the second break (seed 004:33)
    g.apply(("respond", 0, False))
    assert g.kind == CE.RESPONSIBLE and g.balances[0] == 80
    assert g.stake_range(1) == (0, 80)  # the banker answers up to what he has


def test_passing_the_bank_returns_it_and_the_next_seat_takes_it():
    g = new(seats=3, bank=10)
    g.apply(("pass", 0, None))
    assert g.banker == 1 and g.choices() == ["lay", "respond", "pass"]
    g.apply(("lay", 1, None))
    g.apply(("stake", 2, (1, 6)))
    g.apply(("stake", 0, (2, 3)))
    deal(g, banker="A", t1="K", t2="3")  # the banker takes both
    assert g.bank == 19
    g.apply(("stake", 2, (1, 1)))
    g.apply(("skip", 0, None))
    deal(g, cut=True)
    assert g.phase == R.BANK and g.choices() == ["hold", "pass"]
    g.apply(("pass", 1, None))
    assert g.banker == 2 and g.bank == 0 and g.balances[1] == 109 and g.total() == 300
    g.apply(("pass", 2, None))
    assert g.banker == 0  # round the table


# ---- the responsible bank ------------------------------------------------------------------
def test_a_responsible_bank_answers_every_stake_and_lasts_two_talias():
    g = new(seats=4, bank=10)
    g.apply(("respond", 0, True))  # one may start responsible (seed 004:35)
    for s, t, a in ((1, 1, 40), (2, 2, 40), (3, 3, 20)):
        g.apply(("stake", s, (t, a)))
    assert g.stake_range(3) == (0, 0)  # covered: the banker's 100 is all at stake
    ev = deal(g, banker="9", t1="A", t2="K", t3="Q", cut=True)
    assert [e[2][2] for e in ev if e[0] == "settle"] == [D.PUNTER] * 3  # no breaking
    assert g.balances == [0, 140, 140, 120]
    talias = 0
    while g.banker == 0:
        if g.phase == R.BANK:
            assert g.choices() == ["hold", "pass"]
            g.apply(("hold", 0, None))
            talias += 1
            continue
        for s in g.punters():
            g.apply(("skip", s, None))
        deal(g, cut=True)
    assert talias == 1 and g.talia == 2  # two talias, then the bank moves on
    assert [e for e in g.log if e[0] == "rotate"] == [("rotate", 0, "2 talias")]


def test_a_banker_with_nothing_cannot_hold_a_bank():
    g = new(seats=2, balance=0)
    assert g.choices() == ["pass"]
    with pytest.raises(IllegalAction, match="may: pass"):
        g.verify(("respond", 0, False))


# ---- the shoe -------------------------------------------------------------------------------
def test_the_cut_card_ends_the_talia_after_its_deal():
    g = new(seats=2)
    g.apply(("respond", 0, False))
    g.apply(("skip", 1, None))
    assert g.cards_due() == (17, 104)
    g.apply(("shoe", CHANCE, parse_list("AS")[0]))
    g.apply(("cut", CHANCE, None))
    with pytest.raises(IllegalAction, match="twice"):
        g.verify(("cut", CHANCE, None))
    for c in parse_list("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2D 3D 4D"):
        g.apply(("shoe", CHANCE, c))
    assert g.phase == R.BANK and g.choices() == ["hold", "pass"]
    g.apply(("hold", 0, None))
    g.apply(("skip", 1, None))
    assert g.cards_due() == (17, 104)  # a fresh shoe for the next talia


def test_a_card_a_third_time_in_one_shoe_is_refused():
    g = new(seats=2)
    g.apply(("respond", 0, False))
    g.apply(("skip", 1, None))
    ks = parse_list("KS")[0]
    g.apply(("shoe", CHANCE, ks))
    g.apply(("shoe", CHANCE, ks))
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="third time"):
        g.apply(("shoe", CHANCE, ks))
    assert snapshot(g) == before


def test_without_a_cut_card_the_talia_ends_before_the_shoe_runs_short():
    g = new(seats=2)
    g.apply(("respond", 0, False))
    pack = deck.shoe()
    deals = 0
    while g.talia <= 1 and g.phase != R.BANK:
        g.apply(("skip", 1, None))
        for _ in range(17):
            g.apply(("shoe", CHANCE, pack.pop()))
        deals += 1
    assert deals == 6 and g.left == 2  # 6 deals of 17 from 104


# ---- the table ------------------------------------------------------------------------------
def test_the_panels_lay_the_bank_and_stake():
    g = new(seats=3)
    t = ClubTable(g)
    assert t.view(0)["choices"] == ["lay", "respond", "respond-fresh", "pass"]
    assert t.press(0, B.SELECT, 3) is None
    assert t.press(0, B.CONFIRM, 0) == ("respond", 0, True)
    assert t.press(0, B.REFUSE, 0) == ("pass", 0, None)
    t.done(0)
    g.apply(t.press(0, B.CONFIRM, 0))  # the first choice: lay
    assert t.view(1)["range"] == [6, 15]
    t.press(1, B.SELECT, 2)
    t.press(1, B.BET_PLUS, 5)
    t.press(1, B.BET_PLUS, 0)
    t.press(1, B.BET_MINUS, 0)
    t.press(1, B.BET_PLUS, 200)  # held to what may be staked
    assert t.press(1, B.CONFIRM, 0) == ("stake", 1, (2, 15))
    with pytest.raises(IllegalAction, match="no tableau 4"):
        t.press(1, B.SELECT, 4)
    assert t.shoe_fault(b"C") is None  # no deal under way
    g.apply(("stake", 1, (2, 15)))
    g.apply(("stake", 2, (1, 3)))
    assert t.shoe_fault(b"C") == ("cut", CHANCE, None)
    assert t.shoe_fault(b"J") is None


def test_a_bot_at_the_panel_follows_the_stated_pattern():
    g = new(seats=4)
    t = ClubTable(g)
    bots = [ClubBot() for _ in range(4)]
    for _ in range(40):
        seat = g.to_act
        if seat == CHANCE:
            break
        for button, arg in bots[seat].presses(t.view(seat)):
            a = t.press(seat, button, arg)
            if a is not None:
                g.apply(a)
                t.done(seat)
    assert [e for e in g.log if e[0] == "stake"] == [
        ("stake", 1, (1, 6)), ("stake", 2, (2, 3)), ("stake", 3, (3, 2))]


# ---- whole sessions, by hypothesis -----------------------------------------------------------
junk = st.tuples(st.sampled_from(R.BANKER_ACTIONS + R.PUNTER_ACTIONS + ("shoe", "cut", "fold")),
                 st.integers(-2, 9),
                 st.one_of(st.none(), st.booleans(), st.integers(-3, 70),
                           st.tuples(st.integers(0, 4), st.integers(-2, 200))))


class Session(RuleBasedStateMachine):
    @initialize(seats=st.integers(2, 8), balance=st.integers(0, 60) | st.just(40), bank=st.integers(1, 30),
                mins=st.tuples(st.integers(0, 10), st.integers(0, 10)), commission=st.sampled_from([0, 0, 5]),
                seed=st.integers(0, 2 ** 32 - 1))
    def start(self, seats, balance, bank, mins, commission, seed):
        self.g = R.Club(R.Options(seats=seats, balance=balance, bank=bank, minimums=mins,
                                  commission=commission))
        self.start_total = self.g.total()
        self.rng = random.Random(seed)
        self.pack, self.cut = [], None
        self.seen = set()

    @precondition(lambda self: self.g.to_act == CHANCE)
    @rule()
    def deal(self):
        """The shoe delivers the whole deal (the cut card shows where it lies)."""
        g = self.g
        while g.to_act == CHANCE:
            n, fresh = g.cards_due()
            if fresh:
                self.pack = deck.shoe()
                self.rng.shuffle(self.pack)
                self.cut = self.rng.randrange(40, 100)
            if len(self.pack) == 104 - self.cut and not g.cut:
                g.apply(("cut", CHANCE, None))
            ev = g.apply(("shoe", CHANCE, self.pack.pop()))
            self.seen.update(e[0] if e[0] != "broken" else "broken%d" % e[2] for e in ev)

    @precondition(lambda self: self.g.phase == R.BANK)
    @rule(data=st.data())
    def bank(self, data):
        acts = self.g.legal_actions()
        assert acts and all(a[1] == self.g.banker for a in acts)
        self.refuse_junk(data)
        self.seen.update(e[0] for e in self.g.apply(data.draw(st.sampled_from(acts))))

    @precondition(lambda self: self.g.phase == R.STAKE)
    @rule(data=st.data(), how=st.sampled_from(["least", "most", "most", "any", "skip"]))
    def stake(self, data, how):
        self.refuse_junk(data)
        g = self.g
        seat = g.to_act
        lo, hi = g.stake_range(seat)
        if hi == 0 or (how == "skip" and lo == 0):
            a = ("skip", seat, None)
        else:
            amount = {"least": max(lo, 1), "most": hi}.get(how) or data.draw(st.integers(max(lo, 1), hi))
            a = ("stake", seat, (data.draw(st.integers(1, 3)), amount))  # "most" breaks banks
        assert g.can(a)
        g.apply(a)

    def refuse_junk(self, data):
        """Some action drawn at random: if the rules refuse it, nothing changes."""
        a = data.draw(junk)
        if self.g.can(a):
            return
        before = snapshot(self.g)
        with pytest.raises(IllegalAction):
            self.g.apply(a)
        assert snapshot(self.g) == before  # refused, and nothing changed

    @invariant()
    def money_is_conserved(self):
        g = self.g
        assert g.total() == self.start_total
        assert all(b >= 0 for b in g.balances) and g.bank >= 0 and g.house >= 0
        if g.options.commission == 0:
            assert g.house == 0
        assert g.table_money == (sum(s[2] for s in g.stakes) if g.phase != R.BANK else 0)
        acct = replay_moves(g)
        assert [acct[s] for s in range(g.options.seats)] == g.balances
        assert acct.get("bank", 0) == g.bank and acct.get("house", 0) == g.house


# (filter_too_much: the rules are gated by the phase, so hypothesis discards the steps drawn
# for the rules that do not apply; a run that drew many such steps failed its health check)
Session.TestCase.settings = settings(max_examples=40, stateful_step_count=150, deadline=None,
                                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TestSessions = Session.TestCase


def play_out(g, rng, deals, pick=None):
    """Drive a session with random legal actions (or `pick`) and a shuffled shoe."""
    pack, cut = [], 0
    seen = set()
    while g.deals_done < deals:
        if g.to_act == CHANCE:
            n, fresh = g.cards_due()
            if fresh:
                pack = deck.shoe()
                rng.shuffle(pack)
                cut = rng.randrange(52, 79)
            if len(pack) == 104 - cut and not g.cut:
                g.apply(("cut", CHANCE, None))
            ev = g.apply(("shoe", CHANCE, pack.pop()))
        else:
            ev = g.apply(pick(g) if pick else rng.choice(g.legal_actions()))
        seen.update(e[0] if e[0] != "broken" else "broken%d" % e[2] for e in ev)
    return seen


def greedy_punter(rng):
    def pick(g):
        acts = g.legal_actions()
        if g.phase == R.STAKE and rng.random() < 0.5:
            lo, hi = g.stake_range(g.to_act)
            if hi:
                return ("stake", g.to_act, (rng.randint(1, 3), hi))
        if g.phase == R.BANK:
            order = ["lay", "respond", "hold", "pass"]
            acts.sort(key=lambda a: order.index(a[0]) + rng.random() * 2)
            return acts[0]
        return rng.choice(acts)
    return pick


def test_long_sessions_lay_break_relay_go_responsible_and_rotate_with_money_conserved():
    seen = set()
    for seed in range(6):
        rng = random.Random(seed)
        g = R.Club(R.Options(seats=rng.randint(3, 8), balance=200, bank=rng.randint(5, 20),
                             commission=rng.choice([0, 5])))
        total = g.total()
        seen |= play_out(g, rng, 120, greedy_punter(rng))
        assert g.total() == total and min(g.balances) >= 0
        assert inputs(R.Club.EVENTS, g.log) and replay(g) == g.log
    assert {"lay", "broken1", "broken2", "respond", "rotate", "pass", "hold", "banker"} <= seen


def replay(g):
    h = R.Club(g.options)
    for a in inputs(R.Club.EVENTS, g.log):
        h.apply(a)
    return h.log


# ---- Monte Carlo plays the same rules ---------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_monte_carlo_loop_plays_the_rules_engine_money_exactly(seed):
    # simulator/montecarlo/club_session.py keeps its own fast loop; driven by the same cards and the
    # same bots' pattern, the rules engine must end with the same balances.
    o = R.Options(seats=4, balance=60, bank=12)
    rounds = 300
    rng = random.Random(seed)
    cards, last = CLUB.club_deals(rng, rounds)
    tabs, trumps = CLUB.club_tableaux(cards, rounds)
    res = [[D.duel(tabs[0][4 * i:4 * i + 4], tabs[t][4 * i:4 * i + 4], trumps[i])[0] for i in range(rounds)]
           for t in (1, 2, 3)]
    sums = CLUB.club_play(o, res, last)
    g = R.Club(o)
    holds = [0] * 4
    while g.deals_done < rounds:
        i = g.deals_done
        if g.to_act == CHANCE:
            if g.dealt == 0 and last[i]:
                g.apply(("cut", CHANCE, None))  # the shoe shows the cut card in deal i
            g.apply(("shoe", CHANCE, cards[17 * i + g.dealt]))
        elif g.phase == R.BANK:
            if g.kind is None:
                holds[g.banker] = 0
            c = bank_choice(g.choices(), holds[g.banker])
            holds[g.banker] += c == "hold"
            g.apply((c, g.banker, False if c == "respond" else None))
        else:
            lo, hi = g.stake_range(g.to_act)
            s = stake_for(g.punters().index(g.to_act), lo, hi)
            g.apply(("stake", g.to_act, s) if s else ("skip", g.to_act, None))
    assert g.talia == 1 + sum(last[:rounds - 1])
    staked = [sum(e[2][1] for e in g.log if e[0] == "settle" and e[1] == s) for s in range(4)]
    assert [d[1] for d in sums.data] == staked
    net = [sum(e[2][3] for e in g.log if e[0] == "settle" and e[1] == s) for s in range(4)]
    assert [d[2] - d[1] for d in sums.data] == net
    assert sums.rounds == rounds and sum(d[6] for d in sums.data) == rounds


# ---- the board runs the same rules --------------------------------------------------------------
SESSION = '''
from firmware.games.club import rules as R
from firmware.games.club import duel as D
from firmware.games.rules import CHANCE
from firmware.offboard import deck
from firmware.offboard.rng import Seeded
rng = Seeded(7)
g = R.Club(R.Options(seats=5, balance=50, bank=10, commission=5))
pack = []
while g.deals_done < 40:
    if g.to_act == CHANCE:
        n, fresh = g.cards_due()
        if fresh:
            pack = deck.shuffle(deck.shoe(), rng.below)
        if len(pack) == 40 and not g.cut:
            g.apply(("cut", CHANCE, None))
        g.apply(("shoe", CHANCE, pack.pop()))
    else:
        acts = g.legal_actions()
        g.apply(acts[rng.below(len(acts))])
print(g.balances, g.bank, g.house, g.talia, g.total())
print(len(g.log), sum(e[2][2] for e in g.log if e[0] == "move"))
print([D.solve(c) for c in range(1, 512)])
'''


def test_a_session_under_real_micropython_matches_cpython():
    from tapis.simulator.boards import micropython

    board = micropython.run(code=SESSION, timeout=180)
    assert board.returncode == 0, board.stderr
    host = subprocess.run([sys.executable, "-c", SESSION], capture_output=True, text=True, timeout=60)
    assert host.returncode == 0, host.stderr
    assert board.stdout == host.stdout and board.stdout.count("\n") == 3
    assert board.stdout.split("\n")[0].endswith(" 250")  # 5 seats x 50: conserved


def test_the_house_commission_is_taken_from_each_win_and_is_0_by_default():
    assert R.Options().commission == 0
    g = new(seats=3, bank=20, minimums=(0, 0), commission=10)
    g.apply(("lay", 0, None))
    g.apply(("stake", 1, (1, 10)))
    g.apply(("stake", 2, (2, 10)))
    ev = deal(g, banker="9", t1="A", t2="2")  # punter 1 wins, punter 2 loses
    assert g.house == 2 and g.bank == 20 - 10 + 9
    assert g.balances == [80, 109, 90] and g.total() == 300
    assert ("move", 1, ("bank", "house", 1)) in ev and ("move", 2, ("table", "house", 1)) in ev


def test_a_win_larger_than_what_is_left_is_paid_what_is_left_and_breaks_the_bank_and_says_so():
    """SPEC §4 "Limited bank", 004:31 (issue 14.11): each stake is at most the bank as laid
    (the sum may exceed it); a punter who wins more than what is left is paid what is left,
    the bank is broken, and the later punters neither win nor lose. The table display
    says so when it happens (the `short` event, then `broken`)."""
    from tapis.simulator.kits.club.render import ClubRenderer

    g = new(seats=4, bank=10, minimums=(0, 0))
    g.apply(("lay", 0, None))
    assert g.stake_range(1) == (0, 10)
    with pytest.raises(IllegalAction, match="at most the bank as laid"):
        g.verify(("stake", 1, (1, 11)))
    for s, t, a in ((1, 1, 6), (2, 2, 8), (3, 3, 5)):  # 19 staked against a bank of 10
        g.apply(("stake", s, (t, a)))
    ev = deal(g, banker="9", t1="A", t2="K", t3="Q")  # every punter beats the banker's 9
    settles = [(e[1], e[2][2], e[2][3]) for e in ev if e[0] == "settle"]
    assert settles == [(1, D.PUNTER, 6), (2, D.PUNTER, 4), (3, D.OFF, 0)]  # 8 won, 4 paid
    assert ("short", 2, (2, 4, 8)) in ev and ("broken", 0, 1) in ev
    assert g.bank == 0 and g.balances == [90, 106, 104, 100]
    assert all(R.Club.public(e) is not None for e in ev if e[0] in ("short", "broken"))
    lines = [ClubRenderer(print).line(*e) for e in ev if e[0] in ("short", "broken")]
    assert lines[0] == "  Seat 2 wins 8 on tableau 2, but the bank holds 4: paid 4, the bank is broken"
