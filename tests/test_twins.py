# The compiled core and its pure twin: same public names, same signatures, same answers.
import inspect

import pytest
from hypothesis import given, strategies as st

from firmware import deck, evaluate as pure
from host import core

from cython_core import evaluate as compiled  # noqa: E402  (a missing build must fail here)

TWINS = [(pure, compiled)]
CARDS = deck.deck52()


def public(mod):
    return sorted(n for n in dir(mod) if not n.startswith("_") and
                  (callable(getattr(mod, n)) or n.isupper()) and
                  getattr(getattr(mod, n), "__module__", mod.__name__) in (mod.__name__, None))


def test_the_host_uses_the_compiled_core_when_built():
    assert core.CORE == "cython" and core.evaluate is compiled


def test_same_public_names_and_signatures():
    names = [n for n in public(pure) if n not in ("rank", "suit")]
    assert names == [n for n in public(compiled) if n not in ("rank", "suit")]
    for n in names:
        p, c = getattr(pure, n), getattr(compiled, n)
        if callable(p):
            assert list(inspect.signature(p).parameters) == list(inspect.signature(c).parameters), n
        else:
            assert p == c, n


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
