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
from ..compat import unload
from ..mac import derive
from ..journal.store import JournalError as MeterError  # noqa: F401 (both copies bad: a RAM error, the
# table refuses to play as for a journal it cannot trust: main.py's halt; no class of its own
# in the heap)


class Meters:
    """A journal's meters (journal.meters): the journal tells them of each record it
    writes (saw) and commits them once the records are on its store."""

    def __init__(self, a, b, key=None, on_event=None, on_tilt=None):
        """a, b: the two copies, files (their paths: written whole, then renamed over the
        last) or objects with read() -> bytes (b"" if none) and replace(bytes); key: the
        device key; on_event(cls, detail): a copy rebuilt (None: kept in a list, .events);
        on_tilt(cls, detail): both copies bad (None: MeterError, play stops); a tilt is
        counted with commit(journal, tilt=cls)."""
        self.copies = (a, b)
        self.key = derive(key, b"meters") if key else None
        self.on_event, self.on_tilt = on_event, on_tilt
        self.events = []  # the copies rebuilt while on_event is None: (class, detail)
        self.due = False  # a record at a deal's boundary was written since the last commit
        self.seats = 0  # the table's (boot.py)
        self.gen = 0  # the copies' generation as last written (0: none yet since boot)
        self.ctrl = None  # the controller: its event log's last entry noted in the copies (boot.py)
        self.counter = None  # an off-flash monotonic counter (link/counter.py), bound into each copy
        self.floor = 0  # a generation the next commit writes above (custody.py: the copies rebound after a lock)

    def clear(self, journal):
        """A RAM clear (clears.py): every meter 0, from the journal's end."""
        from .tally import commit
        commit(self, journal, fresh=True)
        unload("meters.tally", "meters.layout")

    def saw(self, recs):
        for rec in recs:
            if rec["k"] in ("b", "d", "v", "e"):
                self.due = True

    def commit(self, journal, force=False, power=False, tilt=None):
        """The copies brought up to the journal's end, when a deal's boundary was written
        since the last commit (or force: a boot, a compaction); power: a power-up counted;
        tilt: a tilt of that class (tally.TILTS). The Tally written, None when not due."""
        if self.due or force or power or tilt is not None:
            if journal.held:  # its records first: the copies are never ahead of the journal
                journal.flush()
            from .tally import commit
            t = commit(self, journal, power, tilt)
            unload("meters.tally", "meters.layout")
            self.due = False
            return t
