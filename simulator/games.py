# The games the simulator can run, found by name. Each entry says how to build the
# rules state and its table adapter, and which bot, recorder and renderer go with it.
from tapis.firmware.rules import ecarte
from tapis.firmware.tables.ecarte import EcarteTable
from tapis.simulator.bots import EcarteBot
from tapis.simulator.records import Recorder
from tapis.simulator.render import Renderer


class Ecarte:
    name = "ecarte"
    title = "écarté"
    Table = EcarteTable
    Bot = EcarteBot
    Recorder = Recorder
    Renderer = Renderer
    # --variant NAME -> the Options it plays with
    # (SPEC §4 and docs/rules.md: each is Options data, nothing else)
    VARIANTS = {
        "ace-high": lambda: ecarte.Options(ace_high=True),
        "dealer-must-exchange": lambda: ecarte.Options(dealer_must_exchange=True),
        "doubling": lambda: ecarte.Options(doubling=True),
        "offer-point": lambda: ecarte.Options(offer_point=True),
        "pool": lambda: ecarte.Options(pool=True),
        "quick": lambda: ecarte.Options(quick=True),
        "gallery": lambda: ecarte.Options(gallery=2),
        "rubber-3": lambda: ecarte.Options(rubber=3),
        "rubber-5": lambda: ecarte.Options(rubber=5),
        "rubber-7": lambda: ecarte.Options(rubber=7),
        "rubber-11": lambda: ecarte.Options(rubber=11),
    }

    @staticmethod
    def new_game(options=None, evaluator=None):
        kw = {"evaluator": evaluator} if evaluator is not None else {}
        return ecarte.Ecarte(options, **kw)

    @staticmethod
    def finished_deals(game):
        return game.deal_no - 1

    @staticmethod
    def finished_games(game):
        return game.game_no - 1


GAMES = {"ecarte": Ecarte}

from tapis.simulator.piquet import PiquetKit  # noqa: E402

GAMES["piquet"] = PiquetKit

from tapis.simulator.club import ClubKit  # noqa: E402

GAMES["club"] = ClubKit
