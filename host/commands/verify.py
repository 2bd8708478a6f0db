# tapis verify: the seeded software check (SPEC §10, issue 30; GLI's GAT, SAS's ROM
# signature): a 128-bit seed to a running table over its link (the supervisor's path, a
# VERIFY frame), its answer HMAC-SHA256(seed, every byte it runs) beside the host's own
# from the files it flashed there (host/flash/verify.py), and on a product image from the UF2 it
# flashed (the image's region after the files): match, or mismatch and exit 2.
import json
import sys

from tapis.host import args as A
from tapis.host import operator_link as OL

_NAMED = 8  # files named in the text answer, at most (a virtual board runs 102: --json lists them)


def register(sub):
    p = sub.add_parser("verify", help="ask a running table for its seeded software check, and check the answer")
    p.add_argument("--port", type=A.port, metavar="URL", required=True, help="the table's link (pyserial URL)")
    p.add_argument("--seed", metavar="HEX", required=True,
                   help="128 bits as 32 hex digits (the regulator's tool's, or any fresh one)")
    p.add_argument("--image", metavar="PATH",
                   help="what was flashed to it (default: <device id>.image in the key store, kept by tapis flash)")
    p.add_argument("--uf2", metavar="PATH",
                   help="the product image the board runs (default: the UF2 kept with the image by tapis flash --image)")
    p.add_argument("--key-file", metavar="PATH", help="the device key the board was flashed with: the image beside it")
    p.add_argument("--timeout", type=A.seconds, default=10.0, help="seconds to wait for the answer (default 10)")
    OL.add_option(p)
    p.add_argument("--json", action="store_true", help="one object (schema tapis.verify/1)")
    p.set_defaults(func=run, parser=p)


def run(args, step=None):
    from tapis.host.flash.verify import ask, counter_value, expected, load_kept, parse_seed

    def _fail(text):
        """One line on stderr, exit 2; with --json the object too (match false, the error)."""
        if args.json:
            print(json.dumps({"schema": "tapis.verify/1", "match": False, "error": str(text)}))
        sys.stderr.write("tapis verify: %s\n" % text)
        return 2

    try:
        seed = parse_seed(args.seed)
    except ValueError as e:
        return _fail(str(e))
    try:
        from tapis.host.ports import open_port
        port = open_port(args.port)
        try:
            heard = {}
            got = ask(port, seed, step=step, timeout=args.timeout, key=args.table_key, heard=heard)
        finally:
            getattr(port, "close", lambda: None)()
    except (TimeoutError, OL.KeyRequired) as e:
        return _fail(str(e))
    except OSError as e:
        return _fail("cannot open %s: %s" % (args.port, e.strerror or e))
    board, device, why = got
    if board is None:
        if why.startswith("no signed manifest"):  # the board's words end in its exception's repr
            why = ("it holds no signed manifest or image to say what it runs (a board not flashed by tapis "
                   "flash: flash it, or an emulated Pico from tapis board emulate, then verify it)")
        return _fail("the table could not answer: %s" % why)
    if got.emulated and not args.image:  # tapis table's CPython board: the files it runs, as here
        from tapis.host.flash.verify import runs
        from tapis.firmware.verify import fwimage
        from pathlib import Path
        image, uf2, path = runs(), None, str(Path(fwimage.__file__).resolve().parent.parent)
    else:
        from tapis.host.keys import image_path
        path = args.image or str(image_path(device, args.key_file))
        try:
            image, uf2 = load_kept(path)
        except (OSError, ValueError) as e:
            return _fail("no record of what was flashed to device %s at %s (%s): flash it with tapis flash, "
                         "or name the image with --image" % (device or "?", path, getattr(e, "strerror", None) or e))
    try:
        if args.uf2:
            from pathlib import Path
            uf2 = Path(args.uf2).read_bytes()
        host, frozen = expected(image, seed, uf2), image_bytes(uf2)
    except (OSError, ValueError) as e:
        return _fail("the product image %s: %s" % (args.uf2 or path, getattr(e, "strerror", None) or e))
    match = host == board
    if args.json:
        print(json.dumps({"schema": "tapis.verify/1", "device": device, "seed": seed.hex(),
                          "board": board.hex(), "host": host.hex(), "match": match,
                          "files": sorted(image), "image": path,
                          "product_image": frozen, "counter": heard.get("counter"),
                          "counter_value": counter_value(heard.get("counter"))}))
    elif got.emulated and not args.image:
        print("device %s (an emulated table: no signed manifest), seed %s" % (device or "?", seed.hex()))
        print("  board  %s" % board.hex())
        print("  host   %s  (the %d firmware files it runs, as %s has them)" % (host.hex(), len(image), path))
        print("  counter  %s" % (heard.get("counter") or "not said (firmware before issue 44)"))
        print("MATCH: the emulated table runs this install's firmware" if match else
              "MISMATCH: the emulated table does not run this install's firmware (another version, or a file changed)")
    else:
        print("device %s, seed %s" % (device or "?", seed.hex()))
        print("  board  %s" % board.hex())
        names = ", ".join(sorted(image)) if len(image) <= _NAMED else "--json names them"
        print("  host   %s  (%d files flashed: %s%s)" % (host.hex(), len(image), names,
                                                      "; the product image, %d bytes" % frozen if frozen else ""))
        said = heard.get("counter") or "not said (firmware before issue 44)"
        print("  counter  %s%s" % (said, "" if counter_value(said) is not None else
                                   ": a whole-flash rollback would go undetected (docs/security.md)"))
        print("MATCH: the board runs what was flashed" if match else
              "MISMATCH: the board does not run what was flashed to it")
    return 0 if match else 2


def image_bytes(uf2):
    """How many bytes of the product image the answer covers (None: a stock MicroPython)."""
    from tapis.host.image.uf2 import region
    return len(region(uf2)) if uf2 is not None else None
