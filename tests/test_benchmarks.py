# The benchmarks run: each script in benchmarks/ in its quick mode (a few seconds, the same
# code path and the same checks as `make bench`), so that an import moved under it or an
# assumption that stopped holding fails here and not months later. The scripts are found the
# way benchmarks/run_all.py finds them: a new benchmark is covered without a line here.
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(name):
    spec = importlib.util.spec_from_file_location("bench_" + name, BENCH / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


run_all = _load("run_all")
quick = _load("_quick")
SCRIPTS = [p.name for p in run_all.scripts()]


def test_every_benchmark_is_found_and_run_all_passes_quick_on():
    assert len(SCRIPTS) >= 10 and "run_all.py" not in SCRIPTS and "_quick.py" not in SCRIPTS
    script = BENCH / SCRIPTS[0]
    assert run_all.command(script, ["--quick"]) == [sys.executable, str(script), "--quick"]
    assert run_all.command(script, []) == [sys.executable, str(script)]


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_benchmark_runs_quick_and_prints_its_figures(script):
    p = subprocess.run([sys.executable, str(BENCH / script), "--quick"], cwd=BENCH.parent, env=run_all.env(),
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, "%s --quick exited %d\n%s%s" % (script, p.returncode, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr, p.stderr
    figures = [line for line in p.stdout.splitlines() if re.search(r"\d", line)]
    assert figures, "%s printed no figures:\n%s" % (script, p.stdout)


def test_quick_sizes_are_defaults_a_size_given_still_wins():
    import argparse

    def parser():
        p = argparse.ArgumentParser()
        p.add_argument("--deals", type=int, default=300)
        p.add_argument("--seed", type=int, default=7)
        return p

    assert quick.parse(parser(), {"deals": 3}, []).deals == 300
    a = quick.parse(parser(), {"deals": 3}, ["--quick"])
    assert (a.deals, a.seed, a.quick) == (3, 7, True)
    assert quick.parse(parser(), {"deals": 3}, ["--quick", "--deals", "5"]).deals == 5
