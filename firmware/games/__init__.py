# The games a table can play, registered once and found by name (as python-chess finds a
# variant). Each is a package here; docs/architecture.md says what one must provide:
#   Options            its options (rules.Options); offboard/variants/<name>.py names the variants:
#                      VARIANTS = {name: Options keyword arguments} (offboard/named.py looks them up)
#   Rules              its state machine (rules.Rules): verify / can / apply -> events
#   Table              its table adapter: each seat's view and what each panel button means
#   VOID_TORN_DEAL     a deal that power loss cut while it was being dealt is void
#   SELFTEST           it has a module `selftest` with run() -> failure or None (loaded by
#                      the board's self-test); else its rules must refuse nonsense
GAMES = ("ecarte", "piquet", "club")  # the one list of games


def find(name):
    """The game package called `name`; ValueError naming the games if there is none."""
    if name not in GAMES:
        raise ValueError("no game %r on this table (games: %s)" % (name, ", ".join(GAMES)))
    return __import__(__name__ + "." + name, None, None, ("Rules",))
