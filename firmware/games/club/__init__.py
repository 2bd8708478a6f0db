# Club (banking) écarté (SPEC §4, seeds 004, 001): the game as the registry finds it
# (games/__init__.py). A club "game" is one bank: it ends when the bank passes on.
SELFTEST = False  # it has a module selftest with run() -> failure or None
VOID_TORN_DEAL = False  # the cards of a deal are dealt before anyone acts on them

from .options import Options  # noqa: E402,F401
from .rules import Club as Rules  # noqa: E402,F401
from .table import ClubTable as Table  # noqa: E402,F401
