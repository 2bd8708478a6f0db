# The club Monte Carlo twins (firmware/club_bank.py, cython_core/club_bank.pyx) against the
# rules engine, money for money: the same cards and the bots' decisions, deal by deal, the
# table's balances, bank, house and banker and every settlement; then against the Python
# loop they replace (simulator/montecarlo/club_session.py's club_play) and each other, bit for bit.
import json
import os
import random
import subprocess
import sys
from array import array
from types import SimpleNamespace
from unittest.mock import patch

import pytest
from hypothesis import given, settings, strategies as st

import tapis.simulator.kits.club.bots as club_bots
from club_driver import sums_of
from tapis.cython_core import club_bank as compiled
from tapis.cython_core import twins as core
from tapis.firmware.games.club import duel as D
from tapis.firmware.games.club import rules as R
from tapis.firmware.offboard import club_bank as pure
from tapis.simulator.montecarlo import chunks as CH
from tapis.simulator.montecarlo import club_session as CLUB
from tapis.simulator.montecarlo import club_sums as SUMS
from tapis.simulator.montecarlo import simulate as MC
from tapis.simulator.kits.club.bots import HOLD_TALIAS, UNIT

TWINS = [pure, compiled]
CUT = CLUB.CUT_SPAN
seeds = st.integers(0, 2 ** 64 - 1)


@st.composite
def options(draw):
    seats = draw(st.integers(2, 8))
    return R.Options(seats=seats, balance=draw(st.integers(1, 300)), bank=draw(st.integers(1, 40)),
                     minimums=(draw(st.integers(0, 30)), draw(st.integers(0, 30))),
                     commission=draw(st.sampled_from([0, 1, 5, 10, 33, 99])),
                     talias=draw(st.integers(1, 3)), first_banker=draw(st.integers(0, seats - 1)))


def shoes(seed, rounds):
    return compiled.deals(random.Random(seed), rounds, *CUT)


def conserved(o, got):
    sums, house, balances, _banker, bank = got
    assert sum(balances) + bank + house == o.seats * o.balance  # every unit accounted for
    assert min(balances) >= 0 and bank >= 0
    assert sum(d[2] - d[1] + d[7] for d in sums) + house == 0  # punters' net + bankers' + house


def check_against_the_engine(o, seed, rounds, unit=UNIT, hold=HOLD_TALIAS):
    """The twins end where the engine ends, and after every deal the table and the deal's
    settlement agree. Returns the event kinds the engine saw."""
    cards, last = shoes(seed, rounds)
    with patch.object(club_bots, "HOLD_TALIAS", hold):  # the bots' bank_choice
        *want, records, seen = sums_of(o, cards, last, unit)
    want = tuple(want)
    for twin in TWINS:
        assert tuple(twin.session(random.Random(seed), rounds, o, unit, hold, *CUT)) == want, twin
    res = [[r[5][t] for r in records] for t in range(3)]
    assert tuple(pure.play(o, res, last, unit, hold)) == want
    conserved(o, want)
    before = [[0] * 11 for _ in range(o.seats)]
    for i, (balances, bank, house, banker, (stakes, deal_banker, net), duels) in enumerate(records):
        sums, h, bal, bkr, bnk = compiled.play(o, [r[:i + 1] for r in res], last[:i + 1], unit, hold)
        assert (bal, bnk, h, bkr) == (balances, bank, house, banker), i
        step = [[a - b for a, b in zip(x, y)] for x, y in zip(sums, before)]
        assert {s: (d[1], d[2], [-1, 0, 1][d[8:].index(1)] if d[0] else None) for s, d in enumerate(step)
                if d[0]} == {s: (x, y, duels[t - 1]) for s, (x, y, t) in stakes.items()}, i
        assert all(sum(d[8:]) == d[0] for d in step)  # each stake's duel counted once
        assert all(d[0] in (0, 1) and d[3] == d[1] ** 2 and d[5] == d[1] * d[2] for d in step)
        assert [s for s, d in enumerate(step) if d[6]] == [deal_banker] and step[deal_banker][7] == net
        before = sums
    return seen


