# Variants by name: a game's module `variants` holds them as Options keyword data. The
# host looks them up (tapis table --variant, tapis flash writes the options themselves
# into the board's configuration), so the board never loads this.
from . import find


def variants(name):
    """{variant name: Options keyword arguments} of the game `name`."""
    return __import__(".".join((find(name).__name__, "variants")), None, None, ("VARIANTS",)).VARIANTS


def options(name, variant=None):
    """The Options of a game, for a variant by name (None: the rules of SPEC §4)."""
    game = find(name)
    if variant is None:
        return game.Options()
    named = variants(name)
    if variant not in named:
        raise ValueError("%s has no variant %r; it has: %s" % (name, variant, ", ".join(sorted(named))))
    return game.Options(**named[variant])
