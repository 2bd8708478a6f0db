# Écarté's host-side kit (simulator/kits/__init__.py says what a kit provides).
from tapis.firmware.games import ecarte as _game

from .bots import EcarteBot as Bot  # noqa: F401
from .bots import RandomBot
from .records import Recorder  # noqa: F401
from .render import Renderer  # noqa: F401

TITLE = "écarté"  # the game in words


def _advisor_bot(seed=1):
    from .advisor import AdvisorBot  # the search and the verdict load with the first advisor
    return AdvisorBot(seed)


BOTS = {"random": RandomBot, "rules": Bot, "advisor": _advisor_bot}  # {strength: bot}, weakest first


def new_game(options=None, evaluator=None):
    kw = {"evaluator": evaluator} if evaluator is not None else {}
    return _game.Rules(options, **kw)
