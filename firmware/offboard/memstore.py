# A journal store in memory, with the file store's interface (journal/store.py), and journal
# bytes parsed through it: for the host's tools and the tests; the board keeps its journal in a file.
from ..journal.reader import records


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



def parse(data, chain=None):
    """(records, offsets, torn bytes) of journal bytes; JournalError on any corruption.
    chain: a keyed journal whose key and device the records must chain under."""
    recs, offs = [], []
    for off, rec in records(MemoryStore(data), chain=chain):
        if rec is None:
            return recs, offs, len(data) - off
        recs.append(rec)
        offs.append(off)
    return recs, offs, 0
