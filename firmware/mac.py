# The keyed hash every check of the board is built on: HMAC-SHA256 (RFC 2104) and the
# keys derived from the device key. MicroPython has hashlib.sha256 (C code on every port)
# but no hmac module, so HMAC is built here. One device key (device.key, provisioned by
# `tapis flash`, kept by the host) gives a key per purpose, so a key that leaks for one
# purpose (a paired panel's) gives nothing of the others (the journal's, another panel's).
import hashlib

_BLOCK = 64  # SHA-256's block size in bytes


def pads(key):
    """The key's inner and outer pads, made once for many MACs under one key (a link's
    session key MACs every frame)."""
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    key = bytes(key) + bytes(_BLOCK - len(key))
    return bytes(b ^ 0x36 for b in key), bytes(b ^ 0x5C for b in key)


def hmac_pads(kp, msg):
    """HMAC-SHA256 of msg under the key whose pads() are kp."""
    inner = hashlib.sha256(kp[0])
    inner.update(msg)
    outer = hashlib.sha256(kp[1])
    outer.update(inner.digest())
    return outer.digest()


def hmac_sha256(key, msg):
    """HMAC-SHA256(key, msg) as 32 bytes (RFC 2104)."""
    return hmac_pads(pads(key), msg)


def derive(key, purpose):
    """The key for one purpose (bytes, e.g. b"journal" or b"pair:" + a device's serial)."""
    return hmac_sha256(key, b"tapis:" + purpose)