# ---- the rules engine ---------------------------------------------------------------------
CASES = [  # (options, seed, rounds): between them every turn of a bank's life
    (R.Options(seats=4, balance=60, bank=12), 1, 200),
    (R.Options(seats=3, balance=40, bank=4, minimums=(6, 3)), 2, 200),
    (R.Options(seats=8, balance=30, bank=6, minimums=(0, 0), commission=5), 3, 200),
    (R.Options(seats=2, balance=9, bank=8, minimums=(8, 8), talias=1), 4, 200),
    (R.Options(seats=5, balance=300, bank=2, minimums=(2, 2), commission=50, first_banker=3), 5, 200),
]


@pytest.mark.parametrize("o, seed, rounds", CASES)
def test_a_session_plays_the_rules_engine_money_for_money(o, seed, rounds):
    check_against_the_engine(o, seed, rounds)


def test_those_sessions_reach_every_turn_of_the_banks_life():
    seen = set()
    for o, seed, rounds in CASES:
        seen |= check_against_the_engine(o, seed, rounds)
    assert {"lay", "broken1", "broken2", "respond", "hold", "pass", "rotate", "talia"} <= seen


@settings(max_examples=25, deadline=None)
@given(options(), seeds, st.integers(0, 120), st.integers(1, 6), st.integers(0, 2))
def test_any_options_play_the_rules_engine_money_for_money(o, seed, rounds, unit, hold):
    check_against_the_engine(o, seed, rounds, unit, hold)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(options(), seeds, st.integers(300, 1500), st.integers(1, 6), st.integers(0, 2))
def test_long_sessions_play_the_rules_engine_money_for_money(o, seed, rounds, unit, hold):
    check_against_the_engine(o, seed, rounds, unit, hold)


# ---- the Python loop they replace ------------------------------------------------------------
def python_loop(o, seed, rounds):
    cards, last = CLUB.club_deals(random.Random(seed), rounds)
    tabs, trumps = CLUB.club_tableaux(cards, rounds)
    res = []
    for t in (1, 2, 3):
        out = array("b", bytes(rounds))
        D.duel_batch(tabs[0], tabs[t], trumps, out)
        res.append(out)
    return res, last, CLUB.club_play(o, res, last)


@settings(max_examples=40, deadline=None)
@given(options(), seeds, st.integers(0, 2000))
def test_the_twins_give_what_the_python_loop_gives(o, seed, rounds):
    res, last, old = python_loop(o, seed, rounds)
    for twin in TWINS:
        assert tuple(twin.play(o, res, last, UNIT, HOLD_TALIAS)[:2]) == (old.data, old.house)
        assert tuple(twin.session(random.Random(seed), rounds, o, UNIT, HOLD_TALIAS, *CUT)[:2]) == (old.data, old.house)


results = st.lists(st.sampled_from([D.BANKER, D.PUSH, D.PUNTER]), min_size=3, max_size=3)


@settings(max_examples=60, deadline=None)
@given(options(), st.lists(st.tuples(results, st.booleans()), max_size=400))
def test_any_results_and_talia_ends_play_alike_in_the_twins_and_the_loop(o, deals):
    res = [[d[0][t] for d in deals] for t in range(3)]
    last = bytes(d[1] for d in deals)
    old = CLUB.club_play(o, res, last)
    got = pure.play(o, res, last, UNIT, HOLD_TALIAS)
    assert tuple(compiled.play(o, res, last, UNIT, HOLD_TALIAS)) == tuple(got)
    assert tuple(got[:2]) == (old.data, old.house)
    conserved(o, got)


def test_the_monte_carlo_chunks_are_the_python_loops_chunks():
    for seed, k, n in ((1, 0, 5000), (7, 3, 1234), (2 ** 40, 11, 1)):
        assert CLUB.club_session(seed, k, n) == CLUB.club_session(seed, k, n, duel=core.duel)


# ---- the twins (which one the host uses: tests/cython_core/test_twins.py) ------------------------------------
@settings(max_examples=60, deadline=None)
@given(seeds, st.integers(0, 3000), options(), st.integers(1, 6), st.integers(0, 3))
def test_pure_and_compiled_sessions_agree_and_leave_the_generator_alike(seed, rounds, o, unit, hold):
    a, b = random.Random(seed), random.Random(seed)
    assert tuple(pure.session(a, rounds, o, unit, hold, *CUT)) == tuple(compiled.session(b, rounds, o, unit, hold, *CUT))
    assert a.getstate() == b.getstate()


