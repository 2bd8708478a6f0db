# A journal's bytes read on the host (`tapis recall --journal`, host/commands/recall.py): its last
# games; a keyed journal (its records chained under the device's key, docs/protocol.md "Journal
# records") checked under the key the host keeps for the device it names (host/keys.py's
# key store); with --verify, that it still reaches the last head verified for that device,
# remembered beside the key (<device>.head), so a journal cut short is found.
import json

from tapis.firmware.journal.played import group
from tapis.firmware.offboard.memstore import parse
from tapis.firmware.journal.store import JournalError


def from_journal(data, last, torn=None, key_file=None, chain=None):
    """The last `last` games of journal bytes (JournalError if it is corrupt); `torn(n)` is told
    of the n bytes of a record a power loss cut short at the end (the journal reads on without).
    A keyed journal is checked under its device's key (key_file, else the key store's); chain:
    a dict that hears what the chain is (verify)."""
    if data[:1] == b"\x4c":
        info = chained(data, key_file)
        recs, cut = info.pop("records"), info["torn"]
        if chain is not None:
            chain.update(info)
    else:
        if chain is not None:
            raise JournalError("the journal is not chained (records of the unkeyed format): it cannot be verified")
        recs, _offs, cut = parse(data)
    if cut and torn:
        torn(cut)
    games = group(recs)
    return games[max(0, len(games) - last):]


def chained(data, key_file=None):
    """A keyed journal's records checked from its head under the key of the device the head
    names: {"records", "device", "tags" (each record's tag in hex, the head's first), "games"
    (the game each record is in, None for the head), "torn"}. JournalError names the first bad
    record (numbered from the head, 0); KeyError if the host has no key for the device."""
    from tapis.firmware.journal.writer import Journal
    from tapis.firmware.offboard.memstore import MemoryStore
    from tapis.firmware.journal.reader import records
    from tapis.host.errors import FlashError
    from tapis.host.keys import load_key

    n = (data[1] << 8 | data[2]) if len(data) > 3 else 0
    try:
        device = str(json.loads(data[4:4 + n])["d"])
    except (ValueError, KeyError, TypeError):
        raise JournalError("journal corrupt at record 0 (byte 0): its head is not readable")
    try:
        key = load_key(device, key_file)
    except FlashError as e:
        raise KeyError(str(e))
    j = Journal(MemoryStore(data), key=key, device=device)
    recs, offs, torn = [], [0], 0
    for off, rec in records(j.store, chain=j):
        if rec is None:
            torn = len(data) - off
            break
        recs.append(rec)
        offs.append(off)
    ends = offs[1:] + [len(data) - torn]
    games, g = [None], None
    for r in recs:
        g = r["n"] if r["k"] == "b" else g
        games.append(g)
    return {"records": recs, "device": device, "tags": [data[e - 8:e].hex() for e in ends], "games": games,
            "torn": torn}


def head_path(device, key_file=None):
    from tapis.host.keys import key_path
    return key_path(device, key_file).with_suffix(".head")


def check_head(chain, key_file=None):
    """(ok, text): does the chain still reach the last head verified for its device (its last
    record's tag, and the game that record was in)? Compaction drops whole games only: a head in
    a game the journal still holds must be in it. On ok the head moves on to the chain's last."""
    path = head_path(chain["device"], key_file)
    tags, games = chain["tags"], chain["games"]
    last = len(tags) - 1
    first = next((g for g in games if g is not None), None)
    try:
        was = json.loads(path.read_text())
        t, g = str(was["t"]), was["g"]
    except FileNotFoundError:
        t = g = None
    except (ValueError, KeyError, TypeError):
        return False, "%s is not a head this tool wrote: remove it to start afresh" % path
    note = ""
    if t is not None:
        if t in tags:
            note = ", reaching the head verified before (record %d)" % tags.index(t)
        elif g is not None and first is not None and first > g:
            note = ", compacted past the head verified before (game %d)" % g
        else:
            return False, ("the journal no longer reaches the head verified before (its last record then, in game "
                           "%s; the journal ends at record %d): truncated or rolled back" % (g, last))
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_text(json.dumps({"t": tags[last], "g": games[last]}) + "\n")
    return True, ("journal verified: records 0..%d chain under device %s's key%s; head now record %d"
                  % (last, chain["device"], note, last))
