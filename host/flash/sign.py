# Signing the image's manifest (host/flash/steps.py): the manifest lists every file's SHA-256; the
# firmware's signing key is WOTS one-time keys on a Merkle tree (firmware/verify/manifest.py verifies
# it on the board), kept on the host with a record of the leaves used (Signer), so that a leaf
# never signs two different manifests.
import functools
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from tapis.firmware.verify import wots as S
from tapis.host.errors import FlashError


def manifest(image, device, version=0, whole=None):
    """(manifest.json bytes) listing the SHA-256 of every file of the image; whole: the
    product image's {"sha256", "bytes"} as the board reads it (host/image/uf2.py), which
    makes it version 3 of the format."""
    files = {path: hashlib.sha256(data).hexdigest() for path, data in sorted(image.items())}
    m = {"v": 2, "device": device, "version": version, "files": files}
    if whole is not None:
        m.update(v=3, image={"sha256": whole["sha256"], "bytes": whole["bytes"]})
    return json.dumps(m, sort_keys=True).encode()


def sign(key, data):
    """HMAC-SHA256 in hex: what the manifest was signed with before (kept for the attack
    tests: a manifest re-signed with the board's device key)."""
    return hmac.new(key, data, hashlib.sha256).hexdigest()


# ---- the firmware's signing key: WOTS one-time keys on a Merkle tree (firmware/sig.py) ------
def _secret(seed, leaf, i):
    return hashlib.sha256(seed + bytes((leaf >> 8, leaf & 255, i))).digest()


@functools.lru_cache(maxsize=8)
def _tree(seed):
    """The tree's levels, leaves first: 2^HEIGHT WOTS public keys hashed, up to the root."""
    level = []
    for k in range(1 << S.HEIGHT):
        ends = b"".join(S.chain(_secret(seed, k, i), k, i, 0, 15) for i in range(S.CHAINS))
        level.append(S.leaf_hash(k, ends))
    levels = [level]
    for h in range(1, S.HEIGHT + 1):
        below = levels[-1]
        levels.append([S.node(h, k, below[2 * k], below[2 * k + 1]) for k in range(len(below) // 2)])
    return levels


def public_key(seed):
    """The 32-byte root the board verifies under."""
    return _tree(seed)[-1][0]


def wots_sign(seed, leaf, msg):
    """The signature of msg with leaf `leaf` (firmware/sig.py's layout). Use sign_manifest,
    which makes sure a leaf never signs two different messages."""
    if not 0 <= leaf < 1 << S.HEIGHT:
        raise FlashError("leaf %d is outside the tree (%d leaves)" % (leaf, 1 << S.HEIGHT))
    out = bytes((leaf >> 8, leaf & 255))
    for i, a in enumerate(S.digest(leaf, msg)):
        out += S.chain(_secret(seed, leaf, i), leaf, i, 0, a)
    levels, k = _tree(seed), leaf
    for h in range(S.HEIGHT):
        out += levels[h][k ^ 1]
        k >>= 1
    return out


class Signer:
    """A device's signing key in the host's key store (<device>.sign, JSON, 0600): the seed
    and, for each leaf used, the SHA-256 of the manifest it signed."""

    def __init__(self, path):
        self.path = Path(path)
        try:
            d = json.loads(self.path.read_text())
            self.seed = bytes.fromhex(d["seed"])
            self.signed = {int(k): v for k, v in d["signed"].items()}
        except FileNotFoundError:
            raise FlashError("no signing key at %s: flash the board first (it is made then)" % self.path) from None
        except (ValueError, KeyError, TypeError, AttributeError):
            raise FlashError("%s is not a tapis signing key" % self.path) from None

    @classmethod
    def provision(cls, path):
        path = Path(path)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                json.dump({"seed": secrets.token_hex(32), "signed": {}}, f)
        return cls(path)

    @property
    def public(self):
        return public_key(self.seed)

    def _save(self):
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({"seed": self.seed.hex(), "signed": {str(k): v for k, v in sorted(self.signed.items())}}, f)
        os.replace(tmp, self.path)

    def sign(self, leaf, raw):
        """The signature of raw with `leaf`; FlashError if the leaf signed something else."""
        h = hashlib.sha256(raw).hexdigest()
        if self.signed.get(leaf, h) != h:
            raise FlashError("version %d was already signed for another manifest: a one-time key "
                             "signs once (the next version is %d)" % (leaf, max(self.signed) + 1))
        if leaf not in self.signed:
            self.signed[leaf] = h
            self._save()  # recorded before the signature leaves the host
        return wots_sign(self.seed, leaf, raw)

    def sign_manifest(self, image, device, whole=None):
        """(manifest.json bytes, signature, version): the last version again when the
        manifest is the same as it signed, else the next one."""
        if self.signed:
            last = max(self.signed)
            raw = manifest(image, device, last, whole)
            if hashlib.sha256(raw).hexdigest() == self.signed[last]:
                return raw, self.sign(last, raw), last
            version = last + 1
        else:
            version = 0
        if version >= 1 << S.HEIGHT:
            raise FlashError("this device's signing key has signed all its %d versions: "
                             "it needs a new key (see docs/security.md)" % (1 << S.HEIGHT))
        raw = manifest(image, device, version, whole)
        return raw, self.sign(version, raw), version

    def signed_files(self, image, device, whole=None):
        """{manifest.json, manifest.sig, manifest.pub: bytes} for the image on this device."""
        raw, signature, _version = self.sign_manifest(image, device, whole)
        return {"manifest.json": raw, "manifest.sig": signature,
                "manifest.pub": (self.public.hex() + "\n").encode()}
