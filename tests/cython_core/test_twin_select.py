# make test's pure half runs only the tests that used a twin on the compiled core
# (tests/twin_select.py, cython_core/watch.py): the recorder, the selection and its check.
import ast
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import twin_select as S

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("firmware", "cython_core", "simulator", "host")


def child(code, tmp_path, **env):
    """Run `code` in a fresh interpreter with the watch's variables as given; its record."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAPIS_TWIN_")} | {"TAPIS_PURE": "0"} | env
    env = {k: v for k, v in env.items() if v is not None}
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    return p.stdout, S.records(tmp_path)


def test_a_child_records_the_test_that_started_it_once_per_test_on_a_call_or_a_core_read(tmp_path):
    code = ("from tapis.cython_core import twins\n"
            "twins.evaluate.game_value(1); twins.duel.solve; twins.evaluate.game_value(2)\n"
            "from tapis.cython_core import watch; watch.begin('b'); print(twins.CORE)\n"
            "watch.begin('c'); twins.evaluate.ECARTE_STRENGTH\n")
    out, got = child(code, tmp_path, TAPIS_TWIN_LOG=str(tmp_path), TAPIS_TWIN_TEST="a")
    assert out.strip() in ("cython", "pure")
    assert got == ["a", "b"]  # a read of a constant or of a function is no use: both twins share them
    assert [p.read_text() for p in tmp_path.glob("*.txt")] == ["a\nb\n"]


def test_without_the_log_the_chooser_hands_out_the_modules_themselves(tmp_path):
    code = ("import sys; from tapis.cython_core import twins\n"
            "print(all(getattr(twins, n) is sys.modules[getattr(twins, n).__name__] for n in twins.TWINS),"
            " type(twins).__name__)")
    out, got = child(code, tmp_path, TAPIS_TWIN_TEST="a")
    assert out.split() == ["True", "module"] and got == []


@pytest.mark.parametrize("pure", [None, "", "1"])
def test_a_child_whose_tapis_pure_a_test_set_or_removed_records_nothing(tmp_path, pure):
    """Its twin is the test's choice, not the half's (the compiled half sets TAPIS_PURE=0)."""
    _out, got = child("from tapis.cython_core import twins; twins.evaluate.game_value(1); twins.CORE", tmp_path,
                      TAPIS_TWIN_LOG=str(tmp_path), TAPIS_TWIN_TEST="a", TAPIS_PURE=pure)
    assert got == []


def test_a_twin_used_outside_anything_named_is_recorded_as_unknown(tmp_path):
    _out, got = child("from tapis.cython_core import twins; twins.evaluate.game_value(1)", tmp_path,
                      TAPIS_TWIN_LOG=str(tmp_path))
    assert got == ["?"]


def item(nodeid, fixtures=()):
    return SimpleNamespace(nodeid=nodeid, name=nodeid.rpartition("::")[2], fixturenames=list(fixtures))


def test_a_record_chooses_its_test_its_modules_tests_or_its_fixtures_users():
    a = item("tests/x/test_a.py::test_one[1-2]", ["db"])
    assert S.chooses("tests/x/test_a.py::test_one[1-2]", a)
    assert not S.chooses("tests/x/test_a.py::test_one[1", a) and not S.chooses("tests/x/test_a.py::test_on", a)
    assert S.chooses("tests/x/test_a.py", a) and S.chooses("tests/x", a) and S.chooses("", a)
    assert not S.chooses("tests/x/test_a", a)
    assert S.chooses("fixture db tests/x", a) and S.chooses("fixture db ", a)
    assert not S.chooses("fixture pit ", a) and not S.chooses("fixture db tests/y", a)


def test_the_selection_keeps_the_recorded_and_the_check_and_reports_what_it_cannot_trust():
    items = [item("tests/test_a.py::test_one"), item("tests/test_a.py::test_two", ["db"]),
             item("tests/test_b.py::" + S.CHECK), item("tests/test_b.py::test_three")]
    kept, dropped, problems = S.select(["fixture db ", "tests/test_a.py::test_one"], items)
    assert [i.nodeid for i in kept] == [i.nodeid for i in items[:3]] and dropped == items[3:]
    assert problems == []
    _k, _d, problems = S.select(["tests/test_a.py::test_gone", "tests/test_c.py::not_collected_here"], items)
    assert len(problems) == 1 and "test_gone" in problems[0] and "test_c" not in problems[0]
    kept, _d, problems = S.select([], items)
    assert [i.name for i in kept] == [S.CHECK] and "no record" in problems[0]
    assert "outside" in S.select(["?"], items)[2][0]


def test_only_the_chooser_and_its_watch_read_tapis_pure_in_the_product():
    """So a test that uses no twin runs the same code on either half."""
    readers = sorted(str(p.relative_to(ROOT)) for folder in PRODUCT for p in (ROOT / folder).rglob("*.py")
                     if "node_modules" not in p.parts and any(
                         isinstance(n, ast.Constant) and n.value == "TAPIS_PURE"
                         for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))))
    assert readers == ["cython_core/twins.py", "cython_core/watch.py"]  # the chooser, and its watch in the suite


def test_the_pure_half_keeps_every_test_that_used_a_twin(request):
    """Kept in the pure half whatever the record says: fails there if the record cannot be
    trusted (empty, unattributed, or naming a test that is no longer collected)."""
    if not S.SELECT:
        if S.LOG:  # the compiled half: the recorder is on
            from tapis.cython_core import twins, watch
            assert type(twins) is watch.Chooser, "the compiled half runs with TAPIS_PURE=0 (make test)"
            return
        pytest.skip("checks make test's pure half (TAPIS_TWIN_SELECT); this run selects nothing")
    problems = request.config.stash[S.PROBLEMS]
    assert not problems, "\n".join(problems)
    chooser = [i for i in request.session.items if i.name == "test_the_host_uses_the_compiled_core_unless_tapis_pure_says_otherwise"]
    assert chooser, "the recorder missed test_twins's read of twins.CORE: is it on in the compiled half?"


def test_a_worker_of_a_server_started_by_an_earlier_test_records_the_test_running_now(tmp_path):
    """multiprocessing's forkserver keeps the environment of the test that started it: its
    workers record the test the runner names now (and that one, to be safe)."""
    script = tmp_path / "runner.py"
    script.write_text(
        "import multiprocessing\n"
        "from tapis.cython_core import twins, watch\n"
        "def work():\n"
        "    twins.evaluate.game_value(1)\n"
        "if __name__ == '__main__':\n"
        "    ctx = multiprocessing.get_context('forkserver')\n"
        "    for test in ('a', 'b'):\n"
        "        watch.begin(test)\n"
        "        p = ctx.Process(target=work)\n"
        "        p.start(); p.join()\n"
        "        assert p.exitcode == 0\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAPIS_TWIN_")}
    p = subprocess.run([sys.executable, str(script)], env=dict(env, TAPIS_TWIN_LOG=str(tmp_path), TAPIS_PURE="0"),
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    assert S.records(tmp_path) == ["a", "b"]
