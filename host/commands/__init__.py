# One module per `tapis` subcommand. Each has `register(subparsers)`, which adds its
# parser and sets `func` to the function that runs it and returns the exit code.
import importlib


def by_game(sub, command, help, games):
    """`tapis COMMAND GAME ...`: each game's part lives in host/COMMAND_GAME.py, with its
    own register(subparsers)."""
    p = sub.add_parser(command, help=help)
    choices = p.add_subparsers(dest="game", metavar="GAME")
    choices.required = True
    for game in games:
        importlib.import_module("tapis.host.%s_%s" % (command, game)).register(choices)
