# A simulated table's identity (issue 33.4). `tapis table --journal PATH` chains the journal
# under a device key, as a board does (firmware/journal/writer.py), and `tapis recall --verify`
# remembers, per device, the last head it verified (<device>.head beside the key). One device
# name for every simulated table made the head remembered for one journal be held against the
# next: a false alarm of rollback on a good journal. So each new journal is a device of its
# own, named in its head and made with it (its key in the host's key store); a journal that
# exists is resumed under the device its head names.
import json
import re
import secrets

from tapis.host.flash_errors import FlashError
from tapis.host.flash_keys import load_key, provision_key

LEGACY = "tapis-table"  # the one device of every simulated journal made before issue 33.4
PREFIX = LEGACY + "-"
# a device's name is a file name in the key store: nothing that could leave it
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class IdentityError(ValueError):
    """The journal names no device the host can chain it under (its head, or its key)."""


def new_device():
    """A fresh simulated table's device name: tapis-table-<8 hex digits>."""
    return PREFIX + secrets.token_hex(4)


def head_device(data):
    """The device a journal's head names (its first record: 4C LEN_HI LEN_LO CHK {"k": "h",
    "d": device, ...}), or None when the bytes hold no keyed head (unkeyed or unreadable: the
    journal's own reading says what is wrong)."""
    if len(data) < 4 or data[0] != 0x4C:
        return None
    n = data[1] << 8 | data[2]
    try:
        head = json.loads(bytes(data[4:4 + n]))
    except ValueError:
        return None
    if not isinstance(head, dict) or head.get("k") != "h" or not isinstance(head.get("d"), str):
        return None
    return head["d"]


def table_identity(path, key_file=None):
    """(device, key) a simulated table's journal at `path` is chained under: a new device and
    key for a journal not begun (no file, or an empty one); the device its head names, with the
    key the host holds for it, for one that exists. IdentityError if that name is not one a key
    store holds, or the host has no key for it."""
    try:
        with open(path, "rb") as f:
            data = f.read(4 + 0xFFFF)
    except FileNotFoundError:
        data = b""
    if not data:  # not begun; but a first start cut after its event log was written is its device's
        device = _beside_device(path)
        if device is not None:
            try:
                return device, load_key(device, key_file)
            except FlashError:
                pass  # (a log of no key the host holds: the log's own reading says what is wrong)
        device = new_device()
        return device, provision_key(device, key_file)
    device = head_device(data)
    if device is None:  # unkeyed or unreadable: opened as before, so the journal says why
        return LEGACY, provision_key(LEGACY, key_file)
    if not _NAME.match(device):
        raise IdentityError("its head names device %r, not a name the key store holds" % (device,))
    try:
        return device, load_key(device, key_file)
    except FlashError as e:
        raise IdentityError(str(e)) from None


def _beside_device(path):
    """The device the event log beside a journal not begun names in its head (issue 44: the
    power cut at a table's first start, after the log was written and before the journal
    was, made a new device at the next start, which refused that log for ever), or None."""
    from tapis.firmware.eventlog.log import beside
    try:
        with open(beside(path), "rb") as f:
            device = head_device(f.read(4 + 0xFFFF))
    except OSError:
        return None
    return device if device is not None and device.startswith(PREFIX) and _NAME.match(device) else None
