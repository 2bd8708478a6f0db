# The boot's leap over a keyed journal's sealed segments (resume.starts): the seals are found
# by searching the bytes for a seal's payload (bytearray.find, C code), not by walking the
# records one by one in Python (a few bytecodes a record, 0.23 s for piquet's 4,517 on the
# Pico). It checks the same: every byte from the head to the last seal hashed (SHA-256, C) and
# compared with the seal that closes its segment, each seal's tag checked under the key from
# the 8 bytes before it (which its segment's hash holds). The writer (journal.py) seals before
# every game's and deal's state, so the records right after the head and after each seal are
# the only beginnings of games and deals: a game's or a deal's beginning found anywhere else,
# a search's hit that is not a seal that checks, anything not as the writer leaves it, gives
# None, and the walk of every record decides from the head (it says where a journal is
# corrupt). Boot-only: boot.unload frees it.
from hashlib import sha256

from .compat import const
from .reader import BEGIN, chains, head, sealed
from .store import JournalError

_CHAIN = const(0x4C)  # store.py's (the record format)
_CHK = const(0x5A)
_Z = b'{"k": "z", "h": "'  # a seal's payload, as journal.py frames it
_D = b'{"k": "d"'  # a deal's state
_OVER = const(20)  # a new buffer takes the last bytes of the one before again: a seal's header and payload's beginning


def _length(buf, k, n):
    """The whole length of the chained record at buf[k:] if its header is whole and good, else 0."""
    if k + 4 > n or buf[k] != _CHAIN or buf[k + 3] != buf[k + 1] ^ buf[k + 2] ^ _CHK:
        return 0
    return (buf[k + 1] << 8 | buf[k + 2]) + 12


def leap(store, chain, buf, end):
    """(games' first records, the last deal's end or None, offset after the last seal, its
    tag) for the journal up to its last seal, checked; None when the leap cannot tell what the
    walk would (no seal, or anything unusual): resume.starts walks the records from the head."""
    p = chain.pads
    if end < 64:  # (a head and a record at least; none: the walk says so)
        return None
    mv = memoryview(buf)
    n = store.read_at(0, buf)
    m = _length(buf, 0, n)
    if not m or m > n or m + 13 > end:
        return None
    try:
        prev = head(chain, mv[:m], 0, 0, chains(p, bytes(8), mv[:m], 0, 0))
    except (JournalError, ValueError, KeyError, TypeError):
        return None
    found, deal, last = [], None, None
    at, i, seg = 0, m, sha256(prev)  # buf holds the journal's bytes [at, at + n); i: a record after the head or a seal
    hashed = i  # seg has the segment's bytes up to there
    while True:
        if i + 13 > at + n:  # (i is in buf or at its end: a seal ended there)
            seg.update(mv[hashed - at:i - at])
            at = hashed = i
            n = store.read_at(at, buf)
        k = i - at
        if k + 13 > n or not _length(buf, k, n):
            return None if last is None else (found, deal, last[0], last[1])
        kind = buf[k + 4:k + 13]
        lo = k + 5  # (past the record's own kind)
        after = i + 5
        while True:  # the next seal from there, buffer after buffer
            q = buf.find(_Z, lo, n)
            stop = n if q < 0 else q
            if buf.find(BEGIN, lo, stop) >= 0 or buf.find(_D, lo, stop) >= 0:
                return None  # a game's or deal's beginning not after a seal (or in a record's own bytes)
            if q >= 0:
                break
            if at + n >= end:  # no more seals: the walk goes on from the last one
                return None if last is None else (found, deal, last[0], last[1])
            x = max(at + n - _OVER, hashed)
            if x <= at:
                return None
            seg.update(mv[hashed - at:x - at])
            at = hashed = x
            n = store.read_at(at, buf)
            lo = max(0, after - at)
        s = at + q - 4  # the seal's record (q >= 4: _OVER keeps its header in buf)
        m = _length(buf, q - 4, n)
        if q < 4 or not m or s + m > end:
            return None
        seg.update(mv[hashed - at:s - at])
        if s - at + m > n or s - at < 8:  # the seal whole in buf, and the tag before it
            at = hashed = s - 8
            n = store.read_at(at, buf)
        k = s - at
        whole = mv[k:k + m]
        try:
            tag = chains(p, bytes(buf[k - 8:k]), whole, 0, s)
            sealed(seg, whole, 0, s)
        except JournalError:
            return None
        if kind == BEGIN:  # the record after the last seal (or the head): counted once this seal checks
            found.append(i)
            deal = None
        elif kind == _D:
            deal = i
        seg, i = sha256(tag), s + m
        hashed, last = i, (i, tag)
