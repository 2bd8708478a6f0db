# Piquet (SPEC §4, seed 003): the game as the registry finds it (games/__init__.py).
NAME = "piquet"
TITLE = "piquet"
VOID_TORN_DEAL = True

from .options import Options, VARIANTS, cent  # noqa: E402,F401
from .play import rubicon  # noqa: E402,F401
from .engine import Piquet as Rules  # noqa: E402,F401
from .table import PiquetTable as Table  # noqa: E402,F401
