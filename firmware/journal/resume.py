# The board's boot reads its journal here. First the walk of its framing only (starts):
# where each game begins, where the last deal ended, whether the last record is torn, and
# in a keyed journal every segment of records hashed as it is read (SHA-256, in C) and
# checked against its seal, so that the tags (an HMAC a record) are checked after the last
# seal only; 2 KB read at a time, no record held. Then the journal opened (load): the last
# game read in full and checked (reader.records), kept to resume (from its last deal's end,
# its inputs left in flash), the devices' last frames, and the writer (journal.py) set to
# write on from where the chain ends; and, the game rebuilt (boot.py), the writer told to
# go on journaling it (follow). The caller above both the writer and the readers
# (reader.py, played.py), which import neither. Boot-time code: unloaded once the table is
# built.
from hashlib import sha256

from ..compat import const
from .played import group
from .reader import BEGIN, chains, head, length, records, sealed
from .store import JournalError

_MAGIC = const(0x4B)  # store.py's (the record format)
_OLD = const(0x4A)
_CHAIN = const(0x4C)
_CHK = const(0x5A)


def starts(store, chain=None, seal=None):
    """(offsets of the games' first records, offset of a torn last record or None, offset
    of the last game's last deal's end or None, the last seal's trust for reader.records
    or None, the seal before the last game's first record: (offset, record number) or None),
    by walking the records' framing only (magic and length check), read 2 KB at a time:
    the board's boot, which then reads in full only the last game, the one it resumes
    (recall checks the others when it reads them). A few bytecodes a record: the Pico walks
    4,457 of them in about 0.3 s. chain: a keyed journal, whose head and seals the walk
    checks, every segment hashed as it is read (SHA-256 in C, about 1 us a byte on the
    Pico, against 0.8 ms for a record's HMAC): trust is (the offset after the last seal,
    its tag, its record number + 1), from which reader.records checks the chain. seal: the
    walk begins at that seal ((offset, record number)), its tag checked (it chains from
    the 8 bytes before it), the segments after it hashed (load's defer)."""
    w = walk(store, chain, seal)
    while True:
        try:
            next(w)
        except StopIteration as e:
            return e.value


def walk(store, chain=None, seal=None, end=None):
    """starts() a piece at a time: a generator that yields after each 2 KB read and returns
    what starts returns; end: the walk stops there (a game's first record: Rest)."""
    size = store.size()
    end = size if end is None or end > size else end
    found = []
    deal = trust = mark = last = None  # last: the latest seal (offset, record number); mark: the one before the last game
    p = chain.pads if chain is not None else None
    buf = bytearray(2048)  # n bytes of the journal from offset `at`; the record walked at i
    mv = memoryview(buf)
    at, n, i, c = (seal[0], 0, seal[0], seal[1]) if seal is not None else (0, 0, 0, 0)
    seg, hashed = None, 0  # the open segment's hash (a keyed journal's), and the offset it has the bytes to
    try:
        while i < end:
            k = i - at
            if k + 13 > n:  # read on, from the record if it starts in buf
                if seg is not None:
                    seg.update(mv[hashed - at:min(k, n)])
                at = hashed = at + min(k, n)
                n = store.read_at(at, buf)
                yield
                k = i - at
                if k:  # still in a long record's bytes
                    continue
                if n < 13:  # the journal's last bytes: too few to tell a kind
                    m = length(buf[:n], at)
                    if n < 4 or at + m > size:
                        return found, at, deal, trust, mark
                    i += m
                    c += 1
                    continue
            h, a, b = buf[k], buf[k + 1], buf[k + 2]
            if h != _CHAIN and h != _MAGIC and h != _OLD or buf[k + 3] != a ^ b ^ _CHK:
                length(buf, i, k)  # says which
            m = (a << 8 | b) + (12 if h == _CHAIN else 8 if h == _MAGIC else 6)
            if i + m > size:
                return found, i, deal, trust, mark
            h = buf[k + 11]  # the kind, in {"k": "b" ...
            if h == 0x69 and i:  # an input, most of the records: nothing to note (the loop's fast path,
                k += m           # and the inputs after it in buf: 4,376 of piquet's 4,517 records;
                c += 1           # counted in buf, where each ends: m)
                lim, top = n - 13, end - at
                while k <= lim:
                    a, b = buf[k + 1], buf[k + 2]
                    m = k + (a << 8 | b) + 12
                    if buf[k + 11] != 0x69 or buf[k] != _CHAIN or buf[k + 3] != a ^ b ^ _CHK or m > top:
                        break
                    k = m
                    c += 1
                i = at + k
                continue
            if not i and p is not None:
                h = 0x68  # a chain's first record: its head, whatever it says
            if h == 0x62 or h == 0x64:
                kind = buf[k + 4:k + 13]
                if kind == BEGIN:
                    found.append(i)
                    deal, mark = None, last
                elif kind == b'{"k": "d"':  # a deal's end
                    deal = i
            elif h == 0x7A and p is None:
                last = (i, c)
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
                    # (seg None: the seal the walk began at, its segment hashed once playing: Rest)
                    chain.claim = sealed(seg, whole, c, i) or getattr(chain, "claim", None)  # type: ignore  (p: a chain)
                    seg, trust = sha256(tag), (i + m, tag, c + 1)
                hashed = i + m
            i += m
            c += 1
        return found, None, deal, trust, mark
    finally:
        store.close()


