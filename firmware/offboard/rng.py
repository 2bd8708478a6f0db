# The host's dealing randomness (SPEC §8, issue 12.6). Seeded: a reproducible CSPRNG for
# seeded runs, the same numbers under CPython and MicroPython from the same seed. Its key
# is the SHA-256 of the whole seed (an int of any size, or bytes), so a seed carries all
# its bits, up to 256; its output is SHA-256(key ‖ counter) blocks, so no seen card tells
# the next one or the key. Urandom: the same API straight from os.urandom, for a run with
# no seed. Nothing on the board imports this module: the board's own shuffle reads
# os.urandom (deck.urandom_below); the emulated shoe, the simulator and the bots use it.
import hashlib
import os


def _key(seed):
    if isinstance(seed, int):
        seed = b"i%d" % seed  # every bit of the seed, in decimal: no masking, no bit_length
    elif isinstance(seed, str):
        seed = b"s" + seed.encode()
    else:
        seed = b"b" + bytes(seed)
    return hashlib.sha256(b"tapis.rng\0" + seed).digest()


class Seeded:
    def __init__(self, seed):
        if seed is None:
            raise ValueError("Seeded needs a seed (Urandom() for a run without one)")
        self._k, self._n, self._buf, self._at = _key(seed), 0, b"", 32

    def _take(self):
        if self._at == 32:
            self._buf = hashlib.sha256(self._k + b"%d" % self._n).digest()
            self._n += 1
            self._at = 0
        self._at += 4
        return self._buf[self._at - 4:self._at]

    def next32(self):
        """A uniform 32-bit int."""
        b = self._take()
        return b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]

    def read(self, n):
        """The next n bytes of the stream (n a multiple of 4), as next32 would draw them a word
        at a time: whole blocks straight from the hash (the lab's bit stream, issue 47)."""
        if n % 4:
            raise ValueError("read(n) takes whole 32-bit words, got %r bytes" % (n,))
        parts = []
        while n and self._at < 32:
            parts.append(self._take())
            n -= 4
        while n >= 32:
            parts.append(hashlib.sha256(self._k + b"%d" % self._n).digest())
            self._n += 1
            n -= 32
        while n:
            parts.append(self._take())
            n -= 4
        return b"".join(parts)

    def below(self, n):
        """Uniform int in [0, n), 1 <= n <= 2**32, by rejection so that no value is favoured."""
        if not 0 < n <= 0x100000000:
            raise ValueError("below(n) needs 1 <= n <= 2**32, got %r" % (n,))
        limit = 0x100000000 - 0x100000000 % n
        while True:
            v = self.next32()
            if v < limit:
                return v % n


class Urandom(Seeded):
    """No seed: every draw from os.urandom (nothing to replay, nothing to recover)."""

    def __init__(self):
        pass

    def _take(self):
        return os.urandom(4)


def source(seed=None):
    """Seeded(seed), or Urandom() when seed is None."""
    return Urandom() if seed is None else Seeded(seed)
