# Reading the journal back, checked, one record in memory at a time: every record's framing,
# and in a keyed journal its tag, the chain's head and every seal (store.py says what they
# are). The board reads so the game it resumes (resume.py) and the games recalled
# (played.py); the self-test and the host's tapis recall --verify every record. Boot- and
# recall-time code: the board unloads it once the table is built.
import json
from binascii import hexlify
from hashlib import sha256

from ..compat import const
from ..link.frames import crc16
from ..mac import keyed
from .store import JournalError

_MAGIC = const(0x4B)  # store.py's (the record format)
_OLD = const(0x4A)
_CHAIN = const(0x4C)
_CHK = const(0x5A)
BEGIN = b'{"k": "b"'  # how the writer frames a game's first record (its "k" first)


def length(head, i, k=0):
    """The whole length of the record at head[k:] (at byte i of the journal) from its first
    bytes (JournalError if they are damaged); 0 if fewer than 4 bytes are there."""
    c = head[k]
    if c != _MAGIC and c != _OLD and c != _CHAIN:
        raise JournalError("journal corrupt at byte %d: no record starts there" % i)
    if len(head) < k + 4:
        return 0
    if head[k + 3] != head[k + 1] ^ head[k + 2] ^ _CHK:
        raise JournalError("journal corrupt at byte %d: the record length is damaged" % i)
    return (head[k + 1] << 8 | head[k + 2]) + (6 if c == _OLD else 8 if c == _MAGIC else 12)


def _corrupt(c, i, why, edited=True):
    return JournalError("journal corrupt at record %d (byte %d): %s%s" % (
        c, i, why, " (edited, deleted, moved, or not this table's)" if edited else ""))


def chains(p, prev, whole, c, i):
    """The tag of the record `whole` (its bytes), which must chain from `prev`."""
    m = len(whole)
    tag = keyed(p, prev, whole[:m - 8])[:8]
    if tag != bytes(whole[m - 8:]):
        raise _corrupt(c, i, "its tag does not chain")
    return tag


def head(chain, whole, c, i, tag):
    """The chain's head, `whole` (checked): the tag the record after it chains from."""
    h = json.loads(bytes(whole[4:len(whole) - 8]))
    if i or h.get("k") != "h":
        raise _corrupt(c, i, "the chain does not begin with its head there", False)
    if h["d"] != chain.device:
        raise JournalError("journal refused: its chain is device %r's, not this table's (%r)"
                           % (h["d"], chain.device))
    return bytes(h["p"]) if h["p"] else tag


def sealed(seg, whole, c, i):
    """The seal `whole` (its tag checked) must hold the SHA-256 of its segment, `seg`: the
    record is {"k": "z", "h": "<64 hex digits>"} (journal.py writes it; its bytes compared,
    not parsed: 0.4 ms a seal on the Pico), then the chain of custody it carries, "m": its
    JSON's bytes, unparsed (the boot parses the last seal's only: resume.load), None without."""
    b = bytes(whole[4:len(whole) - 8])
    h = b'{"k": "z", "h": "' + (hexlify(seg.digest()) if seg is not None else b[17:81]) + b'"'
    if b[:len(h)] != h:  # (seg None: the seal a deferred walk begins at, its segment hashed once playing)
        raise _corrupt(c, i, "the records before this seal are not the ones it sealed")
    if b[len(h):] == b"}":
        return None
    if b[len(h):len(h) + 8] != b', "m": [' or b[-2:] != b"]}":
        raise _corrupt(c, i, "the seal is not a seal's JSON")
    return b[len(h) + 7:-1]


def _leave(chain, prev, seg, fed):
    """The journal writes on from where a walk of its chain ended."""
    chain.head, chain.seg, chain.fed = prev, seg, fed


