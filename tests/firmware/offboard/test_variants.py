# Each game's variants by name (firmware/offboard/variants/<game>.py, looked up by
# firmware/offboard/named.py): every variant is Options keyword data its game's Options take
# as given, a name no game has is refused naming the ones it has, and the package names a
# module for each game of the registry.
import pytest

from tapis.firmware.games import GAMES, find
from tapis.firmware.offboard import named, variants
from tapis.firmware.offboard.variants import club, ecarte, piquet

BY_GAME = {"ecarte": ecarte.VARIANTS, "piquet": piquet.VARIANTS, "club": club.VARIANTS}


def test_every_game_of_the_registry_has_its_variants_module():
    assert variants.__name__.endswith("offboard.variants")
    assert set(BY_GAME) == set(GAMES)
    for game, table in BY_GAME.items():
        assert named.variants(game) is table and table, game


@pytest.mark.parametrize("game, variant", [(g, v) for g, t in sorted(BY_GAME.items()) for v in sorted(t)])
def test_a_variant_is_options_data_its_game_takes_as_given(game, variant):
    kwargs = BY_GAME[game][variant]
    o = named.options(game, variant)
    assert type(o) is find(game).Options
    for field, value in kwargs.items():
        got = getattr(o, field)
        assert got == (tuple(value) if isinstance(value, list) else value), (field, got)


def test_an_unknown_variant_is_refused_naming_those_there_are():
    with pytest.raises(ValueError) as e:
        named.options("club", "no-such")
    assert "no-such" in str(e.value) and all(v in str(e.value) for v in club.VARIANTS)