def load(journal, everything=True, keep_log=True, defer=False):
    """Read and check the journal, one record at a time; keep the last game (to resume)
    and where each game starts (JournalError if corrupt). Returns every game kept, or
    with everything=False (the board) only the last one: the others stay in flash, their
    framing walked. keep_log=False: the last game as its last deal left it (its state then,
    the inputs since), its records before checked but not parsed. defer (the board's boot,
    a keyed journal): the segments before the last game's are not hashed now but once
    playing, a piece a loop turn (journal.rest, a Rest); the last game's are, from the seal
    before it (its tag checked)."""
    store = journal.store
    journal.starts, journal.frames, journal.torn, journal.claim, journal.rest = [], {}, 0, None, None
    recs = []
    first = 0
    deal = trust = None
    p = journal.pads
    if not everything:
        if defer and p is not None:
            found, torn, deal, trust, mark = starts(store)  # the framing, and the seal before the last game
            if mark is not None:
                _f, torn, deal, trust, _m = starts(store, journal, mark)
                journal.rest = Rest(journal)
            else:  # (no seal before it: its first game, checked whole from the head)
                _f, torn, deal, trust, _m = starts(store, journal)
        else:
            found, torn, deal, trust, _m = starts(store, journal if p is not None else None)
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
    if journal.claim is not None:  # the last seal's chain of custody, parsed (boot/custody.py)
        import json
        from .writer import CUSTODY
        journal.claim = dict(zip(CUSTODY, json.loads(journal.claim)))  # by name: gen, seq, tag, counter
    games = group(recs, None if everything else store) if recs else []
    journal.last = games[-1] if games else None
    if journal.last:
        journal.number = journal.last["number"]
        journal.name, journal.opts = journal.last["game"], journal.last["options"]
    if everything and len(journal.starts) > 1:
        return group([r for _o, r in records(store, chain=journal) if r is not None])
    return games


class Rest:
    """The journal's segments before its last game (load's defer), hashed and checked
    against their seals once playing: step() a piece (2 KB) a loop turn (main.py). A
    compaction (journal.starts a new list) moves the records: the walk begins again over
    what is left, up to the last game's first record then."""

    def __init__(self, journal):
        self.journal, self.starts, self.w = journal, None, None

    def step(self):
        """One piece more: True when all is checked; JournalError at a break."""
        j = self.journal
        if j.starts is not self.starts:
            self.starts = j.starts
            self.w = walk(j.store, j, None, j.starts[-1]) if j.starts else None
        if self.w is None:
            return True
        try:
            next(self.w)
            return False
        except StopIteration:
            self.w = None
            return True


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
