# The recall journal: append-only, on a store handed in (store.py), framed record by
# record (below), read back by reader.py (at boot and for recall). It keeps the last KEEP
# completed games and the unfinished one: for each game what it is (name and options)
# and the state it started from, as the game's own snapshot, then every input the rules
# applied with the events it caused (cards, actions, scores, settlements: the event log
# is the replay format). A record (docs/protocol.md, "Journal"):
#
#   4A  LEN_HI LEN_LO  CHK  PAYLOAD (UTF-8 JSON, LEN bytes)  CRC_HI CRC_LO
#
# CHK = LEN_HI ^ LEN_LO ^ 0x5A guards the length; the CRC-16/CCITT-FALSE covers 4A..PAYLOAD.
# Any changed byte is detected and refused (JournalError). Only an incomplete last record,
# what a power loss during a write leaves, is reported as such, for the journal to drop.
#
# Payloads: {"k": "b", "g": game, "o": options, "n": number, "c": games finished, "s":
# state or null, "e": events, "f": [[address, [seq, session]], ...] the devices'
# last frames} begins a game; {"k": "i", "a": action, "e": events, "f":
# [address, seq]} is one input (from that frame); {"k": "v", "n": inputs voided, "why":
# text}; {"k": "e", "n": number} ends a game.
import json

from .compat import const, unload
from .frames import crc16

_MAGIC = const(0x4A)  # reader.py checks these
_CHK = const(0x5A)
_MAX = const(0xFFFF)
KEEP = const(10)


class JournalError(ValueError):
    """The journal is corrupt: the table refuses to resume from it."""


def frame(rec):
    """A record's bytes; its kind always comes first ({"k": ...), whatever order the
    interpreter keeps a dict in, so a reader can tell a game's beginning from its head."""
    rest = {}
    for key in rec:
        if key != "k":
            rest[key] = rec[key]
    body = ('{"k": "%s"' % rec["k"] + (", " + json.dumps(rest)[1:] if rest else "}")).encode()
    n = len(body)
    if n > _MAX:
        raise JournalError("a record of %d bytes is too long" % n)
    head = bytes((_MAGIC, n >> 8, n & 255, (n >> 8) ^ (n & 255) ^ _CHK))
    c = crc16(head + body, 0xFFFF)
    return head + body + bytes((c >> 8, c & 255))


class Journal:
    """The table's journal over a store. open() reads and checks it.

    held=True (the board): records are held in memory and written together by flush(),
    at safe points, so flash is not erased for every input (littlefs rewrites a file's
    last block at each append). The controller acknowledges no frame while records are
    held (link.py `hold`): a power loss then loses only inputs that their devices still
    have and send again."""

    def __init__(self, store, keep=KEEP, held=False):
        self.store = store
        self.keep = keep
        self.holding = held
        self.held = b""  # records not written yet
        self.held_ms = 0  # when the oldest of them was made (the controller's clock)
        self.flushes = 0
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
        from . import reader
        return reader.open(self, everything)

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
        if self.holding:
            self.held += out
        else:
            self.store.append(out)
            self.flushes += 1

    def flush(self):
        """Write the records held, in one append."""
        if self.held:
            out, self.held = self.held, b""
            self.store.append(out)
            self.flushes += 1

    def begin(self, name, game):
        """A new game `name` begins, from its options (a fresh game: no state kept)."""
        self.game = game
        self.count = game.finished_games()
        self.number += 1
        self.name, self.opts = name, game.options.snapshot()
        self._write({"k": "b", "g": name, "o": self.opts, "n": self.number, "s": None,
                     "c": self.count, "e": list(game.log)})

    def follow(self, game):
        """Resumed: go on journaling `game`, rebuilt from the last game journaled."""
        from .reader import follow
        follow(self, game)

    def next_game(self, end):
        """The game journaled finished one of its games: close it (end), begin the next
        from the state it left, and compact."""
        game = self.game
        if game is None:
            raise JournalError("no game is being journaled")
        recs = [{"k": "e", "n": self.number}] if end else []
        self.number += 1
        self.count = game.finished_games()
        # the devices' last frames go with it: after a power loss at the game's end the
        # board must still know them, or the frames its devices send again (they were
        # not acknowledged while held) would be applied a second time, in the new game
        recs.append({"k": "b", "g": self.name, "o": self.opts, "n": self.number,
                     "s": game.snapshot(), "c": self.count, "e": [],
                     "f": list(self.frames.items())})
        unload("snapshot")  # needed at a game's end only
        self._write(*recs)
        self.flush()
        self.compact()

    def record(self, action, events, addr=None, seq=None, session=None):
        """One input applied: journal it; when it finished a game, close that one, begin
        the next from the state it left, and compact."""
        rec = {"k": "i", "a": action, "e": list(events)}
        if addr is not None:
            rec["f"] = [addr, seq] if session is None else [addr, seq, session]
            self.frames[addr] = (seq, session)
        self._write(rec)
        if self.game is not None and self.game.finished_games() != self.count:
            self.next_game(True)

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
        from . import reader
        self.flush()
        return reader.games(self, last)
