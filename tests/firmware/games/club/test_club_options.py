# Club écarté's options (firmware/games/club/options.py): SPEC §4 and seed 004:29 by default,
# each bad value refused with the value named, and the whole state kept across a snapshot.
import pytest

from tapis.firmware.games.club.options import Options


def test_the_defaults_follow_the_spec_and_seed_004():
    o = Options()
    assert (o.seats, o.balance, o.bank, o.minimums, o.commission, o.talias, o.first_banker, o.supervised) \
        == (4, 100, 15, (6, 3), 0, 2, 0, False)


@pytest.mark.parametrize("kwargs, named", [
    ({"seats": 1}, "1"), ({"seats": 9}, "9"), ({"bank": 0}, "0"), ({"balance": -5}, "-5"),
    ({"minimums": (6,)}, "(6,)"), ({"minimums": (6, -1)}, "-1"), ({"commission": 100}, "100"),
    ({"first_banker": 4}, "4"),
])
def test_a_bad_option_is_refused_naming_the_value(kwargs, named):
    with pytest.raises(ValueError) as e:
        Options(**kwargs)
    assert named in str(e.value)


def test_a_snapshot_restores_the_same_options():
    o = Options(seats=6, balance=250, bank=20, minimums=[4, 2], commission=5, talias=3, first_banker=5,
                supervised=1)
    assert o.minimums == (4, 2) and o.supervised is True
    back = Options.restore(o.snapshot())
    assert [getattr(back, f) for f in Options.FIELDS] == [getattr(o, f) for f in Options.FIELDS]
