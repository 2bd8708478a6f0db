# Piquet (SPEC §4, seed 003): the game as the registry finds it (games/__init__.py).
SELFTEST = False  # it has a module selftest with run() -> failure or None
VOID_TORN_DEAL = True

from .options import Options  # noqa: E402,F401
from .play import rubicon  # noqa: E402,F401
from .rules import Piquet as Rules  # noqa: E402,F401
from .table import PiquetTable as Table  # noqa: E402,F401
