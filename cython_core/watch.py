# The test suite's record of which tests use a twin (make test; tests/twin_select.py reads it).
# With TAPIS_TWIN_LOG naming a folder, twins.py hands out watched copies of the modules it
# chose: every call into one of their functions, and every read of twins.CORE, writes the
# running test's id (TAPIS_TWIN_TEST, set by the suite) once to this process's file in that
# folder. A child process (a `tapis` command a test runs) inherits both variables with
# TAPIS_PURE, so it records under the test that started it. A process started later from a
# server an earlier test started (multiprocessing's forkserver) has that test's environment:
# so every child also records what the suite names now, read from a file the running
# process rewrites at each begin() (TAPIS_TWIN_NOW). The compiled half runs with TAPIS_PURE=0:
# only a process that inherited it is watched; one whose TAPIS_PURE a test set or removed
# chose its twin itself, the same in either half. Without TAPIS_TWIN_LOG and TAPIS_PURE=0
# nothing here runs: twins.py hands out the modules themselves.
import functools
import os
import time
import types

LOG = os.environ.get("TAPIS_TWIN_LOG", "") if os.environ.get("TAPIS_PURE") == "0" else ""
TEST = "TAPIS_TWIN_TEST"
NOW = "TAPIS_TWIN_NOW"
UNKNOWN = "?"  # a twin used outside any test, collector or fixture the suite named
_state = {"test": os.environ.get(TEST, ""), "noted": set(), "runner": False, "now": os.environ.get(NOW, ""),
          "seen": None, "named": "", "looked": 0}


def begin(test):
    """Name what runs next (a test, a collector, a fixture) in this process and its children."""
    if not _state["runner"]:  # the process that runs the tests (a fork of it keeps this)
        _state["runner"] = True
        _state["now"] = os.environ[NOW] = os.path.join(LOG, "now-%d" % os.getpid())
    os.environ[TEST] = test
    _state["test"] = test
    with open(_state["now"] + ".new", "w") as f:
        f.write(test)
    os.replace(_state["now"] + ".new", _state["now"])  # a new file: a child sees it changed


def _named():
    """What the suite runs now, for a process that is not the one running the tests."""
    if _state["runner"] or not _state["now"]:
        return ""
    ms = time.monotonic_ns() // 1000000
    if ms == _state["looked"]:  # looked at most once a millisecond (a stat is a few µs)
        return _state["named"]
    _state["looked"] = ms
    try:
        st = os.stat(_state["now"])
    except OSError:
        return ""
    if (st.st_ino, st.st_mtime_ns, st.st_size) != _state["seen"]:
        _state["seen"] = (st.st_ino, st.st_mtime_ns, st.st_size)
        with open(_state["now"]) as f:
            _state["named"] = f.read()
    return _state["named"]


def note():
    started = _state["test"] or UNKNOWN
    for test in (started, _named() or started):
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
