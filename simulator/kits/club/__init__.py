# Club écarté's host-side kit (simulator/kits/__init__.py says what a kit provides).
from tapis.cython_core import twins
from tapis.firmware.games import club as _game

from .bots import BOTS  # noqa: F401  {strength: bot}
from .bots import ClubBot as Bot  # noqa: F401
from .records import ClubRecorder as Recorder  # noqa: F401
from .render import ClubRenderer as Renderer  # noqa: F401

TITLE = "club écarté"  # the game in words


def new_game(options=None, evaluator=None):
    # `evaluator` is the trick evaluator of the other games; club settles with the duel core
    return _game.Rules(options, duel=twins.duel)
