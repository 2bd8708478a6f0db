# Every game resumes from every state on the MicroPython virtual board (simulator/cuts/sweep.py's
# sweep(board="vboard")): the unix port's board, its flash a directory (its journal, meters
# copies and event log files outlive the cut), with a cutter imported before the firmware
# (CUT): every write the board makes to its flash is counted (cut.n, and cut.w the file each
# was), and the one numbered in cut.at ("N" or "N t": torn, half its bytes) is the last:
# the board is dead from then on, and boots again from its flash. The shoe restarts
# holding no pack, as cutsweep's. tests/firmware/meters/test_meters_power_vboard.py cuts écarté so too.
import contextlib
import functools
from concurrent.futures import ProcessPoolExecutor
import tempfile
from pathlib import Path

from tapis.firmware.boot.build import resume
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.journal.resume import load
from tapis.firmware.journal.store import FileStore, JournalError
from tapis.firmware.journal.writer import Journal
from tapis.firmware.link.hello import TEST_KEY
from tapis.firmware.meters.holder import Meters
from tapis.firmware.meters.tally import beside
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.offboard.rng import source
from tapis.simulator.boards import vboard as V
from tapis.simulator.table.devices import EmuShoe
from tapis.simulator.cuts.metersums import compare, journal_records
from tapis.simulator.table.emulated import StalledTable
from tapis.simulator.boards.vtable import BoardError, BusBridge, VirtualBoardTable

DEVICE = "vboard"  # the virtual board's device id (its key: hello.TEST_KEY)
LIMIT_MS = 3000000

# Imported before the firmware (UNIX_MEASURE): every write the board makes to its flash
# goes through here, counted (cut.n, written outside the count); the one numbered in cut.at
# ("N" or "N t": torn, half its bytes) is the last: the board is dead from then on, every
# later write refused, and SystemExit ends the process (the host sees it exit: the cut).
CUT = b'''
import builtins, os, sys
_open, _os = builtins.open, os
try:
    with _open("cut.at") as f:
        AT = f.read().split()
    os.remove("cut.at")
except OSError:
    AT = []
at, torn = (int(AT[0]), len(AT) > 1) if AT else (0, False)
n = [0, False]

def _count(path=""):
    if n[1]:
        raise SystemExit(3)
    n[0] += 1
    with _open("cut.n", "w") as f:
        f.write(str(n[0]))
    with _open("cut.w", "a") as f:
        f.write(path + "\\n")
    return n[0] == at

def _die():
    n[1] = True
    raise SystemExit(3)

class _F:
    def __init__(self, f, path):
        self.f, self.path = f, path
    def write(self, b):
        if _count(self.path):
            self.f.write(b[:len(b) // 2] if torn else b)
            self.f.close()
            _die()
        return self.f.write(b)
    def close(self):
        self.f.close()
    def __enter__(self):
        return self
    def __exit__(self, *a):
        self.f.close()

def _opened(path, mode="r", *a):
    f = _open(path, mode, *a)
    return _F(f, path) if ("w" in mode or "a" in mode) else f

class _OS:
    def __getattr__(self, k):
        return getattr(_os, k)
    def rename(self, a, b):
        cut = _count(b)
        if not (cut and torn):
            _os.rename(a, b)
        if cut:
            _die()
    def remove(self, p):
        cut = _count(p)
        if not (cut and torn):
            _os.remove(p)
        if cut:
            _die()

builtins.open = _opened
sys.modules["os"] = _OS()
'''
class Bridge(BusBridge):
    """The bus bridge of a board that may die in a step: at its reboot the CPython mirror is
    the game the board's journal holds (the step it died in never answered: its input may
    be journaled or not)."""

    def _resume(self, events, now_ms):
        self.resumed = False
        self.game = self.sim.game = journal_game(self.sim)
        self.log = list(self.game.log)


class CutBoard(VirtualBoardTable):
    """The virtual board on the unix port, its flash laid here with the cutter beside the
    firmware and told where to cut (cut.at): a cut while it first boots is a reboot too."""

    def __init__(self, seed, at, torn=False, game="ecarte"):
        import tempfile
        self.disk = tempfile.TemporaryDirectory()
        self.seed, self.cuts, self.count = seed, 0, 0
        flash = Path(self.disk.name)
        for path, data in dict(V.firmware_image(), **{"cut.py": CUT}).items():
            (flash / path).parent.mkdir(parents=True, exist_ok=True)
            (flash / path).write_bytes(data)
        (flash / "cut.at").write_text("%d%s" % (at, " t" if torn else ""))
        VirtualBoardTable.__init__(self, seed, game, unix_heap=400 * 1024)

    def _controller(self):
        try:
            self.board = V.VirtualBoard(self.name, self.options, unix_heap=self.unix_heap, flash=self.disk)
        except BoardError:
            self.died()
            self.board = V.VirtualBoard(self.name, self.options, unix_heap=self.unix_heap, flash=self.disk)
        bridge = Bridge(self.board, self.wires, self.game)
        bridge.sim = self
        return bridge

    def died(self):
        assert not self.cuts, "cut twice"
        self.cuts += 1
        self.count = int((self.flash / "cut.n").read_text())

    @property
    def flash(self):
        return Path(self.disk.name)


