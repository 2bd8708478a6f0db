# `tapis lab --out DIR [--quick] [--seeds FILE] [--workers N | --scheduler ADDRESS] [--seed S]
# [--image UF2] [--every-write] [--pico UF2] [--json] [--quiet]`: a gaming laboratory's submission pack (issue 47,
# docs/lab.md): the shuffle through NIST SP 800-22, dieharder and the card orders' tests; each
# game's math sheet, exact and through the firmware; critical memory swept; the software's
# identification. Writes the folder; prints the verdicts (or summary.json's object with --json).
# Exit 0 when every section passes, 1 when one fails, 2 on bad input.
import json
import os
import sys

from tapis.host import args as A


def register(sub):
    p = sub.add_parser("lab", help="a gaming laboratory's submission pack: shuffle, math sheet, memory, identity")
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write the pack to (made if missing)")
    p.add_argument("--quick", action="store_true", help="small sizes: the whole pack in about a minute")
    p.add_argument("--seeds", metavar="FILE", help="the lab's seeds for the seeded software check: one a line, "
                   "32 hex digits (default: three fresh ones, written to the pack)")
    p.add_argument("--workers", type=A.positive, help="worker processes (default 1)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the math sheet's deals on a Dask distributed scheduler")
    p.add_argument("--seed", type=A.seed, default=1, help="the pack's seed: its streams, shuffles and deals (default 1)")
    p.add_argument("--image", metavar="UF2", help="the product image to identify (default: tapis image build's, "
                   "from $TAPIS_MICROPYTHON_SRC; none in --quick)")
    p.add_argument("--every-write", action="store_true", help="critical memory: a power cut at every write of each "
                   "run, not a sample spread over them (forked from one run over --workers: docs/lab.md)")
    p.add_argument("--pico", metavar="UF2", default=os.environ.get("TAPIS_PICO_IMAGE") or None,
                   help="a stock MicroPython RPI_PICO image: a sample of the power cuts on the emulated Pico "
                   "running it (default $TAPIS_PICO_IMAGE; none: the section says so)")
    p.add_argument("--json", action="store_true", help="print summary.json's object (schema tapis.lab/1)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run, parser=p)


def check(args):
    """Refuse what cannot run, before anything runs (exit 2, one line)."""
    from pathlib import Path

    out = args.out
    if not out.strip():
        args.parser.error("--out: give a folder")
    if os.path.exists(out) and not os.path.isdir(out):
        args.parser.error("--out %s: not a folder" % out)
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        args.parser.error("--out %s: no folder %s to make it in" % (out, parent))
    if not os.access(out if os.path.isdir(out) else parent, os.W_OK):
        args.parser.error("--out %s: not writable" % out)
    A.check_backend(args)
    if args.image is not None:
        from tapis.host.image.uf2 import UF2Error, region

        try:
            with open(args.image, "rb") as f:
                region(f.read())
        except OSError as e:
            args.parser.error("--image %s: %s" % (args.image, e.strerror or e))
        except UF2Error as e:
            args.parser.error("--image %s: not a product image: %s" % (args.image, e))
    if args.pico is not None:
        from tapis.simulator.pico.setup import PicoError, image_path

        try:
            args.pico = str(image_path(args.pico))
        except PicoError as e:
            args.parser.error("--pico: %s" % e)
    for module in ("matplotlib", "scipy", "numpy"):
        import importlib.util

        if importlib.util.find_spec(module) is None:
            args.parser.error("tapis lab needs %s: pip install 'tapis-table[lab]'" % module)
    seeds = None
    if args.seeds is not None:
        from tapis.host.lab.identity import SeedsError, read_seeds

        try:
            seeds = read_seeds(args.seeds)
        except SeedsError as e:
            args.parser.error("--seeds: %s" % e)
    return Path(out), seeds


def run(args):
    from tapis.host import lab
    from tapis.host.progress import progress

    out, seeds = check(args)
    try:
        pico = None if args.quick else args.pico  # (--quick cuts no Pico: a cut run there takes a minute)
        with progress(lab.work(args.quick, args.seed, args.every_write, pico), "steps", args.quiet or args.json) as advance:
            summary = lab.run(out, args.quick, seeds, args.workers or 1, args.scheduler, args.seed, args.image, advance,
                              every_write=args.every_write, pico=pico)
    except (OSError, ValueError) as e:
        if args.scheduler is None or isinstance(e, AssertionError):
            raise
        sys.stderr.write("tapis lab: cannot use the scheduler %r: %s\n" % (args.scheduler, e))
        return 2
    if args.json:
        print(json.dumps(summary))
    else:
        print("Tapis lab pack in %s (%s, seed %d)" % (out, "quick" if args.quick else "full", args.seed))
        for k in lab.SECTIONS:
            v = summary[k]["pass"]
            print("  %-10s %s" % (k, "pass" if v else "not run" if v is None else "FAIL"))
        print("report: %s" % (out / "report.html"))
    return 0 if summary["pass"] else 1
