# Device keys on the host: ~/.config/tapis/keys/<device id>.key (the device key, hex) and
# <device id>.sign beside it (the firmware signing key, host/flash_sign.py), TAPIS_KEY_DIR or
# --key-file elsewhere; made on the first flash (host/flash.py) and reused after. `tapis recall`,
# `tapis pair` and `tapis table --journal` read them too.
import os
import secrets
from pathlib import Path

from tapis.host.flash_errors import FlashError


def key_dir():
    return Path(os.environ.get("TAPIS_KEY_DIR") or Path.home() / ".config" / "tapis" / "keys")


def key_path(device, key_file=None):
    return Path(key_file) if key_file else key_dir() / ("%s.key" % device)


def sign_path(device, key_file=None):
    """Where the host keeps the device's firmware signing key: beside its device key."""
    return key_path(device, key_file).with_suffix(".sign")


def image_path(device, key_file=None):
    """Where the host keeps what it flashed to the device, every file the manifest lists
    (firmware/verify/fwimage.py's format): `tapis verify` computes the board's seeded answer from it."""
    return key_path(device, key_file).with_suffix(".image")


def counter_path(device, key_file=None):
    """Where an emulated table's ATECC608 keeps its counters (firmware/offboard/atecc608.py):
    beside its key, off the table's flash (its journal's folder), as the part is off a board's."""
    return key_path(device, key_file).with_suffix(".atecc608")


def load_key(device, key_file=None):
    path = key_path(device, key_file)
    try:
        key = bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        raise FlashError("no key for device %s at %s: flash it first (the key is made then)"
                         % (device, path)) from None
    except ValueError:
        raise FlashError("%s is not a hex key" % path) from None
    except OSError as e:
        raise FlashError("cannot read the key %s: %s" % (path, e.strerror or e)) from None
    if not key:
        raise FlashError("%s holds no key (a device key is hex digits)" % path)
    return key


def provision_key(device, key_file=None):
    """The device's key: the one the host already holds, or a new random one, saved 0600."""
    path = key_path(device, key_file)
    if path.exists():
        return load_key(device, key_file)
    key = secrets.token_bytes(32)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key.hex() + "\n")
    return key
