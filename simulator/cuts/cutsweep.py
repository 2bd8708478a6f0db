# Every game resumes from every state (issue 44.4): a run of a few dozen deals on a table
# that keeps its critical memory as a board does (the journal, the two meters copies and the
# event log, docs/certification.md), cut once at each of its writes, whichever it was, right
# after the write or torn inside it (half its bytes on the flash). After the cut the board
# boots again from what its flash holds, and the shoe, which lost its power too, is a new
# one holding no pack of the game's (a pack it can no longer trust: the laws void what it
# leaves imperfect and a fresh one is asked for); the panels and displays live on. The table
# must resume, finish the run, and its meters must equal the independent sums over its
# records (simulator/cuts/metersums.py), its event log's chain verify, and nothing lock.
#
#     sweep.sweep("club", 3, 24) -> [{"write": 17, "wrote": "meters", "torn": False, "resumed": True,
#                              "lost": 0, "agree": True, ...}, ...]
#
# The firmware on this process (boot.build, as tests/table_rig.py builds it); the sweeps
# themselves, here and on the MicroPython virtual board, are sweep.py's.

from tapis.firmware.boot.build import build
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.journal.store import JournalError
from tapis.firmware.journal.writer import Journal
from tapis.firmware.meters.holder import MeterError, Meters
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.offboard.rng import source
from tapis.simulator.table.devices import EmuShoe
from tapis.simulator.cuts.metersums import compare, journal_records
from tapis.simulator.table.emulated import EmulatedTable, StalledTable
from tapis.simulator.testkey import TEST_DEVICE, TEST_KEY

KEEP = 100  # the journal's games kept: every game of a sweep's run, so that all its records are read
LIMIT_MS = 3000000  # a run that has not finished by then has stalled (virtual ms)


class PowerCut(Exception):
    """The power went during (torn) or right after the write being made."""


