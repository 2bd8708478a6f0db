# One module per `tapis` subcommand. Each has `register(subparsers)`, which adds its
# parser and sets `func` to the function that runs it and returns the exit code.
import importlib
import importlib.util

from tapis.firmware.games import GAMES


def by_game(sub, command, help):
    """`tapis COMMAND GAME ...`: a game's part, if it has one, is host/COMMAND/GAME.py,
    with its own register(subparsers); the games come from the one registry."""
    p = sub.add_parser(command, help=help)
    choices = p.add_subparsers(dest="game", metavar="GAME")
    choices.required = True
    for game in sorted(GAMES):
        name = "tapis.host.%s.%s" % (command, game)
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).register(choices)
