# A journal opened at boot (load): read and checked, the last game kept to resume (on a
# board from its last deal's end, its inputs left in flash), where each game begins, the
# devices' last frames, and the writer (journal.py) set to write on from where the chain
# ends; then, the game rebuilt (boot.py), the writer told to go on journaling it (follow).
# The caller above both the writer and the readers (walk.py, reader.py, played.py), which
# import neither. Boot-time code: unloaded once the table is built.
from .played import group
from .reader import records
from .record import JournalError
from .walk import starts


def load(journal, everything=True, keep_log=True):
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
