# tapis lab: a gaming laboratory's submission pack in one command (issue 47, docs/lab.md).
# Sections, a module each: the shuffle (shuffle.py: NIST SP 800-22 in nist.py and
# nist_walks.py, dieharder.py, the card orders in orders.py), the math sheet (mathsheet.py:
# exact.py's figures, wagers.py's run through the firmware), critical memory (memory.py),
# software identification (identity.py); report.py and plots.py write the report. run()
# writes the folder: summary.json (schema tapis.lab/1), report.html and report.pdf with their
# figures, README.txt (how to rerun), and each section's raw files in a folder of its own.
import datetime
import json
import time

SCHEMA = "tapis.lab/1"
SECTIONS = ("shuffle", "mathsheet", "memory", "identity")


def work(quick, seed=1, every_write=False, pico=None):
    """The units of work the progress bar counts: NIST sequences, dieharder tests, shuffles,
    deals of the math sheet, memory runs."""
    from tapis.host.lab import dieharder, mathsheet, memory, shuffle

    size = shuffle.SIZES["quick" if quick else "full"]
    tests = len(dieharder.QUICK if quick else dieharder.TESTS) if dieharder.available() else 0
    return (size["sequences"] + tests + 2 * size["shuffles"] + mathsheet.deals_total(quick)
            + memory.units(quick, seed, every_write, pico))


def run(out, quick=False, seeds=None, workers=1, scheduler=None, seed=1, image=None, advance=lambda n=1: None,
        every_write=False, pico=None):
    """The pack, written to the folder `out` (a pathlib.Path, made if missing): its summary.
    every_write: the power cuts at every write (memory.py); pico: a stock MicroPython image
    for the emulated Pico's sample of them."""
    import numpy as np

    import tapis
    from tapis.host.lab import identity, mathsheet, memory, orders, report, shuffle

    out.mkdir(parents=True, exist_ok=True)
    summary = {"schema": SCHEMA, "version": tapis.__version__, "seed": seed, "quick": quick,
               "made": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
               "workers": workers if not scheduler else None, "scheduler": scheduler}
    clock = time.perf_counter()

    def timed(name, part):
        nonlocal clock
        part["seconds"] = round(time.perf_counter() - clock, 1)
        clock = time.perf_counter()
        summary[name] = part

    timed("shuffle", shuffle.run(out, quick, workers, seed, advance))
    timed("mathsheet", mathsheet.run(out, quick, seed, workers, scheduler, advance))
    timed("memory", memory.run(out, quick, seed, advance, workers=workers, every_write=every_write, pico=pico))
    ident = identity.run(out, seeds or identity.fresh_seeds(), image, quick)
    ident["pass"] = bool(ident["boards"][0]["answers"])  # the files board at least; a missing product image is said
    timed("identity", ident)
    summary["pass"] = all(summary[k]["pass"] is not False for k in SECTIONS)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    raw = (out / "shuffle" / "orders-32.bin").read_bytes()
    cells = orders.tally(np.frombuffer(raw, dtype=np.uint8).reshape(-1, 32).astype(np.int16))[0] if raw else None
    report.write(out, summary, cells)
    (out / "README.txt").write_text(README % {"seed": seed, "quick": " --quick" if quick else ""})
    return summary


README = """Tapis lab pack (docs/lab.md says what each section shows and which paragraph it answers).

Rerun the whole pack:       tapis lab --out DIR --seed %(seed)d%(quick)s [--seeds shuffle/../identity/seeds.txt]
summary.json                every figure (schema tapis.lab/1, docs/schemas/tapis.lab-1.json)
report.html, report.pdf     the tables and figures
shuffle/bits.bin            the generator's raw bits NIST SP 800-22 read (Seeded's 32-bit words, big-endian)
shuffle/nist-p-values.csv   every P-value of every sequence
shuffle/dieharder.txt       dieharder's output; each test's command line rereads its stream:
                            python -m tapis.host.lab.dieharder SEED TEST | dieharder -g 200 -d TEST -p PSAMPLES
shuffle/orders-32.bin, orders-104.bin   the card orders: a byte a card (its place in the fresh pack), a row a shuffle
shuffle/orders.json         the card orders' tests, with each batch's P-value
mathsheet/exact.json        every game's and variant's exact figures
mathsheet/records-*.jsonl   every deal played through the firmware (docs/records.md)
mathsheet/meters-*.json     the merged meters of each run (tapis.meters/1)
memory/                     the power-cut sweep's rows
identity/                   the seeds, the boards' images (tapis verify --image reads them)
"""
