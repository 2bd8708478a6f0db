# The recall journal: append-only, on a store handed in (store.py), framed record by
# record (record.py). It keeps the last KEEP completed games and the unfinished one: for
# each game what it is (name and options) and the state it started from, as the game's
# own snapshot, then every input the rules applied with the events it caused (cards,
# actions, scores, settlements: the event log is the replay format).
from .compat import const
from .record import JournalError, frame, group, records  # noqa: F401  (JournalError: journal.JournalError)

KEEP = const(10)


class Journal:
    """The table's journal over a store. open() reads and checks it."""

    def __init__(self, store, keep=KEEP):
        self.store = store
        self.keep = keep
        self.torn = 0  # bytes of an incomplete last record dropped at open()
        self.starts = []  # offsets of the games' first records
        self.size = 0
        self.number = 0  # the unfinished game's number
        self.count = 0  # the game's count of finished games when this journal game began
        self.game = None  # the game journaled
        self.unfinished = None
        self.last = None
        self.frames = {}
        self.name, self.opts = None, None

    def open(self, everything=True):
        """Read and check the journal, one record at a time; keep the last game (to resume)
        and where each game starts (JournalError if corrupt). Returns every game kept, or
        with everything=False (the board) only the last one: the others stay in flash."""
        store = self.store
        self.starts, self.frames, self.torn = [], {}, 0
        recs = []
        for off, rec in records(store):
            if rec is None:  # a power loss during the last write: drop the incomplete record
                self.torn = store.size() - off
                store.keep(0, off)
                break
            if rec["k"] == "b":
                self.starts.append(off)
                recs = []
            elif not self.starts:
                raise JournalError("journal corrupt: a %r record before any game began"
                                   % rec["k"])
            recs.append(rec)
            if rec["k"] == "i" and rec.get("f"):
                self.frames[rec["f"][0]] = rec["f"][1]
        self.size = store.size()
        games = group(recs) if recs else []
        self.last = games[-1] if games else None
        self.unfinished = self.last if self.last and not self.last["done"] else None
        if self.last:
            self.number = self.last["number"]
            self.name, self.opts = self.last["game"], self.last["options"]
        if everything and len(self.starts) > 1:
            return group([r for _o, r in records(store) if r is not None])
        return games

    def last_frames(self):
        """{device address: the last frame sequence number an input came from}."""
        return self.frames

    def _write(self, *recs):
        """Append records in one write (so a game's end and the next's beginning go
        together)."""
        out = b""
        for rec in recs:
            b = frame(rec)
            if rec["k"] == "b":
                self.starts.append(self.size + len(out))
            out += b
        self.size += len(out)
        self.store.append(out)

    def begin(self, name, game):
        """A new game `name` begins, from its options (a fresh game: no state kept)."""
        self.game = game
        self.count = game.finished_games()
        self.number += 1
        self.name, self.opts = name, game.options.snapshot()
        self._write({"k": "b", "g": name, "o": self.opts, "n": self.number, "s": None,
                     "c": self.count, "e": list(game.log)})

    def follow(self, game):
        """Resumed: go on journaling `game`, rebuilt from the last game journaled. If the
        power went before that game's end (or the next one's beginning) was written,
        write them now."""
        self.game = game
        last = self.last
        if last is None:
            raise JournalError("an empty journal has nothing to resume")
        self.count = last["count"]
        if last["done"]:
            self._next(False)
        elif game.finished_games() != self.count:
            self._next(True)

    def _next(self, end):
        """The game journaled finished one of its games: close it (end), begin the next
        from the state it left, and compact."""
        game = self.game
        if game is None:
            raise JournalError("no game is being journaled")
        recs = [{"k": "e", "n": self.number}] if end else []
        self.number += 1
        self.count = game.finished_games()
        recs.append({"k": "b", "g": self.name, "o": self.opts, "n": self.number,
                     "s": game.snapshot(), "c": self.count, "e": []})
        self._write(*recs)
        self.compact()

    def record(self, action, events, addr=None, seq=None):
        """One input applied: journal it; when it finished a game, close that one, begin
        the next from the state it left, and compact."""
        rec = {"k": "i", "a": action, "e": list(events)}
        if addr is not None:
            rec["f"] = [addr, seq]
        self._write(rec)
        if self.game is not None and self.game.finished_games() != self.count:
            self._next(True)

    def void(self, n, why):
        self._write({"k": "v", "n": n, "why": why})

    def compact(self):
        """Keep only the last `keep` completed games (and the unfinished one)."""
        if len(self.starts) <= self.keep + 1:
            return
        cut = self.starts[len(self.starts) - self.keep - 1]
        self.store.keep(cut, self.size)
        self.starts = [s - cut for s in self.starts[len(self.starts) - self.keep - 1:]]
        self.size -= cut

    def games(self, last=KEEP):
        """The last `last` games (completed ones, then the unfinished) as JSON bytes each."""
        import json
        starts = self.starts
        if not starts:
            return []
        first = starts[max(0, len(starts) - last)]
        recs = [r for _o, r in records(self.store, first) if r is not None]
        return [json.dumps(g).encode() for g in group(recs)]
