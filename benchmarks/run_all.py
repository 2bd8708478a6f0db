"""Run every benchmark in this folder, one after another (make bench); given --quick, each
runs quick (a few seconds apiece: what tests/test_benchmarks.py runs)."""
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def scripts():
    """The benchmarks: every script here but this one and the helpers (_*.py)."""
    return [p for p in sorted(HERE.glob("*.py")) if p.name != Path(__file__).name and not p.name.startswith("_")]


def env():
    """This checkout first on the path, so a script benchmarks the tree it sits in (not
    whichever tapis the virtual environment installed)."""
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=str(ROOT) + (os.pathsep + path if path else ""))


def command(script, argv):
    """How `script` is run, given run_all's own arguments: --quick passed through."""
    return [sys.executable, str(script)] + (["--quick"] if "--quick" in argv else [])


if __name__ == "__main__":
    failed = []
    for script in scripts():
        print("== %s" % script.name, flush=True)
        if subprocess.call(command(script, sys.argv[1:]), cwd=ROOT, env=env()) != 0:
            failed.append(script.name)
    if failed:
        print("failed: %s" % ", ".join(failed))
    sys.exit(1 if failed else 0)
