# Software verification at boot (SPEC §3): the board refuses to run modified code.
#
# `tapis flash` writes, beside the code, three files at the root of the board's filesystem:
#   manifest.json  {"v": 1, "device": ID, "files": {path: sha256 hex}}: every deployed file
#   manifest.sig   hex HMAC-SHA256 of manifest.json's exact bytes under the device key
#   device.key     the device key (hex), random per device, provisioned at flash time
# check() verifies the signature, then the hash of every listed file, and refuses any
# code file under firmware/ that the manifest does not list. This protects against
# modified or added code, not against someone who can read the key from the board.
# HMAC-SHA256 is mac.py's.
import binascii
import hashlib
import json
import os

from .mac import hmac_sha256

_CHUNK = 512


def hexlify(data):
    return binascii.hexlify(data).decode()


def same(a, b):
    """Compare two strings in a time that does not depend on where they differ."""
    if len(a) != len(b):
        return False
    diff = 0
    for x, y in zip(a, b):
        diff |= ord(x) ^ ord(y)
    return diff == 0


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


def _code_files(root, under):
    """Paths of .py/.mpy files below root/under, relative to root, '/'-separated."""
    found = []
    try:
        entries = _entries(root + under)
    except OSError:
        return found
    for name, kind in entries:
        rel = under + "/" + name
        if kind == 0x4000:
            found.extend(_code_files(root, rel))
        elif name.endswith(".py") or name.endswith(".mpy"):
            found.append(rel[1:])
    return found


def _entries(path):
    """(name, 0x4000 for a directory else 0x8000) for each entry of path."""
    if hasattr(os, "ilistdir"):  # MicroPython
        return [(e[0], e[1]) for e in os.ilistdir(path)]
    return [(n, os.stat(path + "/" + n)[0] & 0x4000 or 0x8000) for n in os.listdir(path)]


def check(root="/", key=None):
    """(ok, message): is the code under `root` exactly what the signed manifest lists?"""
    if not root.endswith("/"):
        root += "/"
    try:
        if key is None:
            key = binascii.unhexlify(_read(root + "device.key").strip())
        raw = _read(root + "manifest.json")
        sig = _read(root + "manifest.sig").decode().strip()
    except (OSError, ValueError) as e:
        return False, "no usable manifest, signature or device key (%r)" % (e,)
    if not same(hexlify(hmac_sha256(key, raw)), sig):
        return False, "the manifest's signature is wrong: it was not made with this device's key"
    try:
        files = json.loads(raw)["files"]
    except (ValueError, KeyError, TypeError):
        return False, "the manifest is not valid JSON with a files list"
    for path in sorted(files):
        try:
            got = file_sha256(root + path)
        except OSError:
            return False, "%s is missing" % (path,)
        if got != files[path]:
            return False, "%s was modified (sha256 %s, manifest %s)" % (path, got[:16], files[path][:16])
    for path in _code_files(root[:-1], "/firmware"):
        if path not in files:
            return False, "%s is not in the manifest" % (path,)
    return True, "firmware verified: %d files match the signed manifest" % (len(files),)


def boot(entry="firmware.main", root="/"):
    """The board's main.py: check, then start `entry` (none: check only). True if verified."""
    ok, message = check(root)
    print("tapis: " + (message if ok else "REFUSING TO RUN: " + message))
    if ok and entry:
        __import__(entry)
    return ok
