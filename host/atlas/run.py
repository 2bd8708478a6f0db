# `tapis odds ecarte --all [--out FILE.csv] [--workers K] [--limit N]`: the atlas (N: that
# many classes spread evenly, a quick look). For every
# distinct elder hand and turned card (host/atlas/classes.py: 37,380 classes standing for all
# 5,437,152 positions), the double-dummy odds over the 65,780 dealer hands, how many of those
# hold 0..5 trumps, and the seed-002 verdict (firmware/offboard/ecarte_verdict.py); one CSV row each,
# then a summary. Rows come back in class order whatever the workers, so any worker count
# writes the same file.
import csv

from tapis.host.atlas import classes as K
from tapis.host.atlas.row import COLUMNS, row

CHUNK = 400  # classes a task: small enough for a smooth bar, large enough to keep workers busy


def _rows(chunk):
    return [row(k) for k in chunk]


def compute(keys, workers=1, progress=None):
    """The rows of the given classes, in their order, on `workers` processes."""
    chunks = [keys[i:i + CHUNK] for i in range(0, len(keys), CHUNK)]
    out = []
    if workers == 1:
        results = map(_rows, chunks)
        pool = None
    else:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_deaf_to_ctrl_c)
        results = pool.imap(_rows, chunks)  # imap keeps the order of the chunks
    try:
        for i, rows in enumerate(results):
            out += rows
            if progress:
                progress(i + 1, len(chunks))
    except BaseException:  # Ctrl-C (the parent's alone): the workers stop now, none outlives it
        if pool is not None:
            pool.terminate()
            pool.join()
        raise
    if pool is not None:
        pool.close()
        pool.join()
    return out


def _deaf_to_ctrl_c():
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow({c: ("" if r[c] is None else r[c]) for c in COLUMNS})


def run(args):
    import json

    from tapis.host.atlas.summary import render, summarise
    from tapis.host.progress import progress
    from tapis.cython_core.twins import CORE

    out, workers = args.out or "ecarte-atlas.csv", args.workers or 1
    try:  # a table that cannot be written fails now, not after the run
        open(out, "a").close()
    except OSError as e:
        args.parser.error("--out %s: %s" % (out, e.strerror))
    keys = K.classes()
    if args.limit is not None and args.limit < len(keys):  # spread evenly, first and last in
        keys = [keys[i * (len(keys) - 1) // max(args.limit - 1, 1)] for i in range(args.limit)]
    with progress(len(keys), "classes", quiet=args.quiet) as advance:
        done = [0]

        def chunk_done(i, n):  # the chunks are CHUNK classes, the last one what is left
            now = min(i * CHUNK, len(keys))
            advance(now - done[0])
            done[0] = now

        rows = compute(keys, workers, chunk_done)
    write_csv(rows, out)
    report = summarise(rows, complete=len(keys) == K.CLASSES)
    report.update(schema="tapis.odds.ecarte.atlas/1", out=out, workers=workers, core=CORE)
    print(json.dumps(report) if args.json else render(report))
    return 0
