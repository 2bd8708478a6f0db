# The firmware's signature, verified at boot by manifest.py and made by the host
# (host/flash/steps.py): hash-based, so the board can verify it but not make it.
# hashlib.sha256 is the one primitive every port has (cryptolib is missing from some), so
# the signature is Winternitz (WOTS, w = 16) one-time keys on a Merkle tree of 2^HEIGHT leaves. The board
# holds only the tree's root (32 bytes, manifest.pub): it verifies, and holds no secret.
# Firmware version v is signed with leaf v (host/flash/steps.py keeps which leaves were used and
# refuses to sign a second, different manifest with one), so no one-time key signs twice
# and the version is bound to the signature. Every hash is tweaked with where it is (leaf,
# chain, step), so a hash computed for one place is no help at another. A signature is the
# leaf (2 bytes, big-endian), the 67 chain values, then the HEIGHT sibling nodes from the
# leaf up.
#
# And the interpreter's own modules that the software check (this module and manifest.py)
# uses, imported here with the filesystem off the import path: under MicroPython a hashlib.py
# on the path is imported in place of the built-in, and what a boot.py may have imported
# under these names is forgotten first. (On a host's CPython the path holds the standard
# library: left as it is.) manifest.py takes them from here, never imports them itself, so
# no file can stand in for hashlib, json or os. (Here, not a module of their own: the image
# pays a header and a name table a module.)
import sys

MP = sys.implementation.name == "micropython"

_saved = sys.path[:]
if MP:
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
    if MP:
        sys.path.extend(_saved)
del _saved

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
