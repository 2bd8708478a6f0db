# Club (banking) écarté (SPEC §4, seeds 004, 001): the game as the registry finds it
# (games/__init__.py). A club "game" is one bank: it ends when the bank passes on.
NAME = "club"
TITLE = "club écarté"
VOID_TORN_DEAL = False  # the cards of a deal are dealt before anyone acts on them

from .options import Options, VARIANTS  # noqa: E402,F401
from .engine import Club as Rules  # noqa: E402,F401
from .table import ClubTable as Table  # noqa: E402,F401
