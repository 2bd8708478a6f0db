# Where the journal lives on a board: a file in flash (memstore.py keeps one in memory,
# for the host and the tests). The journal is handed its store, never builds it.


class FileStore:
    """A journal file; replace() writes a new file and renames it over the old one."""

    def __init__(self, path):
        self.path = path

    def read(self):
        try:
            with open(self.path, "rb") as f:
                return f.read()
        except OSError:
            return b""

    def size(self):
        import os
        try:
            return os.stat(self.path)[6]
        except OSError:
            return 0

    def read_at(self, offset, n):
        with open(self.path, "rb") as f:
            f.seek(offset)
            return f.read(n)

    def keep(self, start, end):
        """Keep only bytes start..end, copied in small pieces (the board's heap is small)."""
        import os
        tmp = self.path + ".new"
        with open(self.path, "rb") as src:
            with open(tmp, "wb") as dst:
                src.seek(start)
                left = end - start
                while left > 0:
                    piece = src.read(min(512, left))
                    if not piece:
                        break
                    dst.write(piece)
                    left -= len(piece)
        os.rename(tmp, self.path)

    def append(self, b):
        with open(self.path, "ab") as f:
            f.write(b)

    def replace(self, b):
        import os
        tmp = self.path + ".new"
        with open(tmp, "wb") as f:
            f.write(b)
        os.rename(tmp, self.path)


