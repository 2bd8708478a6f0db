# Clean layers inside each folder too (issue 28): no import circle among the project's
# modules, a function-level import counted like a top-level one (a lazy import that dodges a
# circle is still one); no module over 260 lines; and no module importing another's
# _private name. test_layers.py holds the folders' order; this holds the modules'.
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROOTS = ("firmware", "simulator", "host", "cython_core")
LONGEST = 260  # lines; the .pyx twins mirror their pure module and may be longer


def modules(root=ROOT):
    """{dotted name without tapis.: path} of every module in the layers."""
    found = {}
    for top in ROOTS:
        for path in sorted((root / top).rglob("*.py")):
            if "node_modules" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _targets(name, path, node):
    """The dotted names an import statement may load, relative imports resolved."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    if node.level:
        package = package[:len(package) - node.level + 1]
        base = ".".join(package + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    return [base] + [base + "." + a.name for a in node.names]


def graph(mods):
    """{module: {the project's modules it imports, anywhere in it}}."""
    out = {}
    for name, path in mods.items():
        edges = out[name] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for t in _targets(name, path, node):
                t = t[len("tapis."):] if t.startswith("tapis.") else t
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                # a module's own package (__init__) is where it lives, not a layer beside it
                if t and t != name and not name.startswith(t + "."):
                    edges.add(t)
    return out


def circles(g):
    """The strongly connected groups of more than one module (Tarjan's, iteratively)."""
    index, low, on, stack, found = {}, {}, set(), [], []
    for start in g:
        if start in index:
            continue
        work = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    group = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        group.append(w)
                        if w == v:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_no_import_circle_anywhere():
    assert circles(graph(modules())) == []


def test_a_lazy_import_that_closes_a_circle_is_found(tmp_path):
    (tmp_path / "firmware").mkdir()
    (tmp_path / "firmware" / "a.py").write_text("from .b import x\n")
    (tmp_path / "firmware" / "b.py").write_text("def f():\n    from . import a\n")
    (tmp_path / "firmware" / "c.py").write_text("from .a import y\n")
    assert circles(graph(modules(tmp_path))) == [["firmware.a", "firmware.b"]]


@pytest.mark.parametrize("top", ROOTS)
def test_no_module_is_over_260_lines(top):
    long = ["%s %d" % (p.relative_to(ROOT), n) for p in modules().values() if p.parts[len(ROOT.parts)] == top
            for n in [p.read_text(encoding="utf-8").count("\n")] if n > LONGEST]
    assert long == []


def test_no_module_imports_another_s_private_name():
    bad = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                bad += ["%s: from %s import %s" % (name, "." * node.level + (node.module or ""), a.name)
                        for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
    assert bad == []
