# The journal's records as the games played: grouped (group), a game's inputs left in
# flash and read when replayed (Inputs: the board's resume), and the last games as JSON,
# what a RECALL answers (recall.py) and tapis recall shows. Recall- and boot-time code.
import json

from ..compat import const
from .reader import length, records
from .store import JournalError

_MAGIC = const(0x4B)  # store.py's (the record format)
_OLD = const(0x4A)


def tuples(v):
    """JSON lists back to the tuples they were (events and actions are tuples all the way)."""
    if isinstance(v, list):
        return tuple(tuples(x) for x in v)
    return v


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
        m = length(store.read_at(at, 4), at)
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
        at = isinstance(r, int)  # an input's offset: it stays in flash (Inputs)
        k = "i" if at else r["k"]
        if k == "b":
            g = {"game": r["g"], "options": r["o"], "number": r["n"], "state": r["s"],
                 "count": r.get("c", 0),
                 "events": [tuples(e) for e in r["e"]], "inputs": [] if store is None else Inputs(store),
                 "voided": [], "done": False, "supervised": []}
            games.append(g)
        elif g is None:
            raise JournalError("journal corrupt: a %r record before any game began" % k)
        elif at:
            g["inputs"].at.append(r)
        elif k == "i":
            g["inputs"].append(_input(r))
        elif k == "v":
            ins = g["inputs"]
            cut = len(ins) - r["n"]
            g["voided"].append({"why": r["why"], "inputs": ins[cut:]})
            del ins[cut:]
        elif k == "e":
            g["done"] = True
        elif k == "s":
            g["supervised"].append(r)
    return games


def recent(journal, last):
    """The journal's last `last` games (completed ones, then the unfinished) as group()
    games whose inputs stay in flash (Inputs: a whole game's records held parsed ran a
    Pico out of heap answering a pit's DEALS), its records held written first."""
    journal.flush()
    starts = journal.starts
    if not starts:
        return []
    first = starts[max(0, len(starts) - last)]
    recs = [o if r["k"] == "i" else r for o, r in (records(journal.store, 0, None, journal, first)
                                                   if journal.pads is not None else records(journal.store, first))
            if r is not None]
    return group(recs, journal.store)


def _pieces(v):
    """A game's JSON as text pieces, in order, its inputs read from flash one at a time."""
    if isinstance(v, dict):
        yield "{"
        sep = ""
        for k in v:
            yield sep + json.dumps(k) + ": "
            yield from _pieces(v[k])
            sep = ", "
        yield "}"
    elif isinstance(v, (list, tuple, Inputs)):
        yield "["
        sep = ""
        for x in v:
            yield sep
            yield from _pieces(x)
            sep = ", "
        yield "]"
    else:
        yield json.dumps(v)


def chunks(game, size):
    """(how many, the chunks): a group() game's JSON in bytes of `size` at most, made as
    they are sent: the whole text is never held (it is written twice: counted, then cut)."""
    n = sum(len(p.encode()) for p in _pieces(game))

    def cut():
        buf = b""
        for p in _pieces(game):
            buf += p.encode()
            while len(buf) >= size:
                yield buf[:size]
                buf = buf[size:]
        if buf:
            yield buf
    return (n + size - 1) // size, cut()
