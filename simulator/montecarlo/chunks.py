# The rounds of a `tapis simulate` run cut into fixed chunks (simulator/montecarlo/simulate.py):
# chunk k is an independent session seeded from (seed, k) alone, so the figures are the
# same whatever the number of workers, and wherever the chunks run.
import hashlib

CHUNK = 5000  # rounds per chunk


def chunk_seed(seed, k):
    """The seed of chunk k: a fixed stream per chunk, not per worker."""
    return int.from_bytes(hashlib.sha256(b"tapis-simulate:%d:%d" % (seed, k)).digest()[:8], "big")


def chunks(rounds, size=CHUNK):
    """(k, rounds in chunk k), one at a time: the same cut for any number of workers."""
    for k in range((rounds + size - 1) // size):
        yield k, min(size, rounds - k * size)
