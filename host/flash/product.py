# `tapis flash --image UF2` (issue 32): a board that runs the product image (tapis image
# build: the firmware frozen in flash, its start-up firmware/boot/start.py) gets only what the
# image does not hold: the configuration, the keys and the signed manifest, whose "image"
# entry is the SHA-256 of the image as the board will read it, computed here from the UF2
# (host/image/uf2.py) and checked against what the board itself computes (firmware/verify/xip.py).
# The UF2 reaches the board first: copied to a Pico's BOOTSEL drive (as a user drags it:
# copy_to_drive) or given to the emulated Pico as its image.
import ast
import os
import shutil
import time
from pathlib import Path

from tapis.host.flash.board import exec_ok
from tapis.host.errors import BadInput, FlashError, NoBoard
from tapis.host.image.uf2 import BOOTSEL_INFO, UF2Error, whole

# What the board runs: (its image's sha256 and length, its baked public key), None on a stock image.
RUNNING = """
import hashlib
try:
    import tapis_image
    from firmware.verify import xip
    print(repr((xip.sha256(hashlib), tapis_image.PUBLIC_KEY)))
except ImportError:
    print('None')
"""
DRIVE_ROOTS = ("/media", "/run/media", "/mnt", "/Volumes")  # where desktops mount a USB drive


def read_uf2(path):
    """(the UF2's bytes, its manifest "image" entry); FlashError when it is not a Pico image."""
    try:
        data = Path(path).read_bytes()
        return data, whole(data)
    except OSError as e:
        raise BadInput("cannot read the image %s: %s" % (path, e.strerror or e)) from None
    except UF2Error as e:
        raise BadInput("%s: %s" % (path, e)) from None


def files(entry, config, extra, default_entry):
    """{board path: bytes} a product board gets: config.json, the operator's boot.py and lib/
    files, and a main.py only for another entry than the table's (signed like the rest)."""
    out = {"config.json": config}
    out.update(extra or {})
    if entry != default_entry:
        out["main.py"] = ("# Written by tapis flash: the product image runs it, signed, in place of the table.\n"
                          "%s\n" % ("__import__(%r)" % entry if entry else "pass")).encode()
    return out


def check_running(t, image, signer_public, path):
    """Refuse unless the board runs the product image `image` ({"sha256", "bytes"}, from the
    UF2 at path), with this device's signing key baked in."""
    got = ast.literal_eval(exec_ok(t, RUNNING).strip())
    if got is None:
        raise FlashError("the board runs a stock MicroPython, not the product image: copy %s to its BOOTSEL "
                         "drive first (tapis flash --drive auto --image ...)" % path)
    (sha, n), baked = got
    if (sha, n) != (image["sha256"], image["bytes"]):
        raise FlashError("the board runs another image (sha256 %s, %d bytes) than %s (sha256 %s, %d bytes): copy "
                         "it to its BOOTSEL drive first" % (sha[:16], n, path, image["sha256"][:16], image["bytes"]))
    if baked != signer_public:
        raise FlashError("the image bakes in the public key %s, not this device's signing key %s: build it with "
                         "tapis image build --device (or --key-file)" % ((baked or b"").hex()[:16] or "none",
                                                                          signer_public.hex()[:16]))


def find_drive(given="auto", roots=DRIVE_ROOTS):
    """The mount folder of a Pico in BOOTSEL mode: `given`, or with "auto" the one drive
    under `roots` holding INFO_UF2.TXT with Board-ID RPI-RP2. NoBoard (exit 2) otherwise."""
    if given != "auto":
        if not (Path(given) / BOOTSEL_INFO).is_file():
            raise NoBoard("%s is not a Pico's BOOTSEL drive (no %s in it)" % (given, BOOTSEL_INFO))
        return Path(given)
    found = []
    for root in map(Path, roots):
        for info in list(root.glob("*/" + BOOTSEL_INFO)) + list(root.glob("*/*/" + BOOTSEL_INFO)):
            try:
                if "RPI-RP2" in info.read_text(errors="replace"):
                    found.append(info.parent)
            except OSError:
                pass
    if len(found) != 1:
        raise NoBoard("%s: hold BOOTSEL while plugging the Pico in (it mounts as RPI-RP2), or give its "
                         "folder with --drive" % ("no Pico in BOOTSEL mode is mounted under %s" % ", ".join(map(str, roots))
                                                  if not found else "several BOOTSEL drives: %s" %
                                                  ", ".join(map(str, found))))
    return found[0]


def copy_to_drive(uf2_path, drive):
    """Copy the UF2 to the drive, as a user drags it (the Pico writes it to flash and reboots
    into it); the file's path there."""
    dest = Path(drive) / Path(uf2_path).name
    try:
        with open(uf2_path, "rb") as src, open(dest, "wb") as out:
            shutil.copyfileobj(src, out, 1 << 16)
            out.flush()
            os.fsync(out.fileno())
    except OSError as e:
        raise FlashError("cannot copy %s to %s: %s" % (uf2_path, drive, e.strerror)) from None
    return dest


def wait_for_port(url, seconds=30):
    """After a copy the Pico reboots into its image: wait for its serial port to appear."""
    from tapis.host.ports import PortError, resolve

    end = time.monotonic() + seconds
    while True:
        try:
            port = resolve(url)
            if "://" in port or os.path.exists(port):
                return port
        except PortError:
            pass
        if time.monotonic() > end:
            raise FlashError("the Pico did not come back as a serial port (%s) within %d s of the copy"
                             % (url, seconds))
        time.sleep(0.5)
