# The table's accounting meters, in critical memory (docs/protocol.md "Meters"): per seat
# (and per club tableau) wagered, won, lost, pushed and commission, and the table's deals,
# games, voids, house commission, banks laid and broken, supervisor overrides, power-ups
# and tilts by class; unsigned ints that roll over at 10^9. They are counted from the
# journal's records, the rules' events (where money moves), and kept in two copies beside
# the journal, each with its own check; each copy says the journal's size (and its last
# tag) it reflects, so that the journal is their log: the copies are written after the
# journal, never ahead of it, and brought up to its end from its records at boot and at
# every deal's boundary (a game's beginning, a deal's state, a void, a game's end), when
# they are compared, a bad one rebuilt from the good one, two bad a RAM error. This is what
# stays in the heap; tally.py does the work, loaded for it and unloaded after.
from .compat import unload
from .mac import derive


class MeterError(Exception):
    """Both copies of the meters are bad: a RAM error (the table stops)."""


def _stop(cls, detail):
    raise MeterError("%s error: %s" % (cls, detail))


class FileCopy:
    """A copy in a file (the board's, beside the journal): written whole to a temporary
    file, renamed over the last (a power cut leaves the old copy or the new, never half)."""

    def __init__(self, path):
        self.path = path

    def read(self):
        try:
            with open(self.path, "rb") as f:
                return f.read()
        except OSError:
            return b""

    def replace(self, b):
        import os
        with open(self.path + ".new", "wb") as f:
            f.write(b)
        os.rename(self.path + ".new", self.path)


def beside(journal_path):
    """The copies' paths beside a journal file: journal.bin -> journal.meters.a and .b."""
    p = journal_path[:-4] if journal_path.endswith(".bin") else journal_path
    return p + ".meters.a", p + ".meters.b"


def on_files(journal_path, key=None, on_event=None, on_tilt=None):
    """The meters of the journal at journal_path, their copies in files beside it."""
    a, b = beside(journal_path)
    return Meters(FileCopy(a), FileCopy(b), key, on_event, on_tilt)


class Meters:
    """A journal's meters (journal.meters): the journal tells them of each record it
    writes (saw) and commits them once the records are on its store."""

    def __init__(self, a, b, key=None, on_event=None, on_tilt=None):
        """a, b: the two copies (read() -> bytes, b"" if none; replace(bytes)); key: the
        device key; on_event(cls, detail): a copy rebuilt (default: kept in .events);
        on_tilt(cls, detail): both copies bad (default: MeterError, play stops)."""
        self.copies = (a, b)
        self.key = derive(key, b"meters") if key else None
        self.events = []
        self.on_event = on_event or self._keep
        self.on_tilt = on_tilt or _stop
        self.due = False  # a record at a deal's boundary was written since the last commit
        self.seats = 0  # the table's (boot.py)
        self.gen = 0  # the copies' generation as last written (0: none yet since boot)

    def _keep(self, cls, detail):
        self.events.append((cls, detail))

    def saw(self, recs):
        for rec in recs:
            if rec["k"] in ("b", "d", "v", "e"):
                self.due = True

    def commit(self, journal, force=False, power=False, tilt=None):
        """The copies brought up to the journal's end, when a deal's boundary was written
        since the last commit (or force: a boot, a compaction); power: a power-up counted;
        tilt: a tilt of that class (tally.TILTS)."""
        if self.due or force or power or tilt is not None:
            from .tally import commit
            commit(self, journal, power, tilt)
            unload("tally")
            self.due = False

    def tilt(self, cls, journal):
        """A tilt of class `cls` counted (the journal's records held are written first)."""
        journal.flush()
        self.commit(journal, tilt=cls)
