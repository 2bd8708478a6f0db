# A journal store in memory, with the file store's interface (store.py): for the host's
# tools and the tests; the board keeps its journal in a file.
import io


class MemoryStore:
    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.writes = 0

    def read(self):
        return bytes(self.data)

    def size(self):
        return len(self.data)

    def read_at(self, offset, n):
        """n bytes at offset; n a bytearray: read into it, and return the count."""
        if isinstance(n, bytearray):
            got = self.data[offset:offset + len(n)]
            n[:len(got)] = got
            return len(got)
        return bytes(self.data[offset:offset + n])

    def close(self):
        pass

    def append(self, b):
        self.data.extend(b)
        self.writes += 1

    def replace(self, b):
        self.data = bytearray(b)

    def keep(self, start, end, head=b""):
        """Keep only bytes start..end, after `head` (compaction, a torn tail)."""
        self.data = bytearray(head) + self.data[start:end]


    def append_from(self, s, n):
        """Append the first n bytes of the stream s (the journal's records)."""
        s.seek(0)
        self.append(s.read(n))


class Text(io.BytesIO):
    """The journal's record stream on CPython (journal.py `_stream`), whose json.dump
    writes str, which a BytesIO refuses: the board's MicroPython writes to a native one."""

    def write(self, s):
        return getattr(io.BytesIO, "write")(self, s.encode() if isinstance(s, str) else s)
