# Where the journal lives on a board: a file in flash (memstore.py keeps one in memory,
# for the host and the tests). The journal is handed its store, never builds it.
#
# The journal's record format, which its writer (journal.py) and its readers (reader.py,
# played.py, resume.py) share through this module: neither side imports the other. A record
# (docs/protocol.md, "Journal records"):
#
#   4C  LEN_HI LEN_LO  CHK  PAYLOAD (UTF-8 JSON, LEN bytes)  TAG (8 bytes)
#
# CHK = LEN_HI ^ LEN_LO ^ 0x5A guards the length; TAG = the first 8 bytes of
# HMAC-SHA256(K, previous record's TAG + 4C..PAYLOAD), K = mac.derive(device key,
# b"journal"): the records are a chain under a key only the table and its host hold, so
# an edit, a deleted or moved record or game, or a record from another table breaks it
# (JournalError, naming the record). The chain starts at a head record {"k": "h", "d":
# the device's id, "p": [] or the TAG the record after it chains from, as a list of
# bytes}, tagged from 8 zero bytes: "p" [] on a fresh journal (the next record chains
# from the head's own tag); compaction writes a new head, which says where the first
# record kept chains from. Only an incomplete last record, what a power loss during a
# write leaves, is reported as such, for the journal to drop. Truncation at a record
# boundary leaves a sound chain: the host finds it against the last head it verified
# (tapis recall --verify).
#
# A keyed journal is also sealed, so that a board's boot checks it at the speed of SHA-256
# (C code), not of an HMAC a record: before every game's first record and every deal's
# state after the first record, a seal {"k": "z", "h": the SHA-256, in hex, of the tag the
# segment's first record chains from and every byte of its records} closes the segment
# since the last seal (or the head); the seal is a record of the chain like any other.
# The boot hashes every segment and checks each seal's tag, then the tags of the records
# after the last seal only (resume.starts); a board's boot (load's defer) those of its last
# game only, from the seal before it, and the segments before once playing (resume.Rest).
#
# Without a device key (host tools, old boards) records are of the unkeyed formats: 4B
# with a 4-byte SHA-256 sum instead of TAG, or 4A (the first format) with a CRC-16. A
# keyed journal refuses them (anyone can write those), and an unkeyed reader refuses 4C
# records.
#
# Payloads, their kind always first ({"k": ...), so that a reader tells them apart by their
# first bytes: {"k": "b", "g": game, "o": options, "n": number, "c": games finished, "s":
# state or null, "e": events, "f": [[address, [seq, session]], ...] the devices' last
# frames} begins a game; {"k": "i", "a": action, "e": events, "f": [address, seq]} is one
# input (from that frame); {"k": "d", "s": state, "f": frames} the state after a deal's end
# (not a game's: "b" has it), at a player's first input; {"k": "v", "n": inputs voided,
# "why": text}; {"k": "e", "n": number} ends a game; {"k": "s", "do": ..., "who": ...} the
# supervisor's and the operator's (recall, configuration); {"k": "z", "h": hex} seals the
# records before it (above).
#
# The first bytes' values (4A, 4B, 4C, 0x5A) are consts in each module that frames or
# walks records (a board's compiler inlines a module's own consts only, and the boot's walk
# is a tight loop); what both sides must share at run time, JournalError, is here, with the
# store the board keeps loaded anyway (a module of its own cost the board's heap 128 B).



class JournalError(ValueError):
    """The journal is corrupt: the table refuses to resume from it."""



class FileStore:
    """A journal file (what the board needs of a store: read_at, size, append, keep)."""

    # the watchdog's feed (main.py sets it): a compaction copies a whole journal, about 180 KB
    # at a full one's game end, 45 sector erases: at a slow chip's 400 ms an erase, 18 s
    feed = None

    def __init__(self, path):
        self.path = path
        self.f = None  # the file open for read_at, until close()

    def size(self):
        import os
        try:
            return os.stat(self.path)[6]
        except OSError:
            return 0

    def read_at(self, offset, n):
        """n bytes at offset, from a file kept open for the next (a walk over the records
        reads thousands: opening the file for each costs a millisecond on littlefs); n a
        bytearray: read into it, and return the count (no new object for the collector)."""
        f = self.f
        if f is None:
            f = self.f = open(self.path, "rb")
        f.seek(offset)
        return f.readinto(n) if isinstance(n, bytearray) else f.read(n)

    def close(self):
        """Close the file read_at keeps open (before the file is changed)."""
        if self.f is not None:
            self.f.close()
            self.f = None

    def keep(self, start, end, head=b""):
        """Keep only bytes start..end, after `head` (a keyed journal's new chain head),
        copied in small pieces (the board's heap is small), then renamed over the file
        in one step."""
        import os
        self.close()
        tmp = self.path + ".new"
        with open(self.path, "rb") as src:
            with open(tmp, "wb") as dst:
                dst.write(head)
                src.seek(start)
                left = end - start
                buf = bytearray(256)  # one small block for the whole copy
                piece = memoryview(buf)
                while left > 0:
                    n = src.readinto(buf)
                    if not n:
                        break
                    n = min(n, left)
                    dst.write(piece[:n])
                    left -= n
                    if self.feed is not None:
                        self.feed()
        os.rename(tmp, self.path)

    def append(self, b):
        self.close()
        with open(self.path, "ab") as f:
            f.write(b)

    def append_from(self, s, n):
        """Append the first n bytes of the stream s (the journal's records), in one open of
        the file, 128 bytes at a time (no copy of the records' size in the heap)."""
        self.close()
        s.seek(0)
        with open(self.path, "ab") as f:
            while n > 0:
                b = s.read(min(n, 128))
                f.write(b)
                n -= len(b)


def stream():
    """A stream to frame records on, room for a game's first record made at once (seek,
    write, tell, readinto, read; untyped: the MicroPython stubs' BytesIO has none of them)."""
    import io

    try:
        return getattr(io, "BytesIO")(1536)
    except TypeError:  # CPython, whose json.dump writes str, which a BytesIO refuses
        base = getattr(io, "BytesIO")

        class Text(base):
            def write(self, s):
                return base.write(self, s.encode() if isinstance(s, str) else s)
        return Text()
