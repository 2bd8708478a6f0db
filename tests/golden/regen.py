# The golden games (issue 33.2, docs/records.md "Golden games"): for every game and each of
# its variants, whole games played by `tapis table` on seeds SEEDS, their deal records kept
# in tests/golden/<game>[-<variant>].jsonl, one record a line, exactly as `tapis table --json`
# prints them. tests/firmware/games/test_golden.py plays them again (on both twins, and a few deals on the
# MicroPython virtual board) and replays each record: a change in any rule shows up there.
#
# When a rule is meant to change, regenerate them, from the checkout's root:
#     .venv/bin/python tests/golden/regen.py            # every file; or name some: ecarte-pool
#     .venv/bin/python tests/golden/regen.py --check    # only say what differs (exit 1 if any)
# It says, record by record, which keys changed; `git diff --word-diff` then shows how.
import argparse
import difflib
import io
import json
import os
import sys
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SEEDS = (1, 2)  # each a whole game (the default of tapis table): 3 to 11 deals
# the MicroPython virtual board's share: the first deal of seed 1, plain, of each game (about
# 3 s each: the firmware under the webassembly port is slow)
MICROPYTHON = (("ecarte", None), ("piquet", None), ("club", None))
MISSING = object()


def cases():
    """[(game, variant)]: every game, plain (variant None) and under each of its variants."""
    import importlib
    from tapis.firmware.games import GAMES
    out = []
    for game in GAMES:
        variants = importlib.import_module("tapis.firmware.offboard.variants.%s" % game).VARIANTS
        out += [(game, None)] + [(game, v) for v in variants]
    return out


def name(game, variant):
    return game if variant is None else "%s-%s" % (game, variant)


def path(game, variant):
    return os.path.join(HERE, name(game, variant) + ".jsonl")


def play(game, variant, seed, deals=None, board="cpython"):
    """The text `tapis table --game G [--variant V] --seed S --json [--deals N] [--board B]`
    prints, run in this process (the twins this process chose: TAPIS_PURE)."""
    from tapis.host import cli
    argv = ["table", "--game", game, "--seed", str(seed), "--json", "--quiet", "--board", board]
    argv += ["--variant", variant] if variant else []
    argv += ["--deals", str(deals)] if deals else []
    out = io.StringIO()
    with redirect_stdout(out):
        rc = cli.main(argv)
    if rc:
        raise RuntimeError("tapis %s exited %s" % (" ".join(argv), rc))
    return out.getvalue()


def generate(game, variant):
    """A golden file's text: the whole games of SEEDS, one after the other."""
    return "".join(play(game, variant, seed) for seed in SEEDS)


def changes(old, new):
    """What differs between two golden texts, as lines: for each record (by seed and deal)
    the keys whose values changed, and the records only one of them has."""
    def keyed(text):
        out = {}
        for line in text.splitlines():
            r = json.loads(line)
            out[(r["seed"], r["deal"])] = r
        return out
    a, b = keyed(old), keyed(new)
    lines = []
    for k in sorted(set(a) | set(b)):
        if k not in b:
            lines.append("  seed %d deal %d: gone" % k)
        elif k not in a:
            lines.append("  seed %d deal %d: new" % k)
        else:
            keys = list(a[k]) + [x for x in b[k] if x not in a[k]]
            diff = [x for x in keys if a[k].get(x, MISSING) != b[k].get(x, MISSING)]
            if diff:
                lines.append("  seed %d deal %d: %s" % (k + (", ".join(diff),)))
            elif list(a[k]) != list(b[k]):
                lines.append("  seed %d deal %d: the keys' order" % k)
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(prog="tests/golden/regen.py", description="Regenerate the golden games.")
    p.add_argument("names", nargs="*", help="which files (e.g. ecarte, club-big-bank); default all")
    p.add_argument("--check", action="store_true", help="write nothing: say what differs, exit 1 if any")
    args = p.parse_args(argv)
    every = {name(g, v): (g, v) for g, v in cases()}
    unknown = [n for n in args.names if n not in every]
    if unknown:
        p.error("no golden file %s (there are: %s)" % (", ".join(unknown), ", ".join(every)))
    differ = 0
    for n in args.names or list(every):
        g, v = every[n]
        new = generate(g, v)
        try:
            with open(path(g, v)) as f:
                old = f.read()
        except FileNotFoundError:
            old = ""
        if old == new:
            continue
        differ += 1
        print("%s.jsonl: %s" % (n, "new" if not old else "changed"))
        for line in changes(old, new) if old else []:
            print(line)
        if not args.check:
            with open(path(g, v), "w") as f:
                f.write(new)
    print("%d of %d golden files %s" % (differ, len(args.names or every),
                                        "differ" if args.check else "written"))
    return 1 if args.check and differ else 0


if __name__ == "__main__":
    sys.path.insert(0, ROOT)  # the checkout's tapis, run as a script from anywhere
    os.chdir(ROOT)
    sys.exit(main())
