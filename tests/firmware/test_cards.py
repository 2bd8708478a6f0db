import pytest
from hypothesis import given, strategies as st

from tapis.firmware.offboard import deck
from tapis.firmware.cards import CardError, name, parse, parse_list, rank, suit
from tapis.firmware.offboard.rng import Seeded


def test_codes_name_and_parse_round_trip():
    for c in deck.deck52():
        assert parse(name(c)) == c
    assert name(parse("10h")) == "TH"
    assert parse_list("7H,KS QS") == [parse("7H"), parse("KS"), parse("QS")]
    assert rank(parse("KC")) == 11 and suit(parse("KC")) == 3


@pytest.mark.parametrize("bad", ["", "1H", "KX", "KHH", "11S", None, 7])
def test_bad_codes_are_refused_quoting_the_input(bad):
    with pytest.raises(CardError) as e:
        parse(bad)
    assert repr(bad) in str(e.value)


def test_bad_code_integers_are_refused():
    for bad in (-1, 13, 64, "KH"):
        with pytest.raises(CardError):
            name(bad)


def test_decks():
    assert len(set(deck.deck32())) == 32
    assert {name(c)[0] for c in deck.deck32()} == set("789TJQKA")
    assert len(set(deck.deck36())) == 36
    assert len(set(deck.deck52())) == 52
    s = deck.shoe()
    assert len(s) == 104 and len(set(s)) == 52


@given(st.integers(0, 2 ** 63 - 1))
def test_seeded_shuffle_is_a_permutation_and_deterministic(seed):
    a = deck.shuffle(deck.deck32(), Seeded(seed).below)
    b = deck.shuffle(deck.deck32(), Seeded(seed).below)
    assert a == b and sorted(a) == sorted(deck.deck32())


def test_seeded_below_is_roughly_uniform():
    r = Seeded(1)
    counts = [0] * 5
    for _ in range(50000):
        counts[r.below(5)] += 1
    assert all(9500 < c < 10500 for c in counts), counts


def test_board_shuffle_uses_urandom():
    cards = deck.shuffle(deck.deck32(), deck.urandom_below)
    assert sorted(cards) == sorted(deck.deck32())
