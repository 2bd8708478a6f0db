# Reading the journal back (journal.py frames its records): one record in memory at a
# time, checked; the records grouped into games; a journal opened at boot, and its games
# for recall. Boot-time and recall-time code: the board unloads it once the table is built.
import json
from binascii import hexlify
from hashlib import sha256

from .compat import const
from .frames import crc16
from .journal import JournalError
from .mac import keyed

_MAGIC = const(0x4B)  # a record's first byte, and its length check (journal.py writes them)
_OLD = const(0x4A)  # the first format's: its records end with a CRC-16, not 4 bytes of SHA-256
_CHAIN = const(0x4C)  # a keyed journal's: its records end with 8 bytes of a chained HMAC
_CHK = const(0x5A)


def tuples(v):
    """JSON lists back to the tuples they were (events and actions are tuples all the way)."""
    if isinstance(v, list):
        return tuple(tuples(x) for x in v)
    return v


def _check(head, i, k=0):
    """The whole length of the record at head[k:] from its first bytes (JournalError if
    they are damaged); 0 if fewer than 4 bytes are there."""
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


def _chains(p, prev, whole, c, i):
    """The tag of the record `whole` (its bytes), which must chain from `prev`."""
    m = len(whole)
    tag = keyed(p, prev, whole[:m - 8])[:8]
    if tag != bytes(whole[m - 8:]):
        raise _corrupt(c, i, "its tag does not chain")
    return tag


def _head(chain, whole, c, i, tag):
    """The chain's head, `whole` (checked): the tag the record after it chains from."""
    h = json.loads(bytes(whole[4:len(whole) - 8]))
    if i or h.get("k") != "h":
        raise _corrupt(c, i, "the chain does not begin with its head there", False)
    if h["d"] != chain.device:
        raise JournalError("journal refused: its chain is device %r's, not this table's (%r)"
                           % (h["d"], chain.device))
    return bytes(h["p"]) if h["p"] else tag