def journal_game(vb):
    """The game the board's journal holds, as the board resumes it (the CPython mirror)."""
    j = Journal(MemoryStore((vb.flash / "journal.bin").read_bytes()), key=TEST_KEY, device=DEVICE)
    load(j, False, True)
    return resume(j, True)[0]


@contextlib.contextmanager
def cutter():
    """The board's boot imports the cutter (CUT) before anything else, while this lasts."""
    was = V.UNIX_MEASURE
    V.UNIX_MEASURE = was.replace("gc.collect()", "import cut\ngc.collect()", 1)
    try:
        yield
    finally:
        V.UNIX_MEASURE = was


def wrote(flash):
    """What each write the board made was (cut.w: the file's path): the journal, the
    meters (a copy written, or renamed over the last) or the event log."""
    p = flash / "cut.w"
    names = p.read_text().split("\n")[:-1] if p.exists() else []
    return ["meters" if ".meters." in n else "event log" if "events" in n else "journal" if "journal" in n else n
            for n in names]


def play(vb, deals):
    """vb on to `deals` deals finished, booted again (its shoe restarted) after its cut."""
    while vb.game.finished_deals() < deals:
        if vb.now > LIMIT_MS:
            raise StalledTable("not finished after %d ms" % LIMIT_MS)
        try:
            vb.step()
        except BoardError:
            vb.died()
            port = vb.shoe.link.port
            port.inbox.clear()
            vb.devices[0] = vb.shoe = EmuShoe(port, source(vb.seed * 1000 + vb.cuts), key=vb.key)
            vb.power_cycle()


def check(flash, game, seed, key=TEST_KEY, device=DEVICE):
    """The board's files (in the directory `flash`) read as the lab reads them: (lost: deals
    voided, agree, why); key and device: the board's (the virtual board's: the test key)."""
    data = (flash / "journal.bin").read_bytes()
    records, voided = journal_records(data, seed, key, device)
    j = Journal(FileStore(str(flash / "journal.bin")), key=key, device=device)
    load(j, False, False)
    diff = compare(Meters(*beside(str(flash / "journal.bin")), key=key), j, game, records, voided)
    out = {"lost": voided + sum(1 for r in records for law in r.get("laws", ()) if law[0] == "void"),
           "agree": not diff, "deals": sum(1 for r in records if "pending" not in r)}
    if diff:
        out["why"] = "meters differ from the sums: %r" % (diff,)
    try:
        log = EventLog(FileStore(str(flash / "events.bin")), key, device)
        if log.locked() or (flash / "events.bad").exists():
            out["agree"], out["why"] = False, "locked by %s, or the log set aside" % log.locked()
    except JournalError as e:
        out["agree"], out["why"] = False, "event log: %s" % e
    return out


def one(game, seed, deals, at, torn):
    """The run cut at the board's write `at` (0: never), torn or not: its row (cutsweep.one's),
    and what each write of the board was."""
    row = {"game": game, "seed": seed, "write": at, "wrote": None, "torn": torn, "resumed": False,
           "lost": 0, "agree": False, "why": "", "board": "vboard"}
    with cutter(), CutBoard(seed, at, torn, game) as vb:
        try:
            play(vb, deals)
            row["resumed"] = True
            row.update(check(vb.flash, game, seed))
        except (StalledTable, JournalError, BoardError) as e:
            row["why"] = "%s: %s" % (type(e).__name__, e)
        row["cut"] = bool(vb.cuts)
        what = wrote(vb.flash)
    vb.disk.cleanup()
    if at:
        row["wrote"] = what[at - 1] if len(what) >= at else None
    return row, what


def row(game, seed, deals, at, torn):
    """one()'s row alone (what a worker process hands back)."""
    return one(game, seed, deals, at, torn)[0]


def sweep(game, seed, deals, torn=True, every=1, progress=None, workers=1):
    """sweep.sweep on the virtual board: each cut a run of its own from the seed (a board's
    process each), over `workers` processes; the rows in the writes' order."""
    what = one(game, seed, deals, 0, False)[1]
    cuts = [(at, t) for at in range(1, len(what) + 1, every) for t in ((False, True) if torn else (False,))]
    rows = []
    pool = ProcessPoolExecutor(workers) if workers > 1 and cuts else None
    cut = functools.partial(row, game, seed, deals)
    try:
        for r in (pool.map(cut, *zip(*cuts)) if pool is not None else (cut(a, t) for a, t in cuts)):
            rows.append(r)
            if progress is not None:
                progress(len(rows), len(cuts))
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return rows
