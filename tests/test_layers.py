# The layers import strictly downward: firmware <- compiled twins <- simulator <- host CLI.
# The firmware imports nothing outside itself (package-relative, so the same code is
# `firmware` on a board and `tapis.firmware` on a host); the compiled twins only the
# firmware; the simulator nothing of the host. Everything else names the one package,
# tapis.*, never a bare top-level folder (that would load a second copy of a module).
# Inside the firmware, its packages import in the order docs/architecture.md declares
# (its "layers:" line), and that document lists every module of the firmware's tree.
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


# ---- inside the firmware: its packages in the declared order ------------------------------------
DOC = ROOT / "docs" / "architecture.md"
FW = ROOT / "firmware"
TOP_MOST = 15  # modules at firmware/'s top (the base), at most


def firmware_layers(doc=None, part="firmware"):
    """A part's layers, lowest first, as docs/architecture.md declares them: the firmware's on
    its `layers:` line, the host's and the simulator's on `host layers:`, `simulator layers:`."""
    label = "layers" if part == "firmware" else part + " layers"
    found = re.findall(r"^\s*%s: (.+)$" % label, (doc or DOC).read_text(), re.M)
    assert len(found) == 1, "docs/architecture.md declares the %s's layers once" % part
    return [name.strip() for name in found[0].split("<")]


def module_name(path, root):
    """'link.bus' of firmware/link/bus.py ('link' of its __init__.py, '' of the package's)."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module, root):
    """A module's layer: its package below firmware/, or base for one at the top."""
    head = module.split(".")[0]
    return head if head and (root / head).is_dir() else "base"


def firmware_imports(path, root):
    """(line, imported module below firmware) of every package-relative import in a file,
    at its top or inside a function; a name imported from a package may be a module."""
    me = module_name(path, root)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".") if package else []
            base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
            target = ".".join(base + ([node.module] if node.module else []))
            for a in node.names:
                sub = (target + "." if target else "") + a.name
                is_module = (root / sub.replace(".", "/")).is_dir() or (root / (sub.replace(".", "/") + ".py")).is_file()
                out.append((node.lineno, sub if is_module else target))
    return out


def tree(root):
    return sorted(p for p in root.rglob("*.py") if not {"__pycache__", "node_modules"} & set(p.parts))


def climbs(root=FW, doc=None, part="firmware", imports=firmware_imports):
    order = firmware_layers(doc, part)
    bad = []
    for path in tree(root):
        mine = layer_of(module_name(path, root), root)
        assert mine in order, "%s: its package %s is not in the layers docs/architecture.md declares" % (path, mine)
        for line, target in imports(path, root):
            theirs = layer_of(target, root) if target else "base"
            if order.index(theirs) > order.index(mine):
                bad.append("%s:%d imports %s: %s is above %s" % (path.relative_to(root.parent), line, target, theirs, mine))
    return bad


def test_the_firmware_packages_import_only_down_their_declared_order():
    assert firmware_layers()[0] == "base" and len(firmware_layers()) >= 8
    bad = climbs()
    assert not bad, "\n".join(bad)


def test_the_order_catches_a_climb_at_the_top_and_inside_a_function(tmp_path):
    root = tmp_path / "firmware"
    for folder in ("link", "table"):
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    (root / "wire.py").write_text("from .compat import const\n")
    (root / "compat.py").write_text("")
    (root / "link" / "bus.py").write_text("from .. import wire\nfrom ..table import controller\n")
    (root / "table" / "controller.py").write_text("def f():\n    from ..link.bus import x\n    from .. import link\n")
    (root / "link" / "frames.py").write_text("def g():\n    from ..table.controller import f\n")
    doc = tmp_path / "architecture.md"
    doc.write_text("    layers: base < link < table\n")
    got = climbs(root, doc)
    assert len(got) == 2 and "bus.py:2 imports table.controller" in got[0] and "frames.py:2" in got[1], got


def test_the_firmware_keeps_few_modules_at_its_top():
    top = sorted(p.name for p in FW.glob("*.py"))
    assert len(top) <= TOP_MOST, top