def _sealed(seg, whole, c, i):
    """The seal `whole` (its tag checked) must hold the SHA-256 of its segment, `seg`: the
    record is {"k": "z", "h": "<64 hex digits>"} (journal.py writes it; its bytes compared,
    not parsed: 0.4 ms a seal on the Pico)."""
    if bytes(whole[4:len(whole) - 8]) != b'{"k": "z", "h": "' + hexlify(seg.digest()) + b'"}':
        raise _corrupt(c, i, "the records before this seal are not the ones it sealed")


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
    (offset, tag, record number) after the last seal, which starts() checked with all before it: the chain
    is checked from there on, from that seal's tag (the board's boot; .starts is left)."""
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
                i += (buf[k + 1] << 8 | buf[k + 2]) + 12  # framed, chained and sealed (starts()): skipped at once
                continue
            if n < k + 4:  # the journal's last bytes: a torn record's, if they start as one
                _check(buf[k:n], i)
                if chain is not None and p is not None:
                    _leave(chain, prev, seg, fed)
                yield i, None
                break
            m = _check(buf, i, k)
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
                pass  # checked by starts(), with the seal after it
            elif chain is not None and p is not None:
                if t != 8:
                    raise _corrupt(c, i, "a record of the unkeyed format in a keyed journal", False)
                prev = _chains(p, prev, whole, c, i)
                c += 1
                kind = buf[k + 11] if m > 12 else 0
                if i == 0 or kind == 0x68:  # {"k": "h": the chain's head; its segment begins
                    prev = _head(chain, whole, c - 1, i, prev)
                    seg, fed = sha256(prev), 0
                    i += m
                    continue
                if kind == 0x7A:  # {"k": "z": a seal; the next segment begins
                    _sealed(seg, whole, c - 1, i)
                    seg, fed = sha256(prev), 0
                elif seg is not None:
                    seg.update(whole)
                    fed += 1
                if trust is None and bytes(whole[4:13]) == _BEGIN:
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


_BEGIN = b'{"k": "b"'  # how the journal writes a game's first record (json.dumps, "k" first)


def starts(store, chain=None):
    """(offsets of the games' first records, offset of a torn last record or None, offset
    of the last game's last deal's end or None, the last seal's trust for records() or
    None), by walking the records' framing only (magic and length check), read 2 KB at a
    time: the board's boot, which then reads in full only the last game, the one it resumes
    (recall checks the others when it reads them). A few bytecodes a record: the Pico walks
    4,457 of them in about 0.3 s. chain: a keyed journal, whose head and seals the walk
    checks, every segment hashed as it is read (SHA-256 in C, about 1 us a byte on the
    Pico, against 0.8 ms for a record's HMAC): trust is (the offset after the last seal,
    its tag, its record number + 1), from which records() checks the chain."""
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
                    m = _check(buf[:n], at)
                    if n < 4 or at + m > end:
                        return found, at, deal, trust
                    i += m
                    c += 1
                    continue
            h, a, b = buf[k], buf[k + 1], buf[k + 2]
            if h != _CHAIN and h != _MAGIC and h != _OLD or buf[k + 3] != a ^ b ^ _CHK:
                _check(buf, i, k)  # says which
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
                if kind == _BEGIN:
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
                    seg = sha256(_head(chain, whole, 0, 0, _chains(p, bytes(8), whole, 0, 0)))
                else:
                    tag = _chains(p, bytes(buf[k - 8:k]) if k >= 8 else store.read_at(i - 8, 8), whole, c, i)
                    _sealed(seg, whole, c, i)
                    seg, trust = sha256(tag), (i + m, tag, c + 1)
                hashed = i + m
            i += m
            c += 1
        return found, None, deal, trust
    finally:
        store.close()


def parse(data, chain=None):
    """(records, offsets, torn bytes) of journal bytes; JournalError on any corruption.
    chain: a keyed journal whose key and device the records must chain under."""
    from .memstore import MemoryStore  # the host's: a board reads its journal from flash
    recs, offs = [], []
    for off, rec in records(MemoryStore(data), chain=chain):
        if rec is None:
            return recs, offs, len(data) - off
        recs.append(rec)
        offs.append(off)
    return recs, offs, 0


def _input(r):
    return [tuples(r["a"]), [tuples(e) for e in r["e"]], r.get("f")]


class Inputs:
    """A game's journaled inputs as a list that stays in flash: their records' offsets,
    each read back and parsed when it is asked for (the board's resume replays them one
    at a time; a piquet deal's 41 inputs held parsed cost 23 KB of a 64-bit port's heap).
    The records were checked as the journal was opened, at this boot."""

    def __init__(self, store):
        self.store = store
        self.at = []

    def __len__(self):
        return len(self.at)

    def __getitem__(self, i):
        if isinstance(i, slice):  # as lazy as the whole
            part = Inputs(self.store)
            part.at = self.at[i]
            return part
        return self._read(self.at[i])

    def __delitem__(self, i):
        del self.at[i]

    def __eq__(self, other):  # (as the list it stands for)
        return list(self) == list(other)

    def __iter__(self):
        for a in self.at:
            yield self._read(a)

    def _read(self, at):
        store = self.store
        m = _check(store.read_at(at, 4), at)
        whole = store.read_at(at, m)  # (the store closes its file before it is written)
        return _input(json.loads(whole[4:m - (2 if whole[0] == _OLD else 4 if whole[0] == _MAGIC else 8)]))


def group(recs, store=None):
    """The records as games: [{"game", "options", "number", "state", "events", "inputs":
    [[action, events, from]], "voided": [...], "done", "supervised": [the supervisor's
    and the operator's records: recall, configuration]}], oldest first. store: the
    inputs are Inputs of it, given in recs as their records' offsets."""
    games = []
    g = None
    for r in recs:
        if isinstance(r, int):  # an input's offset: it stays in flash (Inputs)
            if g is None:
                raise JournalError("journal corrupt: an 'i' record before any game began")
            g["inputs"].at.append(r)
            continue
        k = r["k"]
        if k == "b":
            g = {"game": r["g"], "options": r["o"], "number": r["n"], "state": r["s"],
                 "count": r.get("c", 0),
                 "events": [tuples(e) for e in r["e"]], "inputs": [] if store is None else Inputs(store),
                 "voided": [], "done": False, "supervised": []}
            games.append(g)
        elif g is None:
            raise JournalError("journal corrupt: a %r record before any game began" % k)
        elif k == "i":
            g["inputs"].append(_input(r))
        elif k == "v":
            n = r["n"]
            dropped = g["inputs"][len(g["inputs"]) - n:]
            del g["inputs"][len(g["inputs"]) - n:]
            g["voided"].append({"why": r["why"], "inputs": dropped})
        elif k == "e":
            g["done"] = True
        elif k == "s":
            g["supervised"].append(r)
    return games




def open(journal, everything=True, keep_log=True):
    """Read and check the journal, one record at a time; keep the last game (to resume)
    and where each game starts (JournalError if corrupt). Returns every game kept, or
    with everything=False (the board) only the last one: the others stay in flash, their
    framing walked. keep_log=False: the last game as its last deal left it (its state then,
    the inputs since), its records before checked but not parsed."""
    store = journal.store
    journal.starts, journal.frames, journal.torn = [], {}, 0
    recs = []
    first = 0
    deal = trust = None
    p = journal.pads
    if not everything:
        found, torn, deal, trust = starts(store, journal if p is not None else None)
        if keep_log:
            deal = None
        if found:
            first = found[-1]
            journal.starts = found[:-1]
        elif torn is None and store.size() and p is None:  # (a chain: its head alone)
            raise JournalError("journal corrupt at byte 0: no game begins it")
        if trust is not None and trust[0] >= first:  # sealed up to there: the chain checked after it only
            journal.starts = found
        else:
            trust = None
    for off, rec in (records(store, first, deal, journal, first, trust) if trust is not None
                     else records(store, 0, deal, journal, first) if p is not None
                     else records(store, first, deal)):
        if rec is None:  # a power loss during the last write: drop the incomplete record
            journal.torn = store.size() - off
            store.keep(0, off)
            break
        k = rec["k"]
        if k == "z":
            continue
        if k == "b":
            if p is None:
                journal.starts.append(off)
            recs = []
            for a, f in rec.get("f", ()):
                journal.frames[a] = tuple(f)
        elif not journal.starts:
            raise JournalError("journal corrupt: a %r record before any game began" % k)
        elif k == "d":
            for a, f in rec["f"]:
                journal.frames[a] = tuple(f)
            if deal is not None:  # the board: the game from the state its last deal left
                b = recs[0]
                b["s"], b["e"] = rec["s"], []
                recs = [b] + [r for r in recs if not isinstance(r, int) and r["k"] == "s"]  # (the supervisor's)
            continue
        if k == "i":
            f = rec.get("f")
            if f:  # [addr, seq] or [addr, seq, the device's session then]
                journal.frames[f[0]] = (f[1], f[2] if len(f) > 2 else None)
            if not everything:  # the board: the input stays in flash until it is replayed
                rec = off
        recs.append(rec)
    journal.size = store.size()
    games = group(recs, None if everything else store) if recs else []
    journal.last = games[-1] if games else None
    if journal.last:
        journal.number = journal.last["number"]
        journal.name, journal.opts = journal.last["game"], journal.last["options"]
    if everything and len(journal.starts) > 1:
        return group([r for _o, r in records(store, chain=journal) if r is not None])
    return games


def follow(journal, game):
    """Resumed: go on journaling `game`, rebuilt from the last game journaled. If the
    power went before that game's end (or the next one's beginning) was written,
    write them now."""
    journal.game = game
    last = journal.last
    if last is None:
        raise JournalError("an empty journal has nothing to resume")
    journal.count = last["count"]
    journal.deal = game.finished_deals()
    if last["done"]:
        journal.next_game(False)
    elif game.finished_games() != journal.count:
        journal.next_game(True)


def games(journal, last):
    """The last `last` games (completed ones, then the unfinished) as JSON bytes each."""
    starts = journal.starts
    if not starts:
        return []
    first = starts[max(0, len(starts) - last)]
    recs = [r for _o, r in (records(journal.store, 0, None, journal, first) if journal.pads is not None
                            else records(journal.store, first)) if r is not None]
    return [json.dumps(g).encode() for g in group(recs)]
