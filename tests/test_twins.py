# The compiled core and its pure twin: same public names, same signatures, same answers.
import importlib
import inspect
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from tapis.firmware import deck, evaluate as pure
from tapis.host import core

from tapis.cython_core import evaluate as compiled  # noqa: E402  (a missing build must fail here)

TWINS = [(pure, compiled)]
CARDS = deck.deck52()


ROOT = Path(__file__).resolve().parent.parent
# Every compiled module cython_core/X.pyx twins the pure firmware/X.py.
PAIRS = sorted(p.stem for p in (ROOT / "cython_core").glob("*.pyx"))


def public(mod):
    """Functions defined in the module, and its constants."""
    out = {}
    for n in dir(mod):
        v = getattr(mod, n)
        if n.startswith("_") or inspect.ismodule(v):
            continue
        if callable(v) and getattr(v, "__module__", None) == mod.__name__:
            out[n] = v
        elif n.isupper() and not callable(v):
            out[n] = v
    return out


def test_the_host_uses_the_compiled_core_when_built():
    assert core.CORE == "cython" and core.evaluate is compiled


def test_every_compiled_module_has_a_pure_twin():
    assert "evaluate" in PAIRS
    for name in PAIRS:
        assert (ROOT / "firmware" / (name + ".py")).exists(), name


@pytest.mark.parametrize("name", PAIRS)
def test_twins_have_the_same_public_names_signatures_and_constants(name):
    p = public(importlib.import_module("tapis.firmware." + name))
    c = public(importlib.import_module("tapis.cython_core." + name))
    assert sorted(p) == sorted(c)
    for n, pv in p.items():
        cv = c[n]
        if callable(pv):
            assert list(inspect.signature(pv).parameters) == list(inspect.signature(cv).parameters), n
        else:
            assert pv == cv, n


strengths = st.sampled_from([pure.ECARTE_STRENGTH, pure.ACE_HIGH])
hands = st.lists(st.sampled_from(CARDS), min_size=1, max_size=12, unique=True)


@given(hands, st.one_of(st.none(), st.sampled_from(CARDS)), st.integers(0, 3), strengths)
def test_legal_plays_agree(hand, led, trump, strength):
    assert pure.legal_plays(hand, led, trump, strength) == compiled.legal_plays(hand, led, trump, strength)
    assert pure.follow_plays(hand, led) == compiled.follow_plays(hand, led)


@given(st.sampled_from(CARDS), st.sampled_from(CARDS), st.integers(0, 3), strengths)
def test_trick_winner_agrees(a, b, trump, strength):
    assert pure.trick_winner(a, b, trump, strength) == compiled.trick_winner(a, b, trump, strength)
    assert pure.beats(a, b, trump, strength) == compiled.beats(a, b, trump, strength)


@given(st.integers(0, 5), st.integers(-1, 1), st.integers(0, 4))
def test_scoring_agrees(t0, vulnerable, loser):
    tricks = [t0, 5 - t0]
    assert pure.ecarte_points(tricks, vulnerable) == compiled.ecarte_points(tricks, vulnerable)
    assert pure.game_value(loser) == compiled.game_value(loser)


@given(st.integers(0, 2 ** 32))
def test_whole_ecarte_matches_are_the_same_on_either_evaluator(seed):
    from ecarte_driver import play
    from tapis.firmware.rules.ecarte import Ecarte

    assert play(seed, 6, Ecarte(evaluator=compiled)).log == play(seed, 6, Ecarte(evaluator=pure)).log
