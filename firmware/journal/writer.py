# The recall journal's writer: append-only, on a store handed in (store.py), framed record
# by record (store.py has the format it shares with its readers), read back by resume.py at
# boot and played.py for recall. It keeps the last KEEP completed games and the unfinished
# one: for each game what it is (name and options) and the state it started from, as the
# game's own snapshot, then every input the rules applied with the events it caused
# (cards, actions, scores, settlements: the event log is the replay format), and after
# each deal's end the game's state (a board resumes from the last one: it replays one
# deal, not the game). With a device key the records are chained (each one's tag an HMAC
# over the one before) and sealed (the SHA-256 of each segment of records, before every
# game's first record and every deal's state), so that a board's boot checks the chain at
# the speed of SHA-256 (resume.starts).
import json
from binascii import hexlify
from hashlib import sha256

from ..compat import const, unload
from ..mac import derive, keyed, pads
from .store import JournalError, stream

_MAGIC = const(0x4B)  # store.py's (the record format)
_CHAIN = const(0x4C)
_CHK = const(0x5A)
_MAX = const(0xFFFF)
_CHANCE = const(-1)  # rules.CHANCE: the shoe's inputs
KEEP = const(10)
_GENERATOR = type((lambda: (yield))())
_SEAL = ("h", "m")  # a seal's fields in order, whatever order a port's dict keeps
CUSTODY = ("gen", "seq", "tag", "counter")  # a seal's "m" in order: journal.claim's names (resume.load)


def frame(rec, j=None):
    """A record's bytes; its kind always comes first ({"k": ...), whatever order the
    interpreter keeps a dict in, so a reader can tell a game's beginning from its head.
    j: a keyed journal, whose chain the record goes on (its head moves on to the record's tag)."""
    j = j or Journal(None)
    s = j.stream  # (free once the journal's records are written)
    n = j._frame(s, rec, 0)
    s.seek(0)
    return s.read(n)


