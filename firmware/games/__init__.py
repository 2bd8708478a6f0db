# The games a table can play, registered once and found by name (as python-chess finds a
# variant). Each is a package here; docs/architecture.md says what one must provide:
#   NAME, TITLE        its name in the registry and in words
#   Options, VARIANTS  its options (rules.Options) and the variants by name, as keyword data
#   Rules              its state machine (rules.Rules): verify / can / apply -> events
#   Table              its table adapter: each seat's view and what each panel button means
#   VOID_TORN_DEAL     a deal that power loss cut while it was being dealt is void
# and, loaded only by the self-test, a module `selftest` with run() -> failure or None.
GAMES = ("ecarte", "piquet", "club")  # the one list of games


def find(name):
    """The game package called `name`; ValueError naming the games if there is none."""
    if name not in GAMES:
        raise ValueError("no game %r on this table (games: %s)" % (name, ", ".join(GAMES)))
    return __import__(__name__ + "." + name, None, None, ("NAME",))


def options(name, variant=None):
    """The Options of a game, for a variant by name (None: the rules of SPEC §4)."""
    game = find(name)
    if variant is None:
        return game.Options()
    if variant not in game.VARIANTS:
        raise ValueError("%s has no variant %r; it has: %s" % (
            name, variant, ", ".join(sorted(game.VARIANTS)) or "none"))
    return game.Options(**game.VARIANTS[variant])
