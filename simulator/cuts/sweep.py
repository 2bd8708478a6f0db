# The power-cut sweeps (issue 44.4, the lab's critical memory, issue 47.4): a cut at every write
# (every `every`-th) of a run, clean and torn, a row a cut (cutsweep.one's fields).
#
# On the CPython board the run is played once, and forked at each write it cuts (ForkFlash):
# the child's flash takes the cut at that write, the table boots again from it and plays on,
# its row goes back through a file, and the parent makes the write and goes on. Each cut
# then costs what is played after it, and not the run up to it again: run one by one from the
# seed, the 24-deal sweeps took 1.0-3.1 s a cut (piquet's 3,350 cuts some three hours); forked,
# 78 ms (écarté) and 174 ms (piquet) a cut on two workers (7 Dec). `workers`: children at once.
# On the MicroPython virtual board each cut is a board's process of its own (cutvboard.py).
import json
import os
import tempfile
import traceback

from tapis.firmware.journal.store import JournalError
from tapis.firmware.meters.holder import MeterError
from tapis.simulator.cuts.cutsweep import CutTable, Flash, check
from tapis.simulator.table.emulated import StalledTable


def sweep(game, seed, deals, board="cpython", torn=True, options=None, every=1, progress=None, workers=1):
    """A power cut at every `every`-th write of a run of `deals` deals from `seed`, right
    after it and (torn) torn inside it: the rows in the writes' order (write, wrote, torn,
    resumed, lost: the deals voided, agree: the meters equal the sums over the records, why);
    progress(n, total) as they come."""
    if board == "vboard":
        if options is not None:
            raise ValueError("the virtual board's sweep plays the game's default options")
        from tapis.simulator.cuts.cutvboard import sweep as on_vboard
        return on_vboard(game, seed, deals, torn, every, progress, workers)
    if board != "cpython":
        raise ValueError("board %r: cpython or vboard" % (board,))
    with tempfile.TemporaryDirectory() as out:
        f = ForkFlash(torn, every, max(1, workers), out, progress)
        t = None
        try:
            t = CutTable(game, seed, f, options)
            t.play(deals)
            if f.child:
                f.row.update(resumed=True, **check(t))
        except (StalledTable, JournalError, MeterError) as e:
            if not f.child:
                raise
            f.row["why"] = "%s: %s" % (type(e).__name__, e)
        except BaseException as e:  # (a bug the cut found: a row that says so, the sweep goes on)
            if not f.child:
                raise
            f.row["why"] = "%s: %s at %s" % (type(e).__name__, e, traceback.extract_tb(e.__traceback__)[-1][:3])
        if f.child:
            f.leave(t)
        f.wait(0)
        rows = [json.loads(open(os.path.join(out, n)).read()) for n in os.listdir(out)]
    rows.sort(key=lambda r: (r["write"], r["torn"]))
    if len(rows) != f.forked:
        raise RuntimeError("%d of the sweep's %d cuts gave no row" % (f.forked - len(rows), f.forked))
    for r in rows:
        r.update(game=game, seed=seed)
    return rows


class ForkFlash(Flash):
    """The uncut run's Flash: before each write it cuts, it forks a child a cut (clean, and
    torn), whose Flash takes the cut there (`child`, its `row`); the parent makes the write."""

    def __init__(self, torn, every, workers, out, progress):
        Flash.__init__(self)
        self.kinds, self.every, self.workers = (False, True) if torn else (False,), every, workers
        self.out, self.progress, self.running, self.forked, self.done = out, progress, [], 0, 0
        self.child, self.row = False, None

    def write(self, part, done, b, whole):
        n = self.writes + 1
        if not self.child and (n - 1) % self.every == 0:
            for torn in self.kinds:
                self.wait(self.workers - 1)
                self.forked += 1
                pid = os.fork()
                if pid == 0:
                    self._cut(n, torn, part.what)
                    break
                self.running.append(pid)
        Flash.write(self, part, done, b, whole)

    def _cut(self, n, torn, what):
        """This process is the child cut at write n."""
        self.child, self.at, self.torn, self.running = True, n, torn, []
        self.row = {"write": n, "wrote": what, "torn": torn, "resumed": False, "lost": 0, "agree": False, "why": ""}

    def leave(self, t):
        """The child's row written for the parent, and the child gone (never back into the
        caller: the parent's run goes on there)."""
        try:
            self.row["cut"] = bool(t is not None and t.cuts)
            with open(os.path.join(self.out, "%d-%d.json" % (self.at, self.torn)), "w") as f:
                f.write(json.dumps(self.row))
        finally:
            os._exit(0)

    def wait(self, most):
        """Until at most `most` children run, the oldest waited for first."""
        while len(self.running) > most:
            os.waitpid(self.running.pop(0), 0)
            self.done += 1
            if self.progress is not None:
                self.progress(self.done, None)
