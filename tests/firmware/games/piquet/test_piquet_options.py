# Piquet's options (firmware/games/piquet/options.py): the Rubicon game of SPEC §4 by default,
# what derives from the pack, each bad value refused with the value named, and the options'
# whole state kept across a snapshot (the journal and the board's configuration keep it).
import pytest

from tapis.firmware.cards import SEVEN
from tapis.firmware.games.piquet.options import HAND, Options


def test_the_defaults_are_the_rubicon_game_of_six_deals():
    o = Options()
    assert (o.pack, o.deals, o.target, o.elder_max, o.carte_rouge, o.last_trick, o.cent, o.packets) \
        == (32, 6, 0, 5, 0, 1, False, 2)
    assert HAND == 12 and o.talon == 8 and o.low_rank == SEVEN


def test_piquet_au_cent_plays_the_sixes_and_a_longer_talon():
    o = Options(pack=36, deals=0, target=100, elder_max=7, cent=True)
    assert o.talon == 12 and o.low_rank == SEVEN - 1


@pytest.mark.parametrize("kwargs, named", [
    ({"pack": 52}, "52"), ({"packets": 5}, "5"), ({"elder_max": 0}, "0"), ({"elder_max": 8}, "8"),
    ({"deals": 0}, "0"), ({"deals": -1}, "-1"),
])
def test_a_bad_option_is_refused_naming_the_value(kwargs, named):
    with pytest.raises(ValueError) as e:
        Options(**kwargs)
    assert named in str(e.value)


def test_a_snapshot_restores_the_same_options():
    o = Options(pack=36, deals=0, target=100, elder_max=7, carte_rouge=20, last_trick=10, cent=True, packets=3)
    back = Options.restore(o.snapshot())
    assert [getattr(back, f) for f in Options.FIELDS] == [getattr(o, f) for f in Options.FIELDS]
