# The test suite's record of which tests use a twin (make test; tests/twin_select.py reads it).
# With TAPIS_TWIN_LOG naming a folder, twins.py hands out watched copies of the modules it
# chose: every call into one of their functions, and every read of twins.CORE, writes the
# running test's id (TAPIS_TWIN_TEST, set by the suite) once to this process's file in that
# folder. A child process (a `tapis` command a test runs) inherits both variables with
# TAPIS_PURE, so it records under the test that started it. Without TAPIS_TWIN_LOG nothing
# here runs: twins.py hands out the modules themselves.
import functools
import os
import types

LOG = os.environ.get("TAPIS_TWIN_LOG", "")
TEST = "TAPIS_TWIN_TEST"
UNKNOWN = "?"  # a twin used outside any test, collector or fixture the suite named
_state = {"test": os.environ.get(TEST, ""), "noted": set()}


def begin(test):
    """Name what runs next (a test, a collector, a fixture) in this process and its children."""
    os.environ[TEST] = test
    _state["test"] = test


def note():
    test = _state["test"] or UNKNOWN
    if test not in _state["noted"]:
        _state["noted"].add(test)
        with open(os.path.join(LOG, "%d.txt" % os.getpid()), "a") as f:
            f.write(test + "\n")


def _noting(f):
    @functools.wraps(f)
    def call(*args, **kwargs):
        note()
        return f(*args, **kwargs)
    return call


def watched(module):
    """A copy of `module` (same name and values) whose functions note() each call."""
    copy = types.ModuleType(module.__name__, module.__doc__)
    for name, value in vars(module).items():
        plain = isinstance(value, (type, types.ModuleType)) or not callable(value)
        setattr(copy, name, value if plain else _noting(value))
    return copy


class Chooser(types.ModuleType):
    """twins.py's module type while watching: reading CORE is using a twin (it says which)."""

    def __getattribute__(self, name):
        if name == "CORE":
            note()
        return super().__getattribute__(name)
