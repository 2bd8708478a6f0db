# Écarté's host-side kit (simulator/kits/__init__.py says what a kit provides).
from tapis.firmware.games import ecarte as _game

from .bots import BOTS  # noqa: F401  {strength: bot}
from .bots import EcarteBot as Bot  # noqa: F401
from .records import Recorder  # noqa: F401
from .render import Renderer  # noqa: F401

TITLE = "écarté"  # the game in words


def new_game(options=None, evaluator=None):
    kw = {"evaluator": evaluator} if evaluator is not None else {}
    return _game.Rules(options, **kw)
