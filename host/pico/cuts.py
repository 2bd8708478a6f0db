# A power cut at a flash write of the emulated Pico (the real firmware on a stock MicroPython
# image, flashed as tapis flash flashes it), for the lab's sample (host/lab/memory.py) as
# simulator/cuts/cutsweep.py's rows: the cut falls on the chip's own flash operations (an erase or a program
# of littlefs's blocks, EmulatedPico.cut_power_at), right after one or torn in its middle, and
# the chip boots again from its flash as at power-on; the table's CPython mirror follows the
# resume (host/pico/table.py). Then the board's files, read off the chip, are checked as the lab
# reads them (simulator/cuts/cutvboard.check). tests/firmware/meters/test_meters_power_pico.py cuts so too.
import tempfile
from pathlib import Path

from tapis.simulator.cuts.cutvboard import check

FILES = ("journal.bin", "journal.meters.a", "journal.meters.b", "events.bin", "events.bad")


def flash_ops(t):
    """The chip's flash erases and programs so far."""
    f = t.pico.stats()["flash"]
    return f["erases"] + f["programs"]


def played(t, deals, at=0, torn=False):
    """`t` (a host.pico.table.PicoTable) plays `deals` deals, the power cut at its flash
    operation `at` after now (0: never), right after it or torn; then one deal more (after a
    cut, from the resume). The flash operations those deals made (before the cut, if cut)."""
    before = flash_ops(t)
    if at:
        t.pico.cut_power_at(at, torn)
    t.run_deals(deals)
    made = flash_ops(t) - before
    t.run_deals(deals + 1)
    return made


def read_files(t, to):
    """The board's critical memory (FILES) read off the chip into the folder `to` (the table
    stops at its REPL); (its device key, its device id)."""
    from tapis.host.pico import flash as picoflash
    key, ident = t.identity()
    for path, data in picoflash.get_files(t.pico, FILES).items():
        (to / path).write_bytes(data)
    return key, ident


def one(game, seed, deals, at, torn, image):
    """`deals` deals on the emulated Pico flashed from `image`, the power cut at its flash
    operation `at` after its boot (0: never), right after it or torn; one deal more after the
    resume; its files checked. (Its row, as cutsweep.one's; the flash operations it made
    before the cut, or in all when not cut.)"""
    from tapis.host.pico.table import PicoTable
    from tapis.simulator.pico.setup import PicoError

    row = {"game": game, "seed": seed, "write": at, "wrote": "flash" if at else None, "torn": torn,
           "resumed": False, "lost": 0, "agree": False, "why": "", "board": "pico"}
    made = 0
    try:
        with PicoTable(seed, game, image=image) as t, tempfile.TemporaryDirectory() as tmp:
            made = played(t, deals, at, torn)
            row["cut"] = bool(t.resumes)
            row["resumed"] = not at or bool(t.resumes)
            key, ident = read_files(t, Path(tmp))
            row.update(check(Path(tmp), game, seed, key, ident))
    except (PicoError, RuntimeError, AssertionError) as e:
        row["why"] = "%s: %s" % (type(e).__name__, e)
    return row, made


def sample(game, seed, deals, cuts, image, progress=None):
    """`cuts` rows (half of them torn), the cuts spread evenly over the flash operations of
    the run uncut; progress(n, total) after each. (The operations, the spacing, the rows.)"""
    _row, made = one(game, seed, deals, 0, False, image)
    every = max(1, made // max(1, cuts))
    rows = []
    for k in range(cuts):
        rows.append(one(game, seed, deals, 1 + k * every, k % 2 == 1, image)[0])
        if progress is not None:
            progress(len(rows), cuts)
    return made, every, rows
