# The board's boot walks its journal's framing only (walk.starts): where each game begins,
# where the last deal ended, whether the last record is torn; in a keyed journal every
# segment of records hashed as it is read (SHA-256, in C) and checked against its seal,
# so that the boot checks the tags (an HMAC a record) after the last seal only. The walk
# reads 2 KB at a time and holds no record: the board then reads in full (reader.records)
# only the game it resumes. Boot-time code: unloaded once the table is built.
from hashlib import sha256

from .compat import const
from .reader import BEGIN, chains, head, length, sealed

_MAGIC = const(0x4B)  # record.py's
_OLD = const(0x4A)
_CHAIN = const(0x4C)
_CHK = const(0x5A)


def starts(store, chain=None):
    """(offsets of the games' first records, offset of a torn last record or None, offset
    of the last game's last deal's end or None, the last seal's trust for reader.records
    or None), by walking the records' framing only (magic and length check), read 2 KB at a
    time: the board's boot, which then reads in full only the last game, the one it resumes
    (recall checks the others when it reads them). A few bytecodes a record: the Pico walks
    4,457 of them in about 0.3 s. chain: a keyed journal, whose head and seals the walk
    checks, every segment hashed as it is read (SHA-256 in C, about 1 us a byte on the
    Pico, against 0.8 ms for a record's HMAC): trust is (the offset after the last seal,
    its tag, its record number + 1), from which reader.records checks the chain."""
    end = store.size()
    found = []
    deal = trust = None
    p = chain.pads if chain is not None else None
    buf = bytearray(2048)  # n bytes of the journal from offset `at`; the record walked at i
    mv = memoryview(buf)
    at, n, i, c = 0, 0, 0, 0
    seg, hashed = None, 0  # the open segment's hash (a keyed journal's), and the offset it has the bytes to
    try:
        while i < end:
            k = i - at
            if k + 13 > n:  # read on, from the record if it starts in buf
                if seg is not None:
                    seg.update(mv[hashed - at:min(k, n)])
                at = hashed = at + min(k, n)
                n = store.read_at(at, buf)
                k = i - at
                if k:  # still in a long record's bytes
                    continue
                if n < 13:  # the journal's last bytes: too few to tell a kind
                    m = length(buf[:n], at)
                    if n < 4 or at + m > end:
                        return found, at, deal, trust
                    i += m
                    c += 1
                    continue
            h, a, b = buf[k], buf[k + 1], buf[k + 2]
            if h != _CHAIN and h != _MAGIC and h != _OLD or buf[k + 3] != a ^ b ^ _CHK:
                length(buf, i, k)  # says which
            m = (a << 8 | b) + (12 if h == _CHAIN else 8 if h == _MAGIC else 6)
            if i + m > end:
                return found, i, deal, trust
            h = buf[k + 11]  # the kind, in {"k": "b" ...
            if h == 0x69 and i:  # an input, most of the records: nothing to note (the loop's fast path,
                i += m           # and the inputs after it in buf: 4,376 of piquet's 4,517 records)
                c += 1
                lim = at + n - 13
                while i <= lim:
                    k = i - at
                    a, b = buf[k + 1], buf[k + 2]
                    m = (a << 8 | b) + 12
                    if buf[k + 11] != 0x69 or buf[k] != _CHAIN or buf[k + 3] != a ^ b ^ _CHK or i + m > end:
                        break
                    i += m
                    c += 1
                continue
            if not i and p is not None:
                h = 0x68  # a chain's first record: its head, whatever it says
            if h == 0x62 or h == 0x64:
                kind = buf[k + 4:k + 13]
                if kind == BEGIN:
                    found.append(i)
                    deal = None
                elif kind == b'{"k": "d"':  # a deal's end
                    deal = i
            elif p is not None and (i == 0 or h == 0x7A):  # the head, a seal: checked whole
                if seg is not None:
                    seg.update(mv[hashed - at:k])
                if k + m > n:
                    at, n, k = i, store.read_at(i, buf), 0
                whole = mv[k:k + m]
                if i == 0:
                    seg = sha256(head(chain, whole, 0, 0, chains(p, bytes(8), whole, 0, 0)))
                else:
                    tag = chains(p, bytes(buf[k - 8:k]) if k >= 8 else store.read_at(i - 8, 8), whole, c, i)
                    sealed(seg, whole, c, i)
                    seg, trust = sha256(tag), (i + m, tag, c + 1)
                hashed = i + m
            i += m
            c += 1
        return found, None, deal, trust
    finally:
        store.close()
