# The lab's math sheet (issue 47.3; a GLI-11-style probability-and-accounting sheet: each wager's return,
# the hit frequencies, the house's take): every game and variant's exact side (exact.py),
# then the deals of the runs wagers.SIZES names through the whole stack (wagers.py), each
# figure's 95 % interval against the exact value, and the money the meters counted. Raw
# files: every deal record (JSONL, docs/records.md) and the merged meters of each run.
import json

from tapis.host.lab import exact, wagers


def run(out, quick, seed, workers=1, scheduler=None, advance=lambda n=1: None):
    raw = out / "mathsheet"
    raw.mkdir(parents=True, exist_ok=True)
    sheets = exact.every_sheet()
    (raw / "exact.json").write_text(json.dumps(sheets, indent=1))
    runs = []
    sizes = wagers.SIZES["quick" if quick else "full"]
    family = sum(len(exact.sheet(g, v)["figures"]) for g, v in sizes)
    for (game, variant), (deals, chunk) in sizes.items():
        name = "%s%s" % (game, "-" + variant if variant else "")
        with open(raw / ("records-%s.jsonl" % name), "w") as f:
            def keep(_k, records, f=f):
                for r in records:
                    f.write(json.dumps(r) + "\n")
            got = wagers.run_game(game, variant, deals, chunk, seed, workers, scheduler, advance, keep)
        sheet = exact.sheet(game, variant)
        rows = wagers.bracket(sheet, got, family)
        (raw / ("meters-%s.json" % name)).write_text(json.dumps(got["meters"], indent=1))
        runs.append({"game": game, "variant": variant, "deals": deals, "chunk": chunk, "backend": got["backend"],
                     "workers": got["workers"], "wall_seconds": got["wall_seconds"],
                     "deals_per_second": got["deals_per_second"], "chunks": got["chunks"],
                     "merge_agrees": got["merge_agrees"], "merge_differences": got["merge_differences"],
                     "figures": rows, "money": wagers.money(game, got["meters"]),
                     "pass": got["merge_agrees"] and all(r["brackets"] for r in rows)})
    return {"sheets": sheets, "runs": runs, "pass": all(r["pass"] for r in runs)}


def deals_total(quick):
    return sum(d for d, _c in wagers.SIZES["quick" if quick else "full"].values())
