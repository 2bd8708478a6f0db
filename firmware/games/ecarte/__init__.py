# Écarté (SPEC §4, seeds 000-002): the game as the registry finds it (games/__init__.py).
SELFTEST = True  # it has a module selftest with run() -> failure or None
VOID_TORN_DEAL = True

from .options import Options  # noqa: E402,F401
from .rules import Ecarte as Rules  # noqa: E402,F401
from .table import EcarteTable as Table  # noqa: E402,F401
