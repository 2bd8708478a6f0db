# Each game's host-side kit, found under the game's name in the one registry
# (tapis.firmware.games.GAMES): simulator/kits/<name>/ provides
#   TITLE       the game in words
#   Bot         a player at a panel: presses(view) -> [(button, arg)], its seat's view only
#   Recorder    feed(events) -> the deal records those events completed (JSON-ready)
#   Renderer    the table display's public events as readable lines, for watching
#   new_game(options, evaluator)  the game's rules, on the host's compiled core if built
import importlib

from tapis.firmware.games import GAMES, find as find_game

__all__ = ["GAMES", "find"]


def find(name):
    """The host-side kit of the game `name` (ValueError naming the games if unknown)."""
    find_game(name)
    return importlib.import_module(__name__ + "." + name)


def levels(name):
    """The strengths of the game `name`'s bots, weakest first (its kit's BOTS)."""
    kit = find(name)
    return tuple(getattr(kit, "BOTS", {"rules": kit.Bot}))


def bot(name, level="rules", seed=1):
    """A new bot for a seat of the game `name`, at a strength a kit names in its BOTS
    ({level: bot class}; "rules": rules of thumb, the kit's Bot). `seed`: the stream of
    the bots that draw (random play, the advisor's samples); the others ignore it."""
    kit = find(name)
    levels = getattr(kit, "BOTS", {"rules": kit.Bot})
    if level not in levels:
        raise ValueError("%s has no bots of strength %r; it has: %s" % (name, level, ", ".join(levels)))
    return levels[level](seed)
