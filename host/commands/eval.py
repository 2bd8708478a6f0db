# `tapis eval GAME ...`: the hand evaluator: a hand's value by the rules. Each game's part lives in
# host/eval_<game>.py with register(subparsers); list it in GAMES.
import importlib

GAMES = ("club", "ecarte", "piquet")


def register(sub):
    p = sub.add_parser("eval", help="the hand evaluator: a hand's value by the rules")
    games = p.add_subparsers(dest="game", metavar="GAME")
    games.required = True
    for game in GAMES:
        importlib.import_module("host.eval_" + game).register(games)
