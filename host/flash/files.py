# The files on the board (host/flash/steps.py): written in a few large chunks, hashed where they
# are, those already there unchanged, what the manifest no longer lists removed.
import hashlib
from pathlib import Path

from tapis.firmware.verify import fwimage
from tapis.host.flash.board import exec_ok


def write_files(t, files, chunk=2048, advance=lambda k=1: None):
    """Write {path: bytes} with a few large base64 chunks per file (mpremote's own
    fs_writefile sends repr() chunks of 256 bytes: slow through a raw REPL without paste);
    advance() once a file is written."""
    import binascii

    dirs = sorted({str(Path(p).parent) for p in files if str(Path(p).parent) != "."},
                  key=lambda d: d.count("/"))
    exec_ok(t, "import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass\n" % (dirs,))
    for path, data in sorted(files.items()):
        exec_ok(t, "import binascii\nf=open(%r,'wb')\nw=f.write\nu=binascii.a2b_base64" % (path,))
        for i in range(0, len(data), chunk):
            exec_ok(t, "w(u(%r))" % binascii.b2a_base64(data[i:i + chunk], newline=False))
        exec_ok(t, "f.close()")
        advance()


def board_hashes(t, paths):
    """{path: sha256 hex, or None when the board has no such file}, read on the board."""
    import ast

    return ast.literal_eval(exec_ok(t, "paths = %r\n" % (sorted(paths),) + HASH_CODE).strip())


def unchanged(files, on_board):
    """The paths of `files` ({path: bytes}) the board already holds byte for byte."""
    return {p for p, d in files.items() if on_board.get(p) == hashlib.sha256(d).hexdigest()}


REMOVE_STALE = """
import os
def walk(d):
    for e in os.ilistdir(d or '/'):
        p = d + '/' + e[0]
        if e[1] == 0x4000:
            if p != %r:  # the image's mount (a soft reboot keeps it on some ports): not littlefs
                walk(p)
        elif p[1:] not in keep and (p.startswith('/firmware/') or p.endswith('.py') or p.endswith('.mpy')
                                    or p == %r):
            os.remove(p)
            gone.append(p[1:])
gone = []
walk('')
print(repr(gone))
""" % (fwimage.MOUNT, fwimage.IMAGE)

HASH_CODE = """
import hashlib, binascii
def h(p):
    try:
        f = open(p, 'rb')
    except OSError:
        return None
    s = hashlib.sha256()
    while True:
        b = f.read(512)
        if not b:
            break
        s.update(b)
    f.close()
    return binascii.hexlify(s.digest()).decode()
print(repr({p: h(p) for p in paths}))
"""
