# The keyed hash every check of the board is built on: HMAC-SHA256 (RFC 2104) and the
# keys derived from the device key. MicroPython has hashlib.sha256 (C code on every port)
# but no hmac module, so HMAC is built here. One device key (device.key, provisioned by
# `tapis flash`, kept by the host) gives a key per purpose, so a key that leaks for one
# purpose (a paired panel's) gives nothing of the others (the journal's, another panel's).
import hashlib

from .compat import const

_BLOCK = const(64)  # SHA-256's block size in bytes


def pads(key):
    """(inner, outer): the key's two padded blocks, made once for a key used many times
    (the journal's, for every record; a link's session key, for every frame)."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    key = bytes(key) + bytes(_BLOCK - len(key))
    return bytes(b ^ 0x36 for b in key), bytes(b ^ 0x5C for b in key)


def keyed(p, head, msg):
    """HMAC-SHA256 of head + msg under the key whose pads() are p, as 32 bytes; msg bytes,
    or an iterator of its pieces (the journal's record, read from its stream in pieces)."""
    inner = hashlib.sha256(p[0])
    inner.update(head)
    if isinstance(msg, (bytes, bytearray, memoryview)):
        inner.update(msg)
    else:
        for piece in msg:
            inner.update(piece)
    outer = hashlib.sha256(p[1])
    outer.update(inner.digest())
    return outer.digest()


def hmac_sha256(key, msg):
    """HMAC-SHA256(key, msg) as 32 bytes (RFC 2104)."""
    return keyed(pads(key), b"", msg)


def derive(key, what):
    """The key for one purpose (bytes, e.g. b"journal" or b"pair:" + a device's serial)."""
    return hmac_sha256(key, b"tapis:" + what)
