# The compiled core and its pure twins: the one parity check (every cython_core/X.pyx
# has its pure twin, with the same public names, signatures and constants), which twin the
# host uses, and the shared evaluator's answers compared.
import importlib
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from tapis.cython_core import twins
from tapis.firmware.offboard import deck
from tapis.firmware import evaluate as pure

CARDS = deck.deck52()
ROOT = Path(__file__).resolve().parents[2]
PAIRS = sorted(p.stem for p in (ROOT / "cython_core").glob("*.pyx"))


def compiled(name):
    """The compiled twin: a missing build fails here, whichever twin the host uses."""
    return importlib.import_module("tapis.cython_core." + name)


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


def test_every_compiled_module_has_a_pure_twin_and_the_chooser_knows_it():
    assert sorted(twins.TWINS) == PAIRS
    for name in PAIRS:
        assert importlib.util.find_spec(twins.TWINS[name]) is not None, name


@pytest.mark.parametrize("name", PAIRS)
def test_twins_have_the_same_public_names_signatures_and_constants(name):
    p = public(importlib.import_module(twins.TWINS[name]))
    c = public(compiled(name))
    assert sorted(p) == sorted(c) and p
    for n, pv in p.items():
        cv = c[n]
        if callable(pv):
            assert list(inspect.signature(pv).parameters) == list(inspect.signature(cv).parameters), n
        else:
            assert pv == cv, n


def test_the_host_uses_the_compiled_core_unless_tapis_pure_says_otherwise():
    """make test runs the suite with the compiled core, then the tests that use a twin (this one
    among them: it reads twins.CORE) with TAPIS_PURE=1."""
    want = "pure" if os.environ.get("TAPIS_PURE", "") not in ("", "0") else "cython"
    assert twins.CORE == want
    for name in PAIRS:
        module = getattr(twins, name)
        assert module.__name__ == (twins.TWINS[name] if want == "pure" else "tapis.cython_core." + name)


@pytest.mark.parametrize("pure_env, core", [("1", "pure"), ("", "cython")])
def test_tapis_pure_chooses_the_twins_in_a_fresh_process(pure_env, core):
    code = ("import json; from tapis.cython_core import twins as t\n"
            "print(json.dumps([t.CORE] + [getattr(t, n).__name__ for n in sorted(t.TWINS)]))")
    env = dict(os.environ, TAPIS_PURE=pure_env)
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got[0] == core
    assert got[1:] == [twins.TWINS[n] if core == "pure" else "tapis.cython_core." + n for n in PAIRS]


fast = compiled("evaluate")
strengths = st.sampled_from([pure.ECARTE_STRENGTH, pure.ACE_HIGH])
hands = st.lists(st.sampled_from(CARDS), min_size=1, max_size=12, unique=True)


@given(hands, st.one_of(st.none(), st.sampled_from(CARDS)), st.integers(0, 3), strengths)
def test_legal_plays_agree(hand, led, trump, strength):
    assert pure.legal_plays(hand, led, trump, strength) == fast.legal_plays(hand, led, trump, strength)
    assert pure.follow_plays(hand, led) == fast.follow_plays(hand, led)


@given(st.sampled_from(CARDS), st.sampled_from(CARDS), st.integers(0, 3), strengths)
def test_trick_winner_agrees(a, b, trump, strength):
    assert pure.trick_winner(a, b, trump, strength) == fast.trick_winner(a, b, trump, strength)
    assert pure.beats(a, b, trump, strength) == fast.beats(a, b, trump, strength)


@given(st.integers(0, 5), st.integers(-1, 1), st.integers(0, 4))
def test_scoring_agrees(t0, vulnerable, loser):
    tricks = [t0, 5 - t0]
    assert pure.ecarte_points(tricks, vulnerable) == fast.ecarte_points(tricks, vulnerable)
    assert pure.game_value(loser) == fast.game_value(loser)


@settings(deadline=None)  # whole matches: the time depends on the machine's load, not the point
@given(st.integers(0, 2 ** 32))
def test_whole_ecarte_matches_are_the_same_on_either_evaluator(seed):
    from ecarte_driver import play
    from tapis.firmware.games.ecarte import Rules

    assert play(seed, 6, Rules(evaluator=fast)).log == play(seed, 6, Rules(evaluator=pure)).log
