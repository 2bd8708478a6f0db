"""The product image on the emulated Pico (issue 32, points 4 and 5): per game, power-on to
playing with a fresh journal and resuming from a full one (host/pico/measure.py measure_resume,
the measure the stock image's 0.75-0.81 s and 1.25-1.94 s came from), and the heap over DEALS
deals: free at boot and the lowest free at a deal's start (firmware/boot/report.py's line, after
a collection), with the firmware frozen in flash instead of loaded into the heap.

    PYTHONPATH=. .venv/bin/python benchmarks/product_pico.py [--deals N] [--done K] [--game G]... [--stock] [--quick]

The image is built (cached) by tapis image build with the emulated boards' public test signing
key, from $TAPIS_MICROPYTHON_SRC and $TAPIS_PICOTOOL_SRC; --stock measures the stock image
($TAPIS_PICO_IMAGE, the firmware in firmware.img) the same way, to compare. --done: the
journal's completed games (10, all it keeps: a full journal). --quick: one écarté deal, the
fresh boot and the heap only (no journal written through the REPL).
"""
import argparse
import json
import os
import sys
import time

from _quick import parse


def product_image():
    from tapis.host.flash.sign import public_key
    from tapis.host.image.build import build
    from tapis.simulator.testkey import TEST_SIGNING_SEED

    return build(public_key=public_key(TEST_SIGNING_SEED).hex())["path"]


def heap(game, image, deals, seed):
    """{free at boot, lowest free at a deal's start, highest in use, deals, wall s}."""
    from tapis.host.pico.table import PicoTable

    wall = time.monotonic()
    with PicoTable(seed, game, image=image) as t:
        k = len(t.heap)
        fresh = t.boot()  # (measure_resume's fresh boot: the journal's first game begun, no input)
        t.run_deals(deals)
        frees = [f for _ms, _a, f in t.heap[k:]]  # at this boot, then at each deal's start
        return {"fresh_ms": fresh, "free_at_boot": frees[0], "lowest_free": min(frees),
                "most_in_use": max(a for _ms, a, _f in t.heap[k:]), "heap": frees[0] + t.heap[k][1],
                "deals": t.game.finished_deals(), "wall_s": round(time.monotonic() - wall, 1)}


def main():
    from tapis.firmware.journal.writer import KEEP
    from tapis.host.image.source import MICROPYTHON_ENV, PICOTOOL_ENV
    from tapis.host.pico.measure import measure_resume

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--done", type=int, default=KEEP)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--game", action="append", choices=("ecarte", "piquet", "club"))
    p.add_argument("--stock", action="store_true", help="the stock image ($TAPIS_PICO_IMAGE) instead")
    a = parse(p, {"deals": 1, "game": ["ecarte"]})
    if a.stock:
        image = os.environ.get("TAPIS_PICO_IMAGE")
    elif os.environ.get(MICROPYTHON_ENV) and os.environ.get(PICOTOOL_ENV):
        image = product_image()
    else:
        image = None
    if not image:
        print("not measured: no image (the product image builds from $%s and $%s; --stock takes "
              "$TAPIS_PICO_IMAGE): 0 figures" % (MICROPYTHON_ENV, PICOTOOL_ENV))
        return 0
    print("%-7s %9s %10s %8s %13s %12s %6s" % ("game", "fresh ms", "resume ms", "journal", "free at boot",
                                                "lowest free", "deals"))
    for game in a.game or ["ecarte", "piquet", "club"]:
        h = heap(game, image, a.deals, a.seed)
        # the resume from a journal of --done games (--quick: none, as the heap run's boot was fresh)
        r = measure_resume(a.seed, game, image=image, log=lambda line: None, done=a.done) if not a.quick else \
            {"fresh_ms": h["fresh_ms"], "resume_ms": 0, "journal_bytes": 0}
        print("%-7s %9d %10s %7dK %13d %12d %6d" % (game, r["fresh_ms"], r["resume_ms"] or "-", r["journal_bytes"] // 1024,
                                                     h["free_at_boot"], h["lowest_free"], h["deals"]), flush=True)
        print(json.dumps({"game": game, "image": "stock" if a.stock else "product", "heap": h,
                          "resume": {k: r.get(k) for k in ("fresh_ms", "resume_ms", "journal_bytes", "games", "done",
                                                          "inputs_replayed", "resumed_with_events")}}),
              file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
