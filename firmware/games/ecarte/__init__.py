# Écarté (SPEC §4, seeds 000-002): the game as the registry finds it (games/__init__.py).
NAME = "ecarte"
TITLE = "écarté"
VOID_TORN_DEAL = True

from .options import Options, VARIANTS  # noqa: E402,F401
from .engine import Ecarte as Rules  # noqa: E402,F401
from .table import EcarteTable as Table  # noqa: E402,F401
