# The soak's figures (issue 48.4, docs/reliability.md): each soak table of
# tests/simulator/table/test_soak.py writes a JSON line to $TAPIS_SOAK_FIGURES's file, and
# make soak sums them by kind, game and noise level at its end:
#     python tests/soak_figures.py build/soak.jsonl
# (apart from the tests, so that it runs as a script: nothing of theirs is imported).
import json
import os
import sys
import time


def figures(t, seen, tilted, wall, **what):
    """The table's soak figures, a JSON line to TAPIS_SOAK_FIGURES's file (make soak)."""
    path = os.environ.get("TAPIS_SOAK_FIGURES")
    if path:
        with open(path, "a") as f:
            f.write(json.dumps(dict(what, deals=t.game.finished_deals(), sessions=t.sessions,
                                    counted=sum(k for _ms, k in seen), tilts=tilted,
                                    table_s=round(t.now / 1000), wall_s=round(time.monotonic() - wall))) + "\n")


def summary(path):
    """The figures of a make soak, summed by kind, game and level."""
    rows = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            row = rows.setdefault((r["kind"], r["game"], r["level"]), [0] * 6)
            for i, v in enumerate((1, r["deals"], r["sessions"], r["counted"], len(r["tilts"]), r["wall_s"])):
                row[i] += v
    print("%-6s %-7s %-14s %6s %7s %9s %8s %6s %7s" % ("soak", "game", "level", "tables", "deals", "sessions",
                                                     "counted", "tilts", "wall s"))
    for (kind, game, level), row in sorted(rows.items()):
        print("%-6s %-7s %-14s %6d %7d %9d %8d %6d %7d" % ((kind, game, level) + tuple(row)))


if __name__ == "__main__":
    summary(sys.argv[1])
