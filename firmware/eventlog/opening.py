# The event log opened at boot (events.py's EventLog: walked whole, or a board's quick open
# from its last seal, the rest checked once play has begun), apart from events.py so that
# neither outgrows its budget; the board unloads it with the boot's modules (boot.unload,
# main.py after powerup.deferred's check). It imports nothing of events.py: it is handed the log.
from ..compat import const

_PATTERN = b'{"k": "s"'  # a seal's payload begins so (unescaped quotes: never inside a string)
_CHAIN = const(0x4C)  # events.py's: a keyed record's first byte,
_CHK = const(0x5A)  # and what its length's check is XORed with
_WINDOW = const(3072)  # the log's end searched for its last seal: what follows one is < events._SEAL


def _wanted(body):  # whether the boot must parse an entry: a tilt, a clear, a RAM clear
    return b'"l"' in body or b'"x"' in body or b"ram-clear" in body


def read(log, fast):
    """EventLog's open: its store read (fast: a keyed log from its last seal, quick), what it
    holds taken, a power cut's torn last write dropped (log.torn: its bytes), log.size."""
    store = log.store
    end = quick(log, _wanted) if fast and log.pads is not None else 0
    end = end or whole(log, _wanted)  # (a board's boot parses few)
    if end < store.size():  # a power cut in the last write: drop what it left
        log.torn = store.size() - end
        store.keep(0, end)
    log.size = end
    store.close()  # (the file read_at keeps open: not for the session)


def _framed(b, i):
    """The payload length of the keyed record whose header is at b[i], or -1 if it is none
    (events.py's framing: 4C, the length, its check)."""
    return b[i + 1] << 8 | b[i + 2] if b[i] == _CHAIN and b[i + 3] == b[i + 1] ^ b[i + 2] ^ _CHK else -1


def quick(log, wanted):
    """A keyed log opened from its last seal (a board's boot, issue 30's 2 s resume): the
    head's HMAC and its "g", the last seal found in the log's end and its HMAC (chained from
    the 8 bytes before it: no forger has the key), the log's state taken from it, and the
    records after it walked with their tags checked one by one, as EventLog's walk does
    (those `wanted` parsed, and the last).
    The segments before it stand unchecked until powerup.deferred(). Where the records end (0: a
    log too short, or one written before heads carried "g" and seals their state, is
    walked whole)."""
    import json
    from ..mac import keyed
    from ..journal.store import JournalError
    st, p, size = log.store, log.pads, log.store.size()
    if size <= _WINDOW:
        return 0  # (its walk is as quick)
    blk = [bytearray(512), 0, 0]
    n = _framed(log.piece(blk, 0, 4), 0)
    whole = log.piece(blk, 0, 12 + n) if n >= 0 else b""
    if n < 0 or keyed(p, bytes(8), whole[:4 + n])[:8] != whole[4 + n:]:
        return 0  # (the walk says why)
    head = json.loads(whole[4:4 + n])
    if "g" not in head:
        return 0
    base = size - _WINDOW
    buf = st.read_at(base, _WINDOW)
    k = len(buf)
    while True:
        k = buf.rfind(_PATTERN, 0, k)
        s = k - 4
        if s < 8:
            return 0  # (no seal in the window: one with many open tilts, or none)
        end = s + 12 + _framed(buf, s)
        if end >= s + 12 and end <= len(buf) and keyed(p, buf[s - 8:s], buf[s:end - 8])[:8] == buf[end - 8:end]:
            break
        k += len(_PATTERN) - 1  # (a torn seal, or the pattern by chance in a tag: the one before)
    seal = json.loads(buf[s + 4:end - 8])
    if "q" not in seal:
        return 0
    log.unit = head.get("u", log.unit)
    log.seq, log.open, log.cleared = seal["q"], list(seal["o"]), seal.get("r")
    log.count = log.seq - head["g"]
    chain, off = bytes(seal["p"]) if seal.get("p") else buf[end - 8:end], base + end  # (p: a join's, walk.compact)
    log.seg, log.unchecked = (off, chain), base + s
    last = [None]  # the last entry's offset, when it was not parsed

    def took(off, whole, n):  # (the records after the seal: fewer than a segment's)
        if off + 12 + n == size or wanted(whole[4:4 + n]):
            try:
                log.take(json.loads(whole[4:4 + n]))
            except (ValueError, KeyError, TypeError):
                raise JournalError("event log corrupt at byte %d: not its JSON" % off)
            last[0] = None
        else:
            log.count += 1
            last[0] = off
    off, chain = tail(log, blk, off, chain, size, took)
    log.head = chain
    _seq(log, last[0])
    return off


def tail(log, blk, off, chain, stop, took=None):
    """The records from off to stop, those after the head or the last seal (chained from
    `chain`), their tags checked one by one as no seal covers them yet (blk: the walk's
    block); took(off, whole, n) with each. Where the last whole one ends (a torn record
    after it) and the tag the next record chains from."""
    from ..mac import keyed
    from ..journal.store import JournalError
    while off + 4 <= stop:
        n = _framed(log.piece(blk, off, 4), 0)
        if n >= 0 and off + 12 + n > stop:
            break  # torn
        whole = log.piece(blk, off, 12 + n) if n >= 0 else None
        if whole is None or keyed(log.pads, chain, whole[:4 + n])[:8] != whole[4 + n:]:
            raise JournalError("event log corrupt at byte %d: %s" % (off, "its tag is wrong" if whole else "not a record"))
        if took is not None:
            took(off, whole, n)
        off, chain = off + 12 + n, whole[4 + n:]
    return off, chain


def whole(log, wanted):
    """EventLog's open walked from the head, every record checked (EventLog.walk: only those
    `wanted` parsed); where the last whole record ends. The last entry's seq is read from it
    when it was not parsed (a seal written after it, or a torn record)."""
    ends, last = [0], None
    for off, rec in log.walk(True, ends, wanted):
        if rec is None:
            log.count += 1
            last = off
        else:
            log.take(rec)
            last = None if rec["k"] == "e" else last
    _seq(log, last)
    return ends[0]


def _seq(log, last):
    """The log's seq from its last entry (at `last`) when that one was not parsed."""
    if last is not None:
        import json
        h = log.store.read_at(last, 4)
        log.seq = json.loads(log.store.read_at(last + 4, h[1] << 8 | h[2]))["n"]
