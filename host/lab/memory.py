# The lab's critical memory (issue 47.4; issue 30.1, 30.8: GLI-11-style critical memory kept and checked,
# play resumed after a power loss with nothing lost): simulator/cuts/cutsweep.py's sweep, a run of
# deals on a table keeping its journal, its two meters copies and its event log as a board
# does, cut once at a write of any of them (right after it, and torn inside it), the board
# booted again from what its flash holds and the shoe a new one; the table must resume and
# finish, its meters equal the sums over its records, its event log's chain verify, nothing
# lock. On the CPython board for every game; on the MicroPython virtual board a sample
# (simulator/cutvboard.py: slower, fewer deals and cuts). The cuts are spread evenly over the run's writes
# (`every`-th write): every write of every game would take hours on this machine.
import json

from tapis.simulator.cuts import cutsweep

GAMES = ("club", "ecarte", "piquet")
SIZES = {  # the CPython board's run and cuts a game; the virtual board's (slower: a sample)
    "quick": {"deals": 2, "cuts": 4, "vboard_deals": 2, "vboard_cuts": 2, "vboard_games": ("club",)},
    "full": {"deals": 24, "cuts": 40, "vboard_deals": 6, "vboard_cuts": 6, "vboard_games": GAMES},
}


def units(quick):
    s = SIZES["quick" if quick else "full"]
    return len(GAMES) * s["cuts"] + len(s["vboard_games"]) * s["vboard_cuts"]


def _sweep(game, seed, deals, board, cuts, advance):
    writes = len(cutsweep.writes(game, seed, deals))  # (the CPython board's: the virtual board's are alike)
    every = max(1, (2 * writes) // max(1, cuts))  # each write cut twice: right after it and torn inside it
    done = [0]

    def progress(n, _total):
        advance(n - done[0])
        done[0] = n
    rows = cutsweep.sweep(game, seed, deals, board=board, torn=True, every=every, progress=progress)
    return writes, every, rows


def run(out, quick, seed, advance=lambda n=1: None):
    raw = out / "memory"
    raw.mkdir(parents=True, exist_ok=True)
    s = SIZES["quick" if quick else "full"]
    runs = [(game, "cpython", s["deals"], s["cuts"]) for game in GAMES]
    runs += [(game, "vboard", s["vboard_deals"], s["vboard_cuts"]) for game in s["vboard_games"]]
    table = []
    for game, board, deals, cuts in runs:
        writes, every, rows = _sweep(game, seed, deals, board, cuts, advance)
        with open(raw / ("sweep-%s-%s.jsonl" % (game, board)), "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
        ok = [r for r in rows if r["resumed"]]
        table.append({"game": game, "board": board, "deals": deals, "writes": writes, "every": every,
                      "cuts": len(rows), "resumed": len(ok), "lost": sum(r["lost"] for r in ok),
                      "meters_agree": all(r["agree"] for r in ok) and len(ok) == len(rows),
                      "by_file": _by_file(rows), "failures": [r for r in rows if not (r["resumed"] and r["agree"])][:5],
                      "pass": len(ok) == len(rows) and all(r["agree"] for r in rows)})
    return {"method": "simulator/cuts/cutsweep.py: a power cut at writes spread evenly over a run of %d deals (the CPython "
                      "board; the virtual board: %d deals, a sample), right after the write and torn inside it; the "
                      "board boots again from its flash, the shoe is a new one" % (s["deals"], s["vboard_deals"]),
            "rows": table, "pass": all(r["pass"] is not False for r in table)}


def _by_file(rows):
    out = {}
    for r in rows:
        k = r["wrote"] or "?"
        row = out.setdefault(k, {"cuts": 0, "resumed": 0})
        row["cuts"] += 1
        row["resumed"] += bool(r["resumed"] and r["agree"])
    return out
