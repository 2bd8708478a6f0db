# The compiled core is optional: without a compiler the build warns and succeeds, and
# the host then runs on the pure twins; TAPIS_PURE=1 forces them.
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_compiler_the_build_warns_and_succeeds(tmp_path):
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tmp_path)
    shutil.copytree(ROOT / "cython_core", tmp_path / "cython_core",
                    ignore=shutil.ignore_patterns("*.so", "*.c"))
    env = dict(os.environ, CC="/bin/false")
    p = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(tmp_path / "out")],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "WARNING: the Cython core could not be built" in p.stderr
    assert "pure-Python twins" in p.stderr
    assert not list((tmp_path / "out").rglob("*.so"))


def test_tapis_pure_forces_the_pure_twin():
    env = dict(os.environ, TAPIS_PURE="1")
    p = subprocess.run([sys.executable, "-m", "tapis", "info", "--json"], env=env,
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["core"] == "pure"


def test_a_missing_compiled_core_falls_back_with_a_warning():
    code = ("import sys; sys.modules['tapis.cython_core.evaluate'] = None\n"
            "from tapis.cython_core import twins as core; print(core.CORE, core.evaluate.__name__)")
    env = {k: v for k, v in os.environ.items() if k != "TAPIS_PURE"}
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert p.stdout.split() == ["pure", "tapis.firmware.evaluate"]
    assert "compiled evaluate unavailable" in p.stderr
