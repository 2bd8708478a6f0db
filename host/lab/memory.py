# The lab's critical memory (issue 47.4; issue 30.1, 30.8: GLI-11-style critical memory kept and checked,
# play resumed after a power loss with nothing lost): simulator/cuts/sweep.py's sweep, a run of
# deals on a table keeping its journal, its two meters copies and its event log as a board
# does, cut once at a write of any of them (right after it, and torn inside it), the board
# booted again from what its flash holds and the shoe a new one; the table must resume and
# finish, its meters equal the sums over its records, its event log's chain verify, nothing
# lock. On the CPython board for every game; on the MicroPython virtual board
# (simulator/cuts/cutvboard.py: fewer deals) and, given a stock MicroPython image, on the emulated
# Pico (host/pico/cuts.py: its own flash operations cut, fewer still). By default the
# cuts are spread evenly over the run's writes (the `every`-th write); every_write cuts at
# every one of them, forked from one run over the lab's workers (docs/lab.md).
import functools
import json

from tapis.simulator.cuts import cutsweep
from tapis.simulator.cuts.sweep import sweep

GAMES = ("club", "ecarte", "piquet")
SIZES = {  # the CPython board's run and cuts a game; the virtual board's and the Pico's (slower: samples)
    "quick": {"deals": 2, "cuts": 4, "vboard_deals": 2, "vboard_cuts": 2, "vboard_games": ("club",),
              "pico_deals": 1, "pico_cuts": 0},
    "full": {"deals": 24, "cuts": 40, "vboard_deals": 6, "vboard_cuts": 6, "vboard_games": GAMES,
             "pico_deals": 2, "pico_cuts": 2},
}


@functools.lru_cache(maxsize=None)
def _writes(game, seed, deals):
    return len(cutsweep.writes(game, seed, deals))  # (the CPython board's: the virtual board's are alike)


def _runs(quick, every_write, pico):
    """(game, board, deals, cuts: None for every write) of the section."""
    s = SIZES["quick" if quick else "full"]
    runs = [(game, "cpython", s["deals"], None if every_write else s["cuts"]) for game in GAMES]
    runs += [(game, "vboard", s["vboard_deals"], None if every_write else s["vboard_cuts"])
             for game in s["vboard_games"]]
    if pico and s["pico_cuts"]:
        runs.append(("ecarte", "pico", s["pico_deals"], s["pico_cuts"]))
    return runs


def units(quick, seed=1, every_write=False, pico=None):
    """The cuts the section makes (the progress bar's units)."""
    return sum(2 * _writes(g, seed, d) if n is None else n for g, _b, d, n in _runs(quick, every_write, pico))


def _sweep(game, seed, deals, board, cuts, advance, workers, pico):
    done = [0]

    def progress(n, _total):
        advance(n - done[0])
        done[0] = n
    if board == "pico":
        from tapis.host.pico import cuts as cutpico
        return cutpico.sample(game, seed, deals, cuts, pico, progress)  # (its flash operations: its "writes")
    writes = _writes(game, seed, deals)
    every = 1 if cuts is None else max(1, (2 * writes) // max(1, cuts))  # each write cut twice: after it, torn inside
    rows = sweep(game, seed, deals, board=board, torn=True, every=every, progress=progress, workers=workers)
    return writes, every, rows


def run(out, quick, seed, advance=lambda n=1: None, workers=1, every_write=False, pico=None):
    """The section: its rows written to out/memory/, its summary. pico: a stock MicroPython
    RPI_PICO image for the emulated Pico's sample (None: none, said in the method)."""
    raw = out / "memory"
    raw.mkdir(parents=True, exist_ok=True)
    s = SIZES["quick" if quick else "full"]
    table = []
    for game, board, deals, cuts in _runs(quick, every_write, pico):
        writes, every, rows = _sweep(game, seed, deals, board, cuts, advance, workers, pico)
        with open(raw / ("sweep-%s-%s.jsonl" % (game, board)), "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
        ok = [r for r in rows if r["resumed"]]
        table.append({"game": game, "board": board, "deals": deals, "writes": writes, "every": every,
                      "cuts": len(rows), "resumed": len(ok), "lost": sum(r["lost"] for r in ok),
                      "meters_agree": all(r["agree"] for r in ok) and len(ok) == len(rows),
                      "by_file": _by_file(rows), "failures": [r for r in rows if not (r["resumed"] and r["agree"])][:5],
                      "pass": len(ok) == len(rows) and all(r["agree"] for r in rows)})
    how = "at every write" if every_write else "at writes spread evenly over"
    pico_said = ("; the emulated Pico (a stock MicroPython image): écarté, %d deals, %d cuts of its own flash "
                 "operations" % (s["pico_deals"], s["pico_cuts"]) if pico and s["pico_cuts"] else
                 "; no emulated Pico sample (no MicroPython RPI_PICO image given: --pico or $TAPIS_PICO_IMAGE)")
    return {"method": "simulator/cuts/sweep.py: a power cut %s a run of %d deals (the CPython board; the "
                      "virtual board: %d deals), right after the write and torn inside it; the board boots again "
                      "from its flash, the shoe is a new one%s" % (how, s["deals"], s["vboard_deals"], pico_said),
            "rows": table, "pass": all(r["pass"] is not False for r in table)}


def _by_file(rows):
    out = {}
    for r in rows:
        k = r["wrote"] or "?"
        row = out.setdefault(k, {"cuts": 0, "resumed": 0})
        row["cuts"] += 1
        row["resumed"] += bool(r["resumed"] and r["agree"])
    return out