class Flash:
    """The board's critical memory: the journal, the meters copies a and b, the event log,
    each a MemoryStore whose writes are counted together (`writes`, and `wrote`: what each
    was). at: the write the power goes at (1-based; None: never); torn: inside it, half of
    its bytes written."""

    def __init__(self, at=None, torn=False):
        self.at, self.torn, self.writes, self.wrote = at, torn, 0, []
        self.journal, self.events = Part(self, "journal"), Part(self, "event log")
        self.copies = (Part(self, "meters"), Part(self, "meters"))

    def write(self, part, done, b, whole):
        """Count the write of `b` to `part`; done(bytes): make it; whole: what a torn write
        leaves instead (a file rewritten whole is renamed over the last: torn, it is not)."""
        self.writes += 1
        self.wrote.append(part.what)
        if self.writes != self.at:
            done(b)
            return
        if not self.torn:
            done(b)
        elif whole is not None:
            whole(b[:len(b) // 2])
        raise PowerCut()


class Part(MemoryStore):
    """One file of the Flash: appended to (journal, event log), kept from (their compaction,
    written whole and renamed), or replaced (a meters copy, written whole and renamed)."""

    def __init__(self, flash, what):
        MemoryStore.__init__(self)
        self.flash, self.what = flash, what

    def append(self, b):
        self.flash.write(self, lambda x: MemoryStore.append(self, x), b, lambda x: MemoryStore.append(self, x))

    def replace(self, b):
        self.flash.write(self, lambda x: MemoryStore.replace(self, x), b, None)

    def keep(self, start, end, head=b""):
        if start == 0 and end == self.size() and not head:
            return MemoryStore.keep(self, start, end)  # (nothing to write)
        self.flash.write(self, lambda x: MemoryStore.keep(self, start, end, head), b"", None)


class CutTable(EmulatedTable):
    """The emulated table (its wires, consoles and bots) on a board whose critical memory is
    `flash`: built by boot.build from it, as a board boots, and again after each cut."""

    def __init__(self, game, seed, flash, options=None):
        self.flash, self.seed, self.cuts = flash, seed, 0
        EmulatedTable.__init__(self, seed, game, options)

    def _controller(self):
        for _addrs, end in self.wires:
            end.inbox.clear()  # what the board's UARTs had buffered is lost with the power
            if hasattr(end, "tx"):
                end.tx.clear()
        f = self.flash
        self.journal = Journal(f.journal, keep=KEEP, key=TEST_KEY, device=TEST_DEVICE)
        self.journal.meters = Meters(*f.copies, key=TEST_KEY)
        self.events = EventLog(f.events, TEST_KEY, TEST_DEVICE, clock=lambda: getattr(self, "now", 0), unit="ms")
        try:
            return EmulatedTable._controller(self)
        except PowerCut:  # the power went while it booted: it boots again
            self.restart_shoe()
            return self._controller()

    def restart_shoe(self):
        """The shoe lost its power too: a new one, holding no pack (a fresh one only when the
        table asks for one), what was on its wire lost."""
        self.cuts += 1
        port = self.shoe.link.port
        port.inbox.clear()
        self.devices[0] = self.shoe = EmuShoe(port, source(self.seed * 1000 + self.cuts), key=self.key)

    def go(self, ms):
        """`ms` milliseconds, each part stepped each ms; a cut in them: the board boots again."""
        for _ in range(ms):
            try:
                self.step()
            except PowerCut:
                self.restart_shoe()
                self.controller = self._controller()

    def play(self, deals):
        """On until `deals` deals are finished; StalledTable if no progress for a while."""
        while self.game.finished_deals() < deals:
            try:
                self.run(lambda g: g.finished_deals() >= deals)
            except PowerCut:
                self.restart_shoe()
                self.controller = self._controller()
            if self.now > LIMIT_MS:
                raise StalledTable("not finished after %d ms" % LIMIT_MS, self.controller.faults)
        self.journal.flush()


def writes(game, seed, deals, options=None):
    """What each write of the uncut run was (the journal, the meters, the event log), in order."""
    t = CutTable(game, seed, Flash(), options)
    t.play(deals)
    return list(t.flash.wrote)


def one(game, seed, deals, at, torn, options=None):
    """The run cut at write `at` (torn or not): its row."""
    f = Flash(at, torn)
    row = {"game": game, "seed": seed, "write": at, "wrote": None, "torn": torn, "resumed": False,
           "lost": 0, "agree": False, "why": ""}
    t = None
    try:
        t = CutTable(game, seed, f, options)
        t.play(deals)
        row["resumed"] = True
    except (StalledTable, JournalError, MeterError) as e:
        row["why"] = "%s: %s" % (type(e).__name__, e)
    except Exception as e:  # (a bug the cut found: a row that says so, the sweep goes on)
        import traceback
        row["why"] = "%s: %s at %s" % (type(e).__name__, e, traceback.extract_tb(e.__traceback__)[-1][:3])
    row["wrote"] = f.wrote[at - 1] if len(f.wrote) >= at else None
    row["cut"] = bool(t is not None and t.cuts)
    if row["resumed"]:
        row.update(check(t))
    return row


def check(t):
    """The table's flash read as the lab reads it: the meters against the sums over the
    records of every game its journal holds, the event log's chain, no open tilt."""
    f = t.flash
    records, voided = journal_records(f.journal.read(), t.seed, TEST_KEY, TEST_DEVICE)
    j = Journal(MemoryStore(f.journal.read()), key=TEST_KEY, device=TEST_DEVICE)
    from tapis.firmware.journal.resume import load
    load(j, False, False)
    m = Meters(MemoryStore(f.copies[0].read()), MemoryStore(f.copies[1].read()), key=TEST_KEY)
    diff = compare(m, j, t.name, records, voided)
    out = {"lost": voided + sum(1 for r in records for law in r.get("laws", ()) if law[0] == "void"),
           "agree": not diff, "deals": sum(1 for r in records if "pending" not in r)}
    if diff:
        out["why"] = "meters differ from the sums: %r" % (diff,)
    try:
        log = EventLog(MemoryStore(f.events.read()), TEST_KEY, TEST_DEVICE)
        if log.locked():
            out["agree"], out["why"] = False, "locked by %s" % ", ".join(log.locked())
    except JournalError as e:
        out["agree"], out["why"] = False, "event log: %s" % e
    return out
