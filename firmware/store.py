# Where the journal lives on a board: a file in flash (memstore.py keeps one in memory,
# for the host and the tests). The journal is handed its store, never builds it.


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
