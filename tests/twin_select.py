# Which tests run again on the pure twins (make test). The compiled half runs the whole suite
# with TAPIS_TWIN_LOG set and TAPIS_PURE=0: cython_core/watch.py records the id of every test that called into a
# twin or read twins.CORE, in this process or in a child it started (a `tapis` command), and of
# every collector (a test module calling one as it is imported) or wider fixture (one set up once
# for many tests) that did. The pure half (TAPIS_PURE=1, TAPIS_TWIN_SELECT=that folder) keeps the
# tests those records name and deselects the rest. A record that names no collected test, a twin
# used outside anything named, or no record at all fails the one test always kept (CHECK):
# no test that uses a twin can be left out.
# Only twins.py and its watch read TAPIS_PURE (tests/cython_core/test_twin_select.py checks it), so a test
# that uses no twin runs the same code either way.
import os
from pathlib import Path

import pytest

LOG = os.environ.get("TAPIS_TWIN_LOG", "")
SELECT = os.environ.get("TAPIS_TWIN_SELECT", "")
FIXTURE = "fixture "  # a record "fixture NAME BASEID": every test under BASEID that uses NAME
CHECK = "test_the_pure_half_keeps_every_test_that_used_a_twin"  # always kept: it fails on a bad record
PROBLEMS = pytest.StashKey()


def records(folder):
    """The ids the compiled half recorded (one file per process), each once, sorted."""
    return sorted({line for p in Path(folder).glob("*.txt") for line in p.read_text().splitlines() if line})


def chooses(record, item):
    """Does `record` (a test, a collector or a fixture) name this test?"""
    if record.startswith(FIXTURE):
        name, _, base = record[len(FIXTURE):].partition(" ")
        return name in getattr(item, "fixturenames", ()) and chooses(base, item)
    nodeid = item.nodeid
    return record == "" or nodeid == record or nodeid.startswith(record + "::") \
        or nodeid.startswith(record.rstrip("/") + "/")


def select(recorded, items):
    """(kept, dropped, problems): the tests a record names (and the check), the others, and
    what makes the selection untrustworthy (which the check test reports as its failure)."""
    from tapis.cython_core import watch

    problems = []
    if not recorded:
        problems.append("no record of twin use in %s: did the compiled half run with TAPIS_TWIN_LOG?" % SELECT)
    if watch.UNKNOWN in recorded:
        problems.append("a twin was used outside any test, collector or fixture the suite names")
    kept, dropped, used = [], [], set()
    for item in items:
        names = [r for r in recorded if chooses(r, item)]
        used.update(names)
        (kept if names or item.name == CHECK else dropped).append(item)
    files = {item.nodeid.partition("::")[0] for item in items}  # a run of some files: their records
    lost = [r for r in recorded if r not in used and r != watch.UNKNOWN
            and (r.startswith(FIXTURE) or r.partition("::")[0] in files)]
    if lost:
        problems.append("recorded, not collected now (an id that changes between runs?): " + ", ".join(lost))
    return kept, dropped, problems


if LOG:
    from tapis.cython_core import watch

    @pytest.hookimpl(hookwrapper=True)
    def pytest_make_collect_report(collector):
        watch.begin(collector.nodeid)  # a test module's import, its parametrize lists
        yield
        watch.begin("")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item):
        watch.begin(item.nodeid)
        yield
        watch.begin("")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(fixturedef):
        """A fixture set up once for many tests: its twin use is each of theirs."""
        if fixturedef.scope == "function":
            yield
            return
        test = os.environ.get(watch.TEST, "")
        watch.begin("%s%s %s" % (FIXTURE, fixturedef.argname, fixturedef.baseid))
        yield
        watch.begin(test)

if SELECT:
    @pytest.hookimpl(trylast=True)  # after -m "not slow": the count is of the tests that run
    def pytest_collection_modifyitems(config, items):
        kept, dropped, config.stash[PROBLEMS] = select(records(SELECT), items)
        if not hasattr(config, "workerinput") or config.workerinput["workerid"] == "gw0":
            Path(SELECT, "selected").write_text("%d of %d tests\n" % (len(kept), len(items)))
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept

    def pytest_terminal_summary(terminalreporter, config):
        if not hasattr(config, "workerinput") and Path(SELECT, "selected").exists():
            terminalreporter.write_line("pure twins: %s (those that used a twin on the compiled core)"
                                        % Path(SELECT, "selected").read_text().strip())