@settings(max_examples=60, deadline=None)
@given(seeds, st.integers(0, 400), st.integers(0, 103), st.integers(0, 103))
def test_the_deals_are_the_python_shuffles_deals(seed, rounds, lo, hi):
    lo, hi = min(lo, hi), max(lo, hi)
    rngs = [random.Random(seed) for _ in range(3)]
    want = CLUB.club_deals(rngs[0], rounds, (lo, hi))
    assert pure.deals(rngs[1], rounds, lo, hi) == compiled.deals(rngs[2], rounds, lo, hi) == want
    assert rngs[0].getstate() == rngs[1].getstate() == rngs[2].getstate()


def test_the_generator_is_handed_back_mid_stream():
    a, b = random.Random(5), random.Random(5)
    a.random(), b.random()  # not at a block boundary
    a.gauss(0, 1), b.gauss(0, 1)  # and with a gaussian kept
    compiled.deals(a, 700, *CUT)
    pure.deals(b, 700, *CUT)
    assert a.getstate() == b.getstate() and a.random() == b.random()


def bad(**kw):
    o = dict(seats=4, balance=100, bank=15, minimums=(6, 3), commission=0, talias=2, first_banker=0)
    o.update(kw)
    return SimpleNamespace(**o)


@pytest.mark.parametrize("o, rounds, unit, hold, cut, message", [
    (bad(seats=9), 10, 2, 1, CUT, "seats 2..8"),
    (bad(seats=1), 10, 2, 1, CUT, "seats 2..8"),
    (bad(minimums=(1,)), 10, 2, 1, CUT, "two minimums"),
    (bad(first_banker=4), 10, 2, 1, CUT, "first banker 4"),
    (bad(commission=100), 10, 2, 1, CUT, "commission 100"),
    (bad(), 10, 0, 1, CUT, "unit of at least 1"),
    (bad(), -1, 2, 1, CUT, "rounds not negative"),
    (bad(balance=2 ** 61), 10, 2, 1, CUT, "overflow"),
    (bad(), 10, 2, 1, (60, 50), "lands in 0..103"),
    (bad(), 10, 2, 1, (0, 104), "lands in 0..103"),
    (bad(balance=0), 10, 2, 1, CUT, "no seat has money"),  # the Python loop never ends here
])
def test_what_cannot_be_played_is_refused_alike(o, rounds, unit, hold, cut, message):
    for twin in TWINS:
        with pytest.raises(ValueError, match=message) as e:
            twin.session(random.Random(1), rounds, o, unit, hold, *cut)
        if twin is pure:
            first = str(e.value)
        else:
            assert str(e.value) == first
    with pytest.raises(ValueError, match="three result rows"):
        compiled.play(bad(), [[0], [0]], [0], 2, 1)


def test_deals_refuse_what_cannot_be_dealt_alike():
    for args in ((-1, *CUT), (10, 5, 3)):
        messages = set()
        for twin in TWINS:
            with pytest.raises(ValueError, match="rounds not negative|lands in 0..103") as e:
                twin.deals(random.Random(1), *args)
            messages.add(str(e.value))
        assert len(messages) == 1


def test_a_compiled_session_wants_a_mersenne_twister():
    with pytest.raises(TypeError, match="random.Random"):
        compiled.session(SimpleNamespace(getstate=lambda: (2, (), None)), 10, bad(), 2, 1, *CUT)


# ---- tapis simulate --------------------------------------------------------------------------
def test_simulate_reports_what_the_python_loop_reports():
    for seed, rounds in ((3, 12000), (99, 5001)):
        got, _backend = MC.simulate("club", rounds, seed)
        total = None
        for k, n in CH.chunks(rounds):
            s = SUMS.Sums.from_list(CLUB.club_session(seed, k, n, duel=core.duel))
            total = s if total is None else total.merge(s)
        assert {k: got[k] for k in ("seats", "house")} == SUMS.club_report(total)


def test_simulate_with_the_pure_twins_prints_the_same_report():
    cmd = [sys.executable, "-m", "tapis", "simulate", "--rounds", "6000", "--seed", "4", "--json"]
    runs = [subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=dict(os.environ, TAPIS_PURE=pure))
            for pure in ("0", "1")]
    assert [r.returncode for r in runs] == [0, 0], runs[1].stderr
    a, b = (json.loads(r.stdout) for r in runs)
    assert a == b and a["rounds"] == 6000 and len(a["seats"]) == 4
