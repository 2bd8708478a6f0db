# Software verification at boot (SPEC §3, §8): the board refuses to run code that is not
# exactly what the host signed for it (docs/security.md, "Firmware").
#
# `tapis flash` writes, beside the code, at the root of the board's filesystem:
#   manifest.json  {"v": 2, "device": ID, "version": N, "files": {path: sha256 hex}}: every
#                  file the board runs (main.py, boot.py if any, lib/**, fwimage.mpy and
#                  firmware.img, the image of the firmware's modules) and the signed
#                  configuration
#   manifest.sig   the manifest's signature (below: hash-based, leaf N of the device's tree)
#   manifest.pub   the tree's root (hex): a public key, which cannot sign
# and the board keeps manifest.high, the highest version it has verified.
# check() verifies the signature under manifest.pub, that the manifest names this board
# (machine.unique_id(), else the provisioned device.id) and is no older than manifest.high,
# the hash of every listed file, and refuses any .py/.mpy anywhere on the filesystem that
# is unlisted, or on the import path under a built-in module's name. Its own imports are
# made with the filesystem off sys.path, so no file can stand in for hashlib, json or os.
import sys

_CHUNK = 512
_MP = sys.implementation.name == "micropython"

# The check's own imports, with the filesystem off the import path (under MicroPython a
# hashlib.py on the path is imported in place of the built-in): what a boot.py may have
# imported under these names is forgotten first. (On a host's CPython the path holds the
# standard library: left as it is.)
_saved = sys.path[:]
if _MP:
    del sys.path[:]
    for _n in ("binascii", "hashlib", "json", "os", "machine"):
        sys.modules.pop(_n, None)
try:
    import binascii
    import hashlib
    import json
    import os

    try:
        import machine  # type: ignore
    except ImportError:  # a host's CPython
        machine = None
finally:
    if _MP:
        sys.path.extend(_saved)
del _saved
# The mounted firmware image (firmware/fwimage.py, mounted by main.py), whose modules the
# walk below leaves out: the image is a file of the manifest, hashed whole.
_MOUNT = getattr(sys.modules.get("fwimage"), "MOUNT", None)


# The signature (hash-based: the board can verify it but not make it). hashlib.sha256 is the
# one primitive every port has (cryptolib is missing from some), so the signature is
# Winternitz (WOTS, w = 16) one-time keys on a Merkle tree of 2^HEIGHT leaves. The board
# holds only the tree's root (32 bytes, manifest.pub): it verifies, and holds no secret.
# Firmware version v is signed with leaf v (host/flash.py keeps which leaves were used and
# refuses to sign a second, different manifest with one), so no one-time key signs twice
# and the version is bound to the signature. Every hash is tweaked with where it is (leaf,
# chain, step), so a hash computed for one place is no help at another. A signature is the
# leaf (2 bytes, big-endian), the 67 chain values, then the HEIGHT sibling nodes from the
# leaf up. (Here, not in a module of its own: its `hashlib` must be the one imported above.)
HEIGHT = 8  # 256 firmware versions per device key
CHAINS = 67  # 64 nibbles of the digest, 3 of its checksum
SIZE = 2 + 32 * (CHAINS + HEIGHT)


def digest(leaf, msg):
    """The 67 base-16 digits a leaf signs: the message's hash, then its checksum."""
    d = hashlib.sha256(b"tapis-fw" + bytes((leaf >> 8, leaf & 255)) + msg).digest()
    a = []
    for b in d:
        a.append(b >> 4)
        a.append(b & 15)
    c = 960 - sum(a)
    a.append(c >> 8)
    a.append((c >> 4) & 15)
    a.append(c & 15)
    return a


def chain(x, leaf, i, start, end):
    """x hashed from step start to step end of chain i of a leaf."""
    t = bytearray((leaf >> 8, leaf & 255, i, 0))
    h = hashlib.sha256
    for j in range(start, end):
        t[3] = j
        x = h(t + x).digest()
    return x


def leaf_hash(leaf, ends):
    return hashlib.sha256(b"L" + bytes((leaf >> 8, leaf & 255)) + ends).digest()


def node(level, index, left, right):
    return hashlib.sha256(bytes((78, level, index >> 8, index & 255)) + left + right).digest()


def sig_root(sig, msg):
    """The root a signature of msg leads to, and its leaf: (root, leaf). ValueError if the
    signature is not one in form."""
    if len(sig) != SIZE:
        raise ValueError("a signature is %d bytes, not %d" % (SIZE, len(sig)))
    leaf = sig[0] << 8 | sig[1]
    if leaf >> HEIGHT:
        raise ValueError("leaf %d is outside the tree" % leaf)
    ends = b""
    for i, a in enumerate(digest(leaf, msg)):
        ends += chain(sig[2 + 32 * i:34 + 32 * i], leaf, i, a, 15)
    h = leaf_hash(leaf, ends)
    k = leaf
    p = 2 + 32 * CHAINS
    for level in range(HEIGHT):
        s = sig[p:p + 32]
        h = node(level + 1, k >> 1, s, h) if k & 1 else node(level + 1, k >> 1, h, s)
        k >>= 1
        p += 32
    return h, leaf


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
    if not _MP:
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


def check(root="/", pub=None):
    """(ok, message): is the code under `root` exactly what the host signed for this board?
    pub: the public key (32 bytes) to check under; manifest.pub's by default."""
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
        if m["v"] != 2 or not isinstance(files, dict) or not isinstance(version, int):
            raise ValueError
    except (ValueError, KeyError, TypeError):
        return False, "the manifest is not valid JSON with a version, a device and files"
    if version != leaf:
        return False, "the manifest says version %r but is signed as version %d" % (version, leaf)
    me = board_id(root)
    if device != me:
        return False, "the manifest is for device %r, this board is %r" % (device, me)
    high = _high(root)
    if version < high:
        return False, "version %d is older than version %d, which this board has run: a downgrade" % (version, high)
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
    return True, "firmware verified: %d files match the signed manifest, version %d" % (len(files), version)


def boot(entry=None, root="/"):
    """The board's main.py: check, print the verdict, unload the check; then start `entry`
    (none: the caller starts it, so nothing of the check stays on the heap). True if verified."""
    ok, message = check(root)
    print("tapis: " + (message if ok else "REFUSING TO RUN: " + message))
    from .compat import unload
    unload("manifest")
    if ok and entry:
        __import__(entry)
    return ok
