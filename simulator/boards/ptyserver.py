# What the pty board (simulator/boards/ptyboard.py) runs under MicroPython: an exec server that
# answers the host's requests on stdin in a namespace that lasts until a soft reboot, and
# the code that runs a file as a board runs boot.py and main.py. Its OSErrors carry
# MicroPython's (POSIX) errnos, not Emscripten's, so mpremote recognises "no such file" and
# "exists".

# Emscripten (WASI) errno -> MicroPython/POSIX errno, for what a filesystem raises.
EMSCRIPTEN_ERRNO = {63: 1, 44: 2, 27: 4, 29: 5, 60: 6, 1: 7, 45: 8, 8: 9, 6: 11, 48: 12, 2: 13,
                    21: 14, 10: 16, 20: 17, 75: 18, 43: 19, 54: 20, 31: 21, 28: 22, 41: 23,
                    33: 24, 59: 25, 22: 27, 51: 28, 70: 29, 69: 30, 34: 31, 64: 32, 37: 36,
                    55: 39}

# The exec server, under MicroPython: each request is op:1 len:u32 code[len].
#   X: exec code in the board's namespace; reply output, \x04, error text, \x04
#   R: soft reboot (fresh namespace, forget the board's own modules); reply \x04
SERVER = r"""
import sys, os, gc, asyncio, struct, vfs
os.chdir('/')
_MAP = %r
_KEEP = set(sys.modules)
_PATH = sys.path[:]
_in = sys.stdin.buffer
_out = sys.stdout.buffer

def _read(n):
    b = b''
    while len(b) < n:
        got = _in.read(n - len(b))
        if not got:
            raise SystemExit(0)
        b += got
    return b

def _fresh():
    return {'__name__': '__main__'}

async def _serve():
    g = _fresh()
    while True:
        op, n = struct.unpack('>BI', _read(5))
        code = _read(n).decode() if n else ''
        if op == 82:  # R: as a board's soft reset, the import path and mounts of before
            g = _fresh()
            for k in list(sys.modules):
                if k not in _KEEP:
                    del sys.modules[k]
            sys.path[:] = _PATH
            for _fs, _at in vfs.mount():
                if _at != '/':
                    vfs.umount(_at)
            _out.write(b'\x04')
        else:
            err = None
            try:
                exec(code, g)
            except BaseException as e:
                if isinstance(e, OSError) and e.args and e.args[0] in _MAP:
                    e = OSError(_MAP[e.args[0]])
                err = e
            _out.write(b'\x04')
            if err is not None:
                sys.print_exception(err, sys.stdout)
            _out.write(b'\x04')
        gc.collect()
        await asyncio.sleep(0)

await _serve()
""" % (EMSCRIPTEN_ERRNO,)

RUN_FILE = """
try:
    _f = open(%r)
except OSError:
    _f = None
if _f:
    _src = _f.read()
    _f.close()
    exec(_src)
"""
