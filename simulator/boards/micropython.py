"""Run code under real MicroPython (the official webassembly port) from CPython.

The port is an npm package driven by ``mp/run.mjs`` (see that file for the runner's options).
It is found in ``simulator/mp/node_modules`` (a checkout: ``make install`` runs ``npm ci``
there), else in the user's cache, where ``tapis setup`` installs it with npm (``install()``):
an installed wheel carries no node_modules.

    >>> run("import firmware.cards").returncode
    0
"""
from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterable

MP_DIR = Path(__file__).resolve().parent.parent / "mp"
RUNNER = MP_DIR / "run.mjs"
REPO = MP_DIR.parent.parent
FIRMWARE_DIR = REPO / "firmware"
# The firmware mounted as the host imports it (tapis.firmware): code shared by the tests
# under both interpreters imports the same names. Its own imports are package-relative.
AS_TAPIS = (FIRMWARE_DIR, "tapis/firmware")
PORT = "@micropython/micropython-webassembly-pyscript"
_PACKAGE = MP_DIR / "node_modules" / PORT  # a checkout's, from `make install`


class MissingRuntime(RuntimeError):
    """Node or the MicroPython port is not installed; the message says how to install it."""


def pinned() -> str:
    """The port's version this tapis runs (simulator/mp/package.json, the one place it is set)."""
    return json.loads((MP_DIR / "package.json").read_text())["dependencies"][PORT]


def cache_dir() -> Path:
    """Where `tapis setup` installs what tapis fetches: $TAPIS_CACHE, else the platform's
    per-user cache folder."""
    if os.environ.get("TAPIS_CACHE"):
        return Path(os.environ["TAPIS_CACHE"])
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "tapis" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "tapis"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tapis"


def cached_package() -> Path:
    return cache_dir() / ("micropython-" + pinned()) / "node_modules" / PORT


def package() -> Path | None:
    """The port's package folder in use: the checkout's, else the cached one, else None."""
    for found in (_PACKAGE, cached_package()):
        if (found / "micropython.mjs").is_file():
            return found
    return None


def node_available() -> bool:
    return shutil.which("node") is not None


def ensure_installed() -> None:
    """Raise MissingRuntime saying what to do if node or the npm package is missing."""
    if not node_available():
        raise MissingRuntime("Node.js is not installed (node is not on PATH): MicroPython runs "
                             "under it on this computer. Install Node.js 20 with npm, then run `tapis setup`")
    if package() is None:
        raise MissingRuntime("the MicroPython runtime (the npm package %s %s) is not installed: "
                             "run `tapis setup` (it fetches it with npm into %s)"
                             % (PORT, pinned(), cached_package().parents[2]))


def install(log=print) -> Path:
    """Install the pinned port into the user's cache with npm (`tapis setup`); its folder.
    Raises MissingRuntime when npm is missing or fails."""
    found = package()
    if found is not None:
        log("the MicroPython runtime %s is installed: %s" % (pinned(), found))
        return found
    npm = shutil.which("npm")
    if npm is None or not node_available():
        raise MissingRuntime("npm and node are needed to fetch the MicroPython runtime: "
                             "install Node.js 20 with npm, then run `tapis setup` again")
    target = cached_package().parents[2]
    target.mkdir(parents=True, exist_ok=True)
    (target / "package.json").write_text(json.dumps(
        {"name": "tapis-micropython", "private": True, "dependencies": {PORT: pinned()}}, indent=2) + "\n")
    log("fetching %s %s with npm into %s" % (PORT, pinned(), target))
    p = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=target,
                       capture_output=True, text=True)
    if p.returncode or package() is None:
        raise MissingRuntime("npm could not install %s %s into %s:\n%s"
                             % (PORT, pinned(), target, (p.stderr or p.stdout).strip()))
    return cached_package()


def command(
    code: str | None = None,
    script: str | os.PathLike[str] | None = None,
    roots: Iterable = (FIRMWARE_DIR,),
    args: Iterable[str] = (),
    paths: Iterable[str] = (),
    stdin: str = "block",
) -> list[str]:
    """The argv that runs ``code`` (``-c``) or ``script`` under MicroPython.

    Each root directory appears in the MicroPython FS under its own name at ``/``, which is
    on ``sys.path``: the default root makes ``import firmware.x`` work. A root may also be a
    (directory, name) pair: ``AS_TAPIS`` makes ``import tapis.firmware.x`` work. ``paths`` are extra
    FS directories for ``sys.path``; ``stdin`` is "block" or "nonblock" (see run.mjs).
    """
    if (code is None) == (script is None):
        raise ValueError("give exactly one of code= or script=")
    argv = ["node", str(RUNNER), "--stdin", stdin]
    found = package()
    if found is not None and found != _PACKAGE:
        argv += ["--micropython", str(found)]
    for root in roots:
        if isinstance(root, tuple):
            argv += ["--root", str(root[0]), "--root-as", root[1]]
        else:
            argv += ["--root", str(root)]
    for p in paths:
        argv += ["--path", p]
    argv += ["-c", code] if code is not None else [str(script)]
    return argv + list(args)


def run(
    code: str | None = None,
    script: str | os.PathLike[str] | None = None,
    roots: Iterable = (FIRMWARE_DIR,),
    timeout: float | None = 60,
    args: Iterable[str] = (),
    input: str | None = None,
    check: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run to completion and capture stdout/stderr as text.

    A Python exception gives a non-zero ``returncode`` and the traceback in ``stderr``;
    ``check=True`` raises ``subprocess.CalledProcessError`` then.
    """
    ensure_installed()
    return subprocess.run(
        command(code, script, roots, args),
        input=input if input is not None else "",  # never inherit the caller's stdin
        capture_output=True,
        text=True,
        timeout=timeout,
        check=check,
    )


@functools.lru_cache(maxsize=None)
def version() -> str:
    """The runtime's MicroPython version, e.g. "1.27.0"."""
    proc = run("import sys; print('.'.join(str(n) for n in sys.implementation.version[:3]))",
               roots=(), timeout=30, check=True)
    return proc.stdout.strip()


def version_or_none() -> str | None:
    """version(), or None when the runtime is not installed or does not run."""
    try:
        return version()
    except (RuntimeError, OSError, subprocess.SubprocessError):
        return None
