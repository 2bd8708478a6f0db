# `tapis odds GAME ...`: exact odds, by complete enumeration. Each game's part lives in
# host/odds_<game>.py with register(subparsers); list it in GAMES.
import importlib

GAMES = ("club", "ecarte")


def register(sub):
    p = sub.add_parser("odds", help="exact odds, by complete enumeration")
    games = p.add_subparsers(dest="game", metavar="GAME")
    games.required = True
    for game in GAMES:
        importlib.import_module("host.odds_" + game).register(games)
