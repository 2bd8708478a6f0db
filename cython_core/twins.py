# Chooses each twin: the compiled tapis.cython_core.X when it is built, the pure firmware
# module otherwise (with a warning). TAPIS_PURE=1 forces the pure ones, as
# MSGPACK_PUREPYTHON does for msgpack. The firmware itself always runs the pure modules.
import importlib
import os
import sys

from . import watch

# compiled module (cython_core/X.pyx) -> its pure twin, the module the board runs
TWINS = {
    "evaluate": "tapis.firmware.evaluate",
    "ecarte_solver": "tapis.firmware.offboard.ecarte_solver",
    "duel": "tapis.firmware.games.club.duel",
    "declarations": "tapis.firmware.games.piquet.declarations",
    "club_bank": "tapis.firmware.offboard.club_bank",
    "ecarte_verdict": "tapis.firmware.offboard.ecarte_verdict",
}
PURE = os.environ.get("TAPIS_PURE", "") not in ("", "0")


def _twin(name):
    if not PURE:
        try:
            return importlib.import_module("tapis.cython_core." + name), "cython"
        except ImportError as e:
            sys.stderr.write("warning: compiled %s unavailable (%s); using the pure twin\n" % (name, e))
    return importlib.import_module(TWINS[name]), "pure"


_chosen = {name: _twin(name) for name in TWINS}
_players = {name: module for name, (module, _kind) in _chosen.items()}
if watch.LOG:  # the test suite records who uses a twin (cython_core/watch.py)
    _chosen = {name: (watch.watched(module), kind) for name, (module, kind) in _chosen.items()}
    sys.modules[__name__].__class__ = watch.Chooser
evaluate = _chosen["evaluate"][0]
ecarte_solver = _chosen["ecarte_solver"][0]
duel = _chosen["duel"][0]
declarations = _chosen["declarations"][0]
club_bank = _chosen["club_bank"][0]
ecarte_verdict = _chosen["ecarte_verdict"][0]


def for_players(name):
    """The twin `name` as the simulated players' advisors use it, to choose their moves: the
    same module the table gets, never watched. Both twins give the same answers
    (tests/cython_core/test_twins.py), and a test compares a table with one played by the same players, so a
    test that reaches a twin only through a player cannot tell the twins apart: it runs once, in
    the compiled half (tests/twin_select.py)."""
    return _players[name]


# "cython" only when every twin is compiled: a partial build is reported as pure.
CORE = "cython" if all(kind == "cython" for _m, kind in _chosen.values()) else "pure"
