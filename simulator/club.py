# Club écarté in the simulator: which duel core the host uses, the bot at the panel,
# the deal recorder and the terminal renderer.
import os
import sys


def load_duel():
    """(duel module, "cython" | "pure"): the compiled twin when built, the pure one
    otherwise; TAPIS_PURE=1 forces the pure one (as host/core.py does for evaluate)."""
    if os.environ.get("TAPIS_PURE", "") not in ("", "0"):
        from firmware import duel
        return duel, "pure"
    try:
        from cython_core import duel
        return duel, "cython"
    except ImportError as e:
        sys.stderr.write("warning: compiled duel unavailable (%s); using the pure twin\n" % e)
        from firmware import duel
        return duel, "pure"
