"""Run code under real MicroPython (the official webassembly port) from CPython.

The port is an npm package driven by ``mp/run.mjs`` (see that file for the runner's options).
``make install`` runs ``npm ci`` in ``simulator/mp``; without it nothing here can run.

    >>> run("import firmware.cards").returncode
    0
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path
from typing import Iterable

MP_DIR = Path(__file__).resolve().parent / "mp"
RUNNER = MP_DIR / "run.mjs"
REPO = MP_DIR.parent.parent
FIRMWARE_DIR = REPO / "firmware"
# The firmware mounted as the host imports it (tapis.firmware): code shared by the tests
# under both interpreters imports the same names. Its own imports are package-relative.
AS_TAPIS = (FIRMWARE_DIR, "tapis/firmware")
_PACKAGE = MP_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def node_available() -> bool:
    return shutil.which("node") is not None


def ensure_installed() -> None:
    """Raise a RuntimeError saying what to do if node or the npm package is missing."""
    if not node_available():
        raise RuntimeError("node (Node.js >= 18) is not on PATH; it runs MicroPython on the host")
    if not (_PACKAGE / "micropython.mjs").is_file():
        raise RuntimeError(
            f"the MicroPython webassembly port is not installed in {MP_DIR / 'node_modules'}: "
            "run `make install` (or `npm ci` in simulator/mp)"
        )


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
