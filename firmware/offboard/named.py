# Variants by name: offboard/variants/<game>.py holds a game's as Options keyword data. The
# host looks them up (tapis table --variant, tapis flash writes the options themselves
# into the board's configuration), so the board never loads this.
from ..games import find


def variants(name):
    """{variant name: Options keyword arguments} of the game `name`."""
    find(name)  # (a ValueError naming the games if there is none)
    return __import__(__name__[:__name__.rfind(".")] + ".variants." + name, None, None, ("VARIANTS",)).VARIANTS


def options(name, variant=None):
    """The Options of a game, for a variant by name (None: the rules of SPEC §4)."""
    game = find(name)
    if variant is None:
        return game.Options()
    named = variants(name)
    if variant not in named:
        raise ValueError("%s has no variant %r; it has: %s" % (name, variant, ", ".join(sorted(named))))
    return game.Options(**named[variant])
