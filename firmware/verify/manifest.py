# Software verification at boot (SPEC §3, §8): the board refuses to run code that is not
# exactly what the host signed for it (docs/security.md, "Firmware").
#
# `tapis flash` writes, beside the code, at the root of the board's filesystem:
#   manifest.json  {"v": 2, "device": ID, "version": N, "files": {path: sha256 hex}}: every
#                  file the board runs (main.py, boot.py if any, lib/**, fwimage.mpy and
#                  firmware.img, the image of the firmware's modules) and the signed
#                  configuration
#   manifest.sig   the manifest's signature (wots.py: hash-based, leaf N of the device's tree)
#   manifest.pub   the tree's root (hex): a public key, which cannot sign
# and the board keeps manifest.high, the highest version it has verified.
# check() verifies the signature under manifest.pub, that the manifest names this board
# (machine.unique_id(), else the provisioned device.id) and is no older than manifest.high,
# the hash of every listed file, and refuses any .py/.mpy anywhere on the filesystem that
# is unlisted, or on the import path under a built-in module's name. Its own imports are
# made with the filesystem off sys.path (wots.py), so no file can stand in for hashlib,
# json or os; the signature is wots.py's.
import sys

from .wots import MP, binascii, hashlib, json, machine, os, sig_root

_CHUNK = 512
# The mounted firmware image (firmware/verify/fwimage.py, mounted by main.py), whose modules the
# walk below leaves out: the image is a file of the manifest, hashed whole.
_MOUNT = getattr(sys.modules.get("fwimage"), "MOUNT", None)


def hexlify(data):
    return binascii.hexlify(data).decode()


def file_sha256(path):
    h = hashlib.sha256()
    buf = bytearray(_CHUNK)
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(buf if n == _CHUNK else buf[:n])
    return hexlify(h.digest())


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _code_files(root, under=""):
    """Paths of .py/.mpy files below root/under, relative to root, '/'-separated."""
    found = []
    try:
        entries = _entries(root + under)
    except OSError:
        return found
    for name, kind in entries:
        rel = under + "/" + name
        if kind == 0x4000 and root + rel != _MOUNT:
            found.extend(_code_files(root, rel))
        elif name.endswith(".py") or name.endswith(".mpy"):
            found.append(rel[1:])
    return found


def _entries(path):
    """(name, 0x4000 for a directory else 0x8000) for each entry of path."""
    if hasattr(os, "ilistdir"):  # MicroPython
        return [(e[0], e[1]) for e in os.ilistdir(path or "/")]
    return [(n, os.stat(path + "/" + n)[0] & 0x4000 or 0x8000) for n in os.listdir(path)]


def is_builtin(name):
    """Is `name` a module of the interpreter's own (found with no filesystem on the path)?"""
    if not MP:
        return name in getattr(sys, "stdlib_module_names", ())
    saved = sys.path[:]
    del sys.path[:]
    try:
        __import__(name)
        return True
    except ImportError:
        return False
    finally:
        sys.path.extend(saved)


def board_id(root):
    """machine.unique_id() in hex where the port has it, else the provisioned device.id."""
    try:
        return hexlify(machine.unique_id())  # type: ignore
    except AttributeError:  # no machine module (None), or one without unique_id
        pass
    try:
        return _read(root + "device.id").decode().strip()
    except OSError:
        return ""


def _high(root):
    try:
        return int(_read(root + "manifest.high"))
    except (OSError, ValueError):
        return -1


def _image(signed):
    """Why the image this board runs is not the one signed (None: it is)."""
    from . import xip

    try:
        got, n = xip.sha256(hashlib)
    except (ValueError, ImportError, AttributeError) as e:
        return "the image cannot be read (%s)" % (e,)
    if (got, n) != (signed.get("sha256"), signed.get("bytes")):
        return ("the image was modified or replaced (sha256 %s, %d bytes; the manifest signs %s, %r bytes): "
                "an older or altered image" % (got[:16], n, str(signed.get("sha256"))[:16], signed.get("bytes")))
    return None


def check(root="/", pub=None, whole=False):
    """(ok, message): is the code under `root` exactly what the host signed for this board?
    pub: the public key (32 bytes) to check under; manifest.pub's by default. whole: the
    board runs a product image (its code frozen in flash): the manifest must be version 3,
    whose "image" entry is the SHA-256 of the image as the board reads it (xip.py)."""
    if not root.endswith("/"):
        root += "/"
    try:
        if pub is None:
            pub = binascii.unhexlify(_read(root + "manifest.pub").strip())
        raw = _read(root + "manifest.json")
        sig = _read(root + "manifest.sig")
    except (OSError, ValueError) as e:
        return False, "no usable manifest, signature or public key (%r)" % (e,)
    try:
        got, leaf = sig_root(sig, raw)
    except ValueError as e:
        return False, "the manifest's signature is wrong: %s" % (e,)
    if got != pub:
        return False, "the manifest's signature is wrong: it was not made with this board's signing key"
    try:
        m = json.loads(raw)
        files, version, device = m["files"], m["version"], m["device"]
        if m["v"] not in (2, 3) or not isinstance(files, dict) or not isinstance(version, int):
            raise ValueError
        image = m["image"] if m["v"] == 3 else None
    except (ValueError, KeyError, TypeError):
        return False, "the manifest is not valid JSON with a version, a device and files"
    if whole and image is None:
        return False, "the manifest (version %r) does not sign the image: flash it again with tapis flash --image" % m["v"]
    if version != leaf:
        return False, "the manifest says version %r but is signed as version %d" % (version, leaf)
    me = board_id(root)
    if device != me:
        return False, "the manifest is for device %r, this board is %r" % (device, me)
    high = _high(root)
    if version < high:
        return False, "version %d is older than version %d, which this board has run: a downgrade" % (version, high)
    if image is not None:
        got = _image(image)
        if got:
            return False, got
    for path in sorted(files):
        try:
            got = file_sha256(root + path)
        except OSError:
            return False, "%s is missing" % (path,)
        if got != files[path]:
            return False, "%s was modified (sha256 %s, manifest %s)" % (path, got[:16], files[path][:16])
    for path in _code_files(root[:-1]):
        if path not in files:
            return False, "%s is not in the manifest" % (path,)
        name, top = path[path.rfind("/") + 1:path.rfind(".")], path[:path.rfind("/") + 1]
        if top in ("", "lib/") and is_builtin(name):
            return False, "%s has the name of a built-in module" % (path,)
    if version > high:
        try:
            with open(root + "manifest.high", "w") as f:
                f.write(str(version))
        except OSError:  # a full filesystem: the floor stays where it was (main.py makes room)
            pass
    what = "the image (%d bytes) and %d files" % (image["bytes"], len(files)) if image else "%d files" % len(files)
    return True, "firmware verified: %s match the signed manifest, version %d" % (what, version)


def boot(entry=None, root="/"):
    """The board's main.py: check, print the verdict, unload the check; then start `entry`
    (none: the caller starts it, so nothing of the check stays on the heap). True if verified."""
    ok, message = check(root)
    print("tapis: " + (message if ok else "REFUSING TO RUN: " + message))
    from ..compat import unload
    unload("verify.manifest", "verify.wots", "verify.xip", "verify")
    if ok and entry:
        __import__(entry)
    return ok
