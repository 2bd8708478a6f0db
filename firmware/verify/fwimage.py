# The firmware image (docs/security.md, "Firmware"; docs/performance.md, "Booting from one
# image"). `tapis flash` packs every compiled firmware module into one file, firmware.img,
# signed in the manifest like any other file, and deploys this module beside it at the
# root; main.py mounts the image at /fw before anything of the firmware is imported, and
# makes it the import path.
#
# Why: on a Pico's littlefs each import looks a path up four times (the package directory,
# .py, .mpy, the open: about 16 ms in firmware/), the manifest check opened 77 files (3.6 ms
# each), and every `import json` or `import time` a module ran searched the filesystem
# first for a json.py (4.3 ms each, 0.06 ms with nothing on the path). From the image a
# lookup is a dict's, the check hashes one file, and the built-ins are found at once.
#
# firmware.img: "TAPIS-IMAGE 1 N\n", the index (N bytes: a line "path offset length" per
# module, offsets from the index's end), then the modules' bytes. This module is the one
# place of the format: pack() on the host, ImageFS on the board.
import sys

MAGIC = "TAPIS-IMAGE 1 "
IMAGE = "/firmware.img"
MOUNT = "/fw"

# Its imports with the filesystem off the path (as firmware/verify/manifest.py's): on MicroPython
# an io.py at the root would be imported in place of the built-in, before any check.
_MP = sys.implementation.name == "micropython"
_saved = sys.path[:]
if _MP:
    del sys.path[:]
try:
    import io
    import os
    try:
        import vfs  # type: ignore
    except ImportError:  # a host's CPython, which only packs
        vfs = None
finally:
    if _MP:
        sys.path[:] = _saved
del _saved


def pack(files):
    """firmware.img's bytes from {path: bytes} (host side)."""
    index, at = [], 0
    for path in sorted(files):
        index.append("%s %d %d\n" % (path, at, len(files[path])))
        at += len(files[path])
    text = "".join(index).encode()
    return (MAGIC + "%d\n" % len(text)).encode() + text + b"".join(files[p] for p in sorted(files))


def index(data):
    """{path: (start, end)} of each module's bytes in firmware.img's bytes (host side)."""
    head, _, rest = data.partition(b"\n")
    if not head.startswith(MAGIC.encode()):
        raise ValueError("not a firmware image")
    n = int(head[len(MAGIC):])
    base = len(head) + 1 + n
    out = {}
    for line in rest[:n].decode().splitlines():
        path, at, size = line.split()
        out[path] = (base + int(at), base + int(at) + int(size))
    return out


class ImageFS:
    """firmware.img as a read-only filesystem (a vfs.mount() object). The index is a dict
    of the paths to their numbers, whose offsets and lengths are in two arrays (a str.find
    in the index's 2.8 KB of text took 1.6 ms on the Pico, a dict lookup 17 us): about 5 KB
    of heap."""

    def __init__(self, path=IMAGE):
        from array import array
        self._path = path
        self._f = f = open(path, "rb")
        head = f.readline()
        if not head.startswith(MAGIC.encode()):
            raise ValueError("%s is not a firmware image" % path)
        n = int(head[len(MAGIC):])
        base = len(head) + n
        self._at, self._size, self._paths, self._dirs = array("I"), array("I"), {}, {"": None}
        for line in f.read(n).decode().split("\n")[:-1]:
            path, at, size = line.split(" ")
            self._paths[path] = len(self._at)
            self._at.append(base + int(at))
            self._size.append(int(size))
            while "/" in path:
                path = path[:path.rfind("/")]
                self._dirs[path] = None

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        self._f.close()

    def _find(self, path):
        """The number of a module's bytes, None for a directory; OSError if neither."""
        k = self._paths.get(path[1:])
        if k is None and path[1:] not in self._dirs:
            raise OSError(2)  # ENOENT
        return k

    def stat(self, path):
        k = self._find(path)
        return (0x4000 if k is None else 0x8000, 0, 0, 0, 0, 0, 0 if k is None else self._size[k], 0, 0, 0)

    def open(self, path, mode):
        """A module's bytes read at once (one call, where a file of Python's own would be
        called by the .mpy loader every 255 bytes: 0.24 ms a call on the Pico). In a heap
        too fragmented for a block that long (4.2 KB at most; a tilt or the pit's DEALS on
        a stock-image Pico, after many deals, could not find 3.3 KB in 127 KB free), the
        image itself opened again at the module: the loader reads it 255 bytes at a time,
        in a 1 KB file buffer, and closes it."""
        k = self._find(path)
        if k is None or "w" in mode or "a" in mode:
            raise OSError(21 if k is None else 30)  # EISDIR, EROFS
        self._f.seek(self._at[k])
        try:
            return io.BytesIO(self._f.read(self._size[k]))
        except MemoryError:
            f = open(self._path, "rb")
            f.seek(self._at[k])
            return f

    def ilistdir(self, path):
        under = "" if path == "/" else path[1:] + "/"
        seen = []
        for name in list(self._paths) + list(self._dirs):
            if name.startswith(under) and name != under[:-1]:
                top = name[len(under):].split("/")[0]
                if top and top not in seen:
                    seen.append(top)
                    yield (top, 0x4000 if under + top in self._dirs else 0x8000, 0)

    def chdir(self, path):
        pass


def mount(path=IMAGE, at=MOUNT):
    """Mount the image at /fw and make it the import path (with /lib when the board has one,
    and a custom image's frozen modules). False, said on the console, when there is none."""
    try:
        fs = ImageFS(path)
    except (OSError, ValueError) as e:
        print("tapis: REFUSING TO RUN: no usable firmware image %s (%r)" % (path, e))
        return False
    try:  # mounted before this boot (a port whose soft reboot keeps mounts)
        vfs.umount(at)  # type: ignore
    except OSError:
        pass
    vfs.mount(fs, at)  # type: ignore
    keep = [p for p in sys.path if p == ".frozen"]
    try:
        if os.stat("/lib")[0] & 0x4000:
            keep.append("/lib")
    except OSError:
        pass
    sys.path[:] = [at] + keep
    return True
