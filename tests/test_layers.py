# The layers import strictly downward: firmware <- compiled twins <- simulator <- host CLI.
# The firmware imports nothing outside itself (package-relative, so the same code is
# `firmware` on a board and `tapis.firmware` on a host); the compiled twins only the
# firmware; the simulator nothing of the host. Everything else names the one package,
# tapis.*, never a bare top-level folder (that would load a second copy of a module).
import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("firmware", "cython_core", "simulator", "host")
MAY_IMPORT = {"firmware": set(), "cython_core": {"firmware"}, "simulator": {"firmware", "cython_core"},
              "host": {"firmware", "cython_core", "simulator"}}
FOLDERS = LAYERS + ("tests", "benchmarks", "tapis")


def sources(folder):
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "node_modules" not in p.parts)


def imports(path):
    """(line, module, level) of every import in a file, anywhere in it."""
    if path.suffix == ".pyx":
        return [(i + 1, m.group(1), 0) for i, line in enumerate(path.read_text().splitlines())
                for m in [re.match(r"\s*(?:from|import)\s+([\w.]+)", line)] if m and "cimport" not in line]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name, 0) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.append((node.lineno, node.module or "", node.level))
    return out


def violations(folder):
    bad = []
    files = sources(folder) + (sorted((ROOT / folder).glob("*.pyx")) if folder == "cython_core" else [])
    for path in files:
        for line, module, level in imports(path):
            where = "%s:%d: %s" % (path.relative_to(ROOT), line, module or "." * level)
            top = module.split(".")[0]
            if folder == "firmware":
                if level == 0 and top in ("tapis",) + LAYERS:
                    bad.append(where + " (the firmware imports itself package-relative)")
                continue
            if top in LAYERS:
                bad.append(where + " (a bare top-level name: import tapis.%s)" % module)
            elif top == "tapis" and folder in LAYERS:
                layer = module.split(".")[1] if "." in module else ""
                if layer in LAYERS and layer != folder and layer not in MAY_IMPORT[folder]:
                    bad.append(where + " (%s may not import %s)" % (folder, layer))
    return bad


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_layer_imports_only_downward(folder):
    assert sources(folder), folder
    bad = violations(folder)
    assert not bad, "\n".join(bad)


def test_the_rule_catches_an_upward_and_a_bare_import(tmp_path, monkeypatch):
    (tmp_path / "simulator").mkdir()
    (tmp_path / "simulator" / "x.py").write_text(
        "from tapis.host import cli\nimport firmware.cards\nfrom tapis.firmware import cards\n"
        "def f():\n    from tapis.cython_core import twins\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    got = violations("simulator")
    assert len(got) == 2 and "may not import host" in got[0] and "bare top-level" in got[1]
