# The tests mirror the source (issue 43.6): a folder below tests/ is a folder of the source
# (tests/firmware/link/ holds the tests of firmware/link/), and every firmware module is
# imported by at least one test, by its own name (a module reached only through another's
# imports is not tested by name: a change to it shows up, if at all, as another's failure).
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
FW = ROOT / "firmware"
# Firmware modules no test imports by name yet: each one a defect to remove by a test of its
# own. Empty since issue 43.6's tests; it may only shrink (the test below fails on a name
# that is tested now), so a new module comes with its test.
UNTESTED = set()


def test_every_folder_of_tests_is_a_folder_of_the_source():
    folders = sorted(p.relative_to(TESTS) for p in TESTS.rglob("*")
                     if p.is_dir() and not {"__pycache__", "golden"} & set(p.relative_to(TESTS).parts))
    assert folders, "the tests mirror the source"
    missing = [str(f) for f in folders if not (ROOT / f).is_dir()]
    assert not missing, "tests/ folders with no source folder of that name: %s" % missing


def firmware_modules():
    out = set()
    for path in FW.rglob("*.py"):
        if "__pycache__" in path.parts:
            continue
        parts = path.relative_to(FW).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        if parts:
            out.add(".".join(parts))
    return out


def imported_by_tests(modules):
    """The firmware modules a test file (or a shared driver, rig or helper in tests/) imports
    by name: `from tapis.firmware.link import frames`, `from tapis.firmware.link.frames import
    crc16`, `import tapis.firmware.link.frames`."""
    found = set()
    for path in TESTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module] + [node.module + "." + a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                for package in ("tapis.firmware.", "firmware."):
                    if name.startswith(package) and name[len(package):] in modules:
                        found.add(name[len(package):])
    return found


def test_every_firmware_module_is_imported_by_a_test():
    modules = firmware_modules()
    tested = imported_by_tests(modules)
    assert not UNTESTED - modules, "listed as untested, not a firmware module: %s" % sorted(UNTESTED - modules)
    untested = sorted(modules - tested - UNTESTED)
    assert not untested, "firmware modules no test imports: %s" % untested
    now_tested = sorted(UNTESTED & tested)
    assert not now_tested, "tested now: take them off UNTESTED: %s" % now_tested
