# The lab's critical memory (issue 47.4; issue 30.1, 30.8: GLI-11-style critical memory kept and checked,
# play resumed after a power loss with nothing lost): simulator/cutsweep.py's sweep, a run of
# deals on a table keeping its journal, its two meters copies and its event log as a board
# does, cut once at a write of any of them (right after it, and torn inside it), the board
# booted again from what its flash holds and the shoe a new one; the table must resume and
# finish, its meters equal the sums over its records, its event log's chain verify, nothing
# lock. On the CPython board for every game; on the MicroPython virtual board where the
# sweep has it (simulator/cutvboard.py). The cuts are spread evenly over the run's writes
# (`every`-th write): every write of every game would take hours on this machine.
import importlib.util
import json

from tapis.simulator import cutsweep

GAMES = ("club", "ecarte", "piquet")
SIZES = {"quick": {"deals": 2, "cuts": 4, "vboard_cuts": 0}, "full": {"deals": 24, "cuts": 40, "vboard_cuts": 6}}


def units(quick):
    s = SIZES["quick" if quick else "full"]
    return len(GAMES) * (s["cuts"] + s["vboard_cuts"])


def has_vboard():
    return importlib.util.find_spec("tapis.simulator.cutvboard") is not None


def _sweep(game, seed, deals, board, cuts, advance):
    writes = len(cutsweep.writes(game, seed, deals))
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
    boards = [("cpython", s["cuts"])] + ([("vboard", s["vboard_cuts"])] if s["vboard_cuts"] else [])
    table = []
    for game in GAMES:
        for board, cuts in boards:
            if board == "vboard" and not has_vboard():
                table.append({"game": game, "board": board, "deals": s["deals"], "cuts": 0, "resumed": 0, "lost": 0,
                              "meters_agree": None, "pass": None,
                              "note": "simulator/cutvboard.py (the sweep on the virtual board) is not in this tree"})
                continue
            writes, every, rows = _sweep(game, seed, s["deals"], board, cuts, advance)
            with open(raw / ("sweep-%s-%s.jsonl" % (game, board)), "w") as f:
                for r in rows:
                    f.write(json.dumps(r) + "\n")
            ok = [r for r in rows if r["resumed"]]
            table.append({"game": game, "board": board, "deals": s["deals"], "writes": writes, "every": every,
                          "cuts": len(rows), "resumed": len(ok), "lost": sum(r["lost"] for r in ok),
                          "meters_agree": all(r["agree"] for r in ok) and len(ok) == len(rows),
                          "by_file": _by_file(rows), "failures": [r for r in rows if not (r["resumed"] and r["agree"])][:5],
                          "pass": len(ok) == len(rows) and all(r["agree"] for r in rows)})
    return {"method": "simulator/cutsweep.py: a power cut at every %s write of a run of %d deals, right after the "
                      "write and torn inside it; the board boots again from its flash, the shoe is a new one"
                      % ("sampled" if not quick else "sampled (quick)", s["deals"]),
            "rows": table, "pass": all(r["pass"] is not False for r in table)}


def _by_file(rows):
    out = {}
    for r in rows:
        k = r["wrote"] or "?"
        row = out.setdefault(k, {"cuts": 0, "resumed": 0})
        row["cuts"] += 1
        row["resumed"] += bool(r["resumed"] and r["agree"])
    return out