def documented_tree(doc=None, part="firmware"):
    """Every file of a part (firmware, simulator, host) docs/architecture.md's tree lists ('link/bus.py')."""
    text = (doc or DOC).read_text()
    block = text[text.index("\n%s/ " % part) + 1:]
    listed, folders = set(), []
    for line in block.splitlines()[1:]:
        if line.startswith("```") or (line and not line.startswith(" ")):
            break
        indent = len(line) - len(line.lstrip(" "))
        names = re.split(r"\s{2,}", line.strip())[0].split(" ") if line.strip() else []
        if not names or not all(n.endswith((".py", "/")) for n in names):
            continue  # a description's second line
        depth = indent // 2 - 1
        del folders[depth:]
        for name in names:
            if name.endswith("/"):
                folders.append(name[:-1])
            else:
                listed.add("/".join(folders + [name]))
    return listed


def test_the_architecture_document_lists_every_firmware_module():
    tree = {p.relative_to(FW).as_posix() for p in FW.rglob("*.py") if "__pycache__" not in p.parts}
    listed = documented_tree()
    assert not tree - listed, "not in docs/architecture.md's tree: %s" % sorted(tree - listed)
    assert not listed - tree, "in docs/architecture.md's tree, not in firmware/: %s" % sorted(listed - tree)


# ---- the host and the simulator: their packages in the declared order, no _private import ------
PARTS = {"host": ROOT / "host", "simulator": ROOT / "simulator"}


def absolute_imports(path, root):
    """(line, imported module below the part, name) of every `tapis.<part>` import in a file,
    anywhere in it; a name imported from a package may be a module."""
    package = "tapis." + root.name
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module == package or node.module.startswith(package + "."):
                target = node.module[len(package) + 1:]
                for a in node.names:
                    sub = (target + "." if target else "") + a.name
                    is_module = (root / sub.replace(".", "/")).is_dir() or (root / (sub.replace(".", "/") + ".py")).is_file()
                    out.append((node.lineno, sub if is_module else target))
        elif isinstance(node, ast.Import):
            out.extend((node.lineno, a.name[len(package) + 1:]) for a in node.names if a.name.startswith(package + "."))
    return out


def private_imports(root):
    """Every import of another module's _private name in a part."""
    bad = []
    for path in tree(root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom):
                bad.extend("%s:%d imports %s from %s" % (path.relative_to(ROOT), node.lineno, a.name, node.module or ".")
                           for a in node.names if a.name.startswith("_") and not a.name.startswith("__"))
            elif isinstance(node, ast.Import):
                bad.extend("%s:%d imports %s" % (path.relative_to(ROOT), node.lineno, a.name)
                           for a in node.names if any(n.startswith("_") and not n.startswith("__") for n in a.name.split(".")))
    return bad


@pytest.mark.parametrize("part", sorted(PARTS))
def test_the_host_and_simulator_packages_import_only_down_their_declared_order(part):
    assert firmware_layers(part=part)[0] == "base"
    bad = climbs(PARTS[part], part=part, imports=absolute_imports)
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("part", sorted(PARTS))
def test_no_module_imports_another_modules_private_name(part):
    bad = private_imports(PARTS[part])
    assert not bad, "\n".join(bad)


def test_the_host_order_catches_a_climb_and_a_private_import(tmp_path, monkeypatch):
    root = tmp_path / "host"
    for folder in ("flash", "pico"):
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    (root / "keys.py").write_text("from tapis.host.flash import sign\n")
    (root / "flash" / "sign.py").write_text("from tapis.host import keys\ndef f():\n    import tapis.host.pico.table\n")
    (root / "pico" / "table.py").write_text("from tapis.host.flash.sign import _leaf\nfrom tapis.host.flash import sign\n")
    doc = tmp_path / "architecture.md"
    doc.write_text("    host layers: base < flash < pico\n")
    got = climbs(root, doc, "host", absolute_imports)
    assert len(got) == 2 and "sign.py:3 imports pico.table" in got[0] and "keys.py:1 imports flash.sign" in got[1], got
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    got = private_imports(root)
    assert len(got) == 1 and "table.py:1 imports _leaf" in got[0], got


@pytest.mark.parametrize("part", sorted(PARTS))
def test_the_architecture_document_lists_every_host_and_simulator_module(part):
    root = PARTS[part]
    files = {p.relative_to(root).as_posix() for p in tree(root)}
    listed = documented_tree(part=part)
    assert not files - listed, "not in docs/architecture.md's tree: %s" % sorted(files - listed)
    assert not listed - files, "in docs/architecture.md's tree, not in %s/: %s" % (part, sorted(listed - files))