class Journal:
    """The table's journal over a store, written on from where resume.load, which reads
    and checks it, leaves it (a new journal: from nothing).

    held=True (the board): records are held in memory and written together by flush(),
    at safe points, so flash is not erased for every input (littlefs rewrites a file's
    last block at each append). The controller acknowledges no frame while records are
    held (link.py `hold`): a power loss then loses only inputs that their devices still
    have and send again."""

    def __init__(self, store, keep=KEEP, held=False, key=None, device=""):
        """key: the device key (the records are chained under the journal's key derived
        from it), device: the device's id, which the chain's head names."""
        self.store = store
        self.pads = pads(derive(key, b"journal")) if key else None
        self.device = device
        self.head = bytes(8)  # the chain's head: the last record's tag
        self.seg = None  # the open segment's SHA-256 (a keyed journal's: the seals')
        self.fed = 0  # the records it has had
        self.keep = keep
        self.holding = held
        # the stream records are framed on, made at boot and kept: at a game's end a record
        # is 1.1-1.3 KB, a block a board's fragmented heap may no longer have
        self.stream = stream()
        self.held = b""  # records not written yet
        self.held_ms = 0  # when the oldest of them was made (the controller's clock)
        self.torn = 0  # bytes of an incomplete last record dropped at resume.load
        self.rest = None  # the segments resume.load left to check once playing (a resume.Rest)
        self.starts = []  # offsets of the games' first records
        self.size = 0
        self.number = 0  # the unfinished game's number
        self.count = 0  # the game's count of finished games when this journal game began
        self.deal = 0  # the game's count of finished deals at its last deal's end
        self.game = None  # the game journaled
        self.last = None
        self.frames = {}
        self.name, self.opts = None, None
        self.meters = None  # meters.py's, fed each record, committed once it is on the store
        # the chain of custody (docs/security.md): [meters generation, event log seq, its tag in
        # hex, counter] as the meters' last commit left them, carried by every seal ("m")
        self.custody = None
        self.claim = None  # the last seal's "m" read at boot (resume.starts)

    def last_frames(self):
        """{device address: the last frame sequence number an input came from}."""
        return self.frames

    def write(self, *recs):
        """Append records in one write (so a game's end and the next's beginning go
        together), framed in place on one stream and copied to the store in pieces: a
        record costs the heap one block of its size, not copies (on a board's fragmented
        heap, a free block of 1 KB may be missing while 30 KB are free). The stream: a
        native one on MicroPython, made with the journal and kept (1.5 KB held all session
        instead of a block of a game's first record, 1.1-1.3 KB, wanted at each game's end)."""
        s = self.stream
        n = 0
        if self.pads is not None and self.size == 0:  # a fresh chain: its head first
            n = self._frame(s, {"k": "h", "d": self.device, "p": []}, 0)
            self.seg = sha256(self.head)  # a segment's hash starts from the tag its first record chains from
        for rec in recs:
            k = rec["k"]
            seg = self.seg
            if seg is not None and self.fed and (k == "b" or k == "d"):  # what came before a game's or a deal's state: sealed
                z = {"k": "z", "h": hexlify(seg.digest()).decode()}
                if self.custody is not None:
                    z["m"] = self.custody
                n = self._frame(s, z, n)
                seg = self.seg = sha256(self.head)
                self.fed = 0
            if k == "b":
                self.starts.append(self.size + n)
            n = self._frame(s, rec, n, seg)
            self.fed += 1
        self.size += n
        if self.meters is not None:
            self.meters.saw(recs)
        if self.holding:
            s.seek(0)
            self.held += s.read(n)
        else:
            self.store.append_from(s, n)
            if self.meters is not None:
                self.meters.commit(self)

    def _pieces(self, s, at, n, seg):
        """The n bytes of the stream s from `at`, 128 at a time (small blocks), hashed into
        the segment's `seg` too if given."""
        s.seek(at)
        while n > 0:
            b = s.read(min(n, 128))
            n -= len(b)
            if seg is not None:
                seg.update(b)
            yield b

    def _frame(self, s, rec, at, seg=None):
        """Frame `rec` on the stream s at offset `at` (the keyed journal's chain moves on to
        its tag; the record goes into the segment's hash `seg` if given); returns the offset
        after it."""
        s.seek(at + 4)  # the payload, kind first, written by json.dump in pieces
        s.write('{"k": "%s"' % rec["k"])
        for key in _SEAL if rec["k"] == "z" else rec:  # (a seal's bytes as reader.sealed compares them)
            if key != "k" and key in rec:
                s.write(', "%s": ' % key)
                v = rec[key]
                if isinstance(v, _GENERATOR):  # a game's state (Rules.state), a field at a time
                    sep = "{"
                    for name, x in v:
                        s.write('%s"%s": ' % (sep, name))
                        json.dump(x, s)
                        sep = ", "
                    s.write("}" if sep == ", " else "{}")
                else:
                    json.dump(v, s)
        s.write("}")
        n = s.tell() - at - 4
        if n > _MAX:
            raise JournalError("a record of %d bytes is too long" % n)
        p = self.pads
        s.seek(at)
        s.write(bytes((_CHAIN if p is not None else _MAGIC, n >> 8, n & 255, (n >> 8) ^ (n & 255) ^ _CHK)))
        if p is not None:  # the board's: the tag over the record read back in pieces
            t = self.head = keyed(p, self.head, self._pieces(s, at, n + 4, seg))[:8]
            if seg is not None:
                seg.update(t)
        else:  # the host's unkeyed journals
            s.seek(at)
            t = sha256(s.read(n + 4)).digest()[:4]
        s.seek(at + 4 + n)
        s.write(t)
        return at + 4 + n + len(t)

    def flush(self):
        """Write the records held, in one append."""
        if self.held:
            out, self.held = self.held, b""
            self.store.append(out)
            if self.meters is not None:
                self.meters.commit(self)

    def begin(self, name, game):
        """A new game `name` begins, from its options (a fresh game: no state kept)."""
        self.game = game
        self.count = game.finished_games()
        self.deal = game.finished_deals()
        self.number += 1
        self.name, self.opts = name, game.options.snapshot()
        self.write({"k": "b", "g": name, "o": self.opts, "n": self.number, "s": None,
                    "c": self.count, "e": list(game.log)})

    def next_game(self, end):
        """The game journaled finished one of its games: close it (end), begin the next
        from the state it left, and compact."""
        game = self.game
        if game is None:
            raise JournalError("no game is being journaled")
        recs = [{"k": "e", "n": self.number}] if end else []
        self.number += 1
        self.count = game.finished_games()
        self.deal = game.finished_deals()
        # the devices' last frames go with it: after a power loss at the game's end the
        # board must still know them, or the frames its devices send again (they were
        # not acknowledged while held) would be applied a second time, in the new game
        recs.append({"k": "b", "g": self.name, "o": self.opts, "n": self.number,
                     "s": game.state(), "c": self.count, "e": [],
                     "f": list(self.frames.items())})
        self.write(*recs)
        unload("games.snapshot")  # needed at a game's end only (the state is written as it is read)
        self.flush()
        self.compact()

    def record(self, action, events, addr=None, seq=None, session=None):
        """One input applied: journal it; when it finished a game, close that one, begin
        the next from the state it left, and compact; at the first input of a player
        after a deal ended (the shoe not to act), journal the game's state then."""
        rec = {"k": "i", "a": action, "e": list(events)}
        if addr is not None:
            rec["f"] = [addr, seq] if session is None else [addr, seq, session]
            self.frames[addr] = (seq, session)
        self.write(rec)
        g = self.game
        if g is not None:
            if g.finished_games() != self.count:
                self.next_game(True)
            elif g.finished_deals() != self.deal and action[1] != _CHANCE != g.to_act:
                # a deal ended, a player acted and the shoe is not to deal (a power loss
                # during a deal's dealing voids it: boot.py looks for its beginning
                # after this record)
                self.deal = g.finished_deals()
                self.write({"k": "d", "s": g.state(), "f": list(self.frames.items())})
                unload("games.snapshot")

    def void(self, n, why):
        self.write({"k": "v", "n": n, "why": why})

    def compact(self):
        """Keep only the last `keep` completed games (and the unfinished one)."""
        if len(self.starts) <= self.keep + 1:
            return
        k = len(self.starts) - self.keep - 1
        cut = self.starts[k]
        m = self.meters  # its copies at the journal's end before its records move, and after
        if m is not None:
            m.commit(self, True)
        head = b""
        if self.pads is not None:  # a new head: where the first record kept chains from
            was = self.head
            self.head = bytes(8)
            head = frame({"k": "h", "d": self.device, "p": list(self.store.read_at(cut - 8, 8))}, self)
            self.head = was
        self.store.keep(cut, self.size, head)
        cut -= len(head)
        self.starts = [s - cut for s in self.starts[k:]]
        self.size -= cut
        if m is not None:
            m.commit(self, True)
