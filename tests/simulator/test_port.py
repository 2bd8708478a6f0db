# One Port (issue 43.5): every end the host wires a table with, in host/ and simulator/ (a class
# with read() and write()), is a simulator/port.py Port, and the in-memory ends behave as the
# firmware's Link expects of one: what arrived, once; b"" when nothing has.
import ast
import importlib
from pathlib import Path

from tapis.simulator.port import Port
from tapis.simulator.table.pipes import pipe

ROOT = Path(__file__).resolve().parents[2]


def ends():
    """(module, class name) of every class in host/ and simulator/ with read() and write()."""
    found = []
    for part in ("host", "simulator"):
        for path in sorted((ROOT / part).rglob("*.py")):
            if "node_modules" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    methods = {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
                    if {"read", "write"} <= methods:
                        module = ".".join(("tapis",) + path.relative_to(ROOT).with_suffix("").parts)
                        found.append((module, node.name))
    return found


def test_every_end_with_read_and_write_is_a_port():
    found = ends()
    assert len(found) >= 7, found  # the pipes, the wires, the Pico's lines, the serial ports, the pty, the tap, Port
    bad = ["%s.%s" % (m, c) for m, c in found if not issubclass(getattr(importlib.import_module(m), c), Port)]
    assert not bad, "not a Port: %s" % bad


def test_a_pipe_end_reads_what_came_once_and_nothing_after():
    a, b = pipe()
    assert b.read() == b""
    assert a.write(b"\xa5\x10") == 2 and a.write(b"\x00") == 1
    assert b.read() == b"\xa5\x10\x00" and b.read() == b""
    assert a.read() == b""  # nothing came the other way
    a.close()  # an end in memory holds nothing to let go of