def records(store, start=0, deal=None, chain=None, skip=0, trust=None):
    """Yield (offset, record) from a store, one record in memory at a time (read 2 KB at a
    time); raise JournalError on corruption; an incomplete last record ends it with
    (offset, None). deal: the records between the first and that offset are checked but
    not parsed (nor yielded): the board reads the game it resumes from its last deal's end.
    chain: a keyed journal (journal.py: its pads and device): every record's tag and every
    seal is checked from the head on (start 0), and records before `skip` are not parsed
    (nor yielded); the walk leaves chain.head, .seg and .starts as the chain ends (the
    journal writes on from there: a walk of a whole journal gives what it had). trust:
    (offset, tag, record number) after the last seal, which resume.starts checked with all
    before it: the chain is checked from there on, from that seal's tag (the board's boot;
    .starts is left)."""
    i, end = start, store.size()
    buf = bytearray(2048)  # n bytes of the journal from offset `at`
    at, n = start, 0
    p = chain.pads if chain is not None else None
    prev, c, lo = bytes(8), 0, skip if p is not None else start  # the chain's tag and count
    sure, seg, fed = 0, None, 0  # the chain is checked from `sure`; the open segment's hash
    if trust is not None:
        sure, prev, c = trust
        seg = sha256(prev)
    elif chain is not None and p is not None:
        chain.starts = []
    try:
        while i < end:
            k = i - at
            if k + 4 > n:
                at, n, k = i, store.read_at(i, buf), 0
            if i < sure and deal is not None and lo < i < deal and k + 13 <= n and buf[k + 11] != 0x73:
                i += (buf[k + 1] << 8 | buf[k + 2]) + 12  # framed, chained and sealed (resume.starts): skipped at once
                continue
            if n < k + 4:  # the journal's last bytes: a torn record's, if they start as one
                length(buf[k:n], i)
                if chain is not None and p is not None:
                    _leave(chain, prev, seg, fed)
                yield i, None
                break
            m = length(buf, i, k)
            if i + m > end:
                if chain is not None and p is not None:
                    _leave(chain, prev, seg, fed)
                yield i, None
                break
            if k + m > n:
                if m > len(buf):
                    buf = bytearray(m)
                at, n, k = i, store.read_at(i, buf), 0
            whole = memoryview(buf)[k:k + m]
            t = 2 if buf[k] == _OLD else 4 if buf[k] == _MAGIC else 8
            if i < sure:
                pass  # checked by resume.starts, with the seal after it
            elif chain is not None and p is not None:
                if t != 8:
                    raise _corrupt(c, i, "a record of the unkeyed format in a keyed journal", False)
                prev = chains(p, prev, whole, c, i)
                c += 1
                kind = buf[k + 11] if m > 12 else 0
                if i == 0 or kind == 0x68:  # {"k": "h": the chain's head; its segment begins
                    prev = head(chain, whole, c - 1, i, prev)
                    seg, fed = sha256(prev), 0
                    i += m
                    continue
                if kind == 0x7A:  # {"k": "z": a seal; the next segment begins
                    chain.claim = sealed(seg, whole, c - 1, i) or getattr(chain, "claim", None)
                    seg, fed = sha256(prev), 0
                elif seg is not None:
                    seg.update(whole)
                    fed += 1
                if trust is None and bytes(whole[4:13]) == BEGIN:
                    chain.starts.append(i)
            elif t == 8:
                raise JournalError("journal refused at byte %d: its records are chained under a device key "
                                   "this reader was not given" % i)
            elif t == 2:  # its check: the old CRC-16, or 4 bytes of SHA-256
                if crc16(whole[:m - 2], 0xFFFF) != (buf[k + m - 2] << 8 | buf[k + m - 1]):
                    raise JournalError("journal corrupt at byte %d: the record fails its check" % i)
            elif sha256(whole[:m - 4]).digest()[:4] != bytes(whole[m - 4:]):
                raise JournalError("journal corrupt at byte %d: the record fails its check" % i)
            if i < lo or deal is not None and lo < i < deal and buf[k + 11] != 0x73:  # (but "s")
                i += m
                continue
            try:
                rec = json.loads(bytes(whole[4:m - t]))
            except ValueError:
                raise JournalError("journal corrupt at byte %d: the record is not JSON" % i)
            if not isinstance(rec, dict) or rec.get("k") not in ("b", "i", "d", "v", "e", "s", "z"):
                raise JournalError("journal corrupt at byte %d: unknown record %r" % (i, rec))
            yield i, rec
            i += m
        if chain is not None and p is not None:
            _leave(chain, prev, seg, fed)
    finally:
        store.close()
