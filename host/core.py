# Chooses the evaluator: the compiled twin when it is built, the pure one otherwise.
# TAPIS_PURE=1 forces the pure one (as MSGPACK_PUREPYTHON does for msgpack).
import os
import sys


def _load():
    if os.environ.get("TAPIS_PURE", "") not in ("", "0"):
        from firmware import evaluate
        return evaluate, "pure"
    try:
        from cython_core import evaluate
        return evaluate, "cython"
    except ImportError as e:
        sys.stderr.write("warning: compiled core unavailable (%s); using the pure twin\n" % e)
        from firmware import evaluate
        return evaluate, "pure"


evaluate, CORE = _load()


def _ecarte_solver():
    """The écarté double-dummy solver: compiled when the core is, else the pure twin."""
    if CORE == "cython":
        try:
            from cython_core import ecarte_solver
            return ecarte_solver
        except ImportError as e:
            sys.stderr.write("warning: compiled écarté solver unavailable (%s); using the pure twin\n" % e)
    from firmware import ecarte_solver
    return ecarte_solver


ecarte_solver = _ecarte_solver()
