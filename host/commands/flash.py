import json
import sys


def register(sub):
    p = sub.add_parser("flash", help="compile, sign and deploy the firmware to a board; verify it",
                       description="Compile the firmware with mpy-cross, write a manifest of SHA-256 "
                       "hashes signed with HMAC-SHA256 under the board's device key (made on the first "
                       "flash and kept in ~/.config/tapis/keys/), deploy with mpremote, and with --verify "
                       "read the hashes back. The board checks the manifest at every boot.")
    p.add_argument("--port", required=True,
                   help="the board's serial port: a device path, a pty, or a pyserial URL")
    p.add_argument("--verify", action="store_true", help="after deploying, read the hashes back and check them")
    p.add_argument("--check", action="store_true", help="only check what the board holds (deploy nothing)")
    p.add_argument("--key-file", help="the device key file (default: ~/.config/tapis/keys/<device id>.key, "
                   "or $TAPIS_KEY_DIR)")
    p.add_argument("--entry", default="firmware.main",
                   help="module main.py starts once the check passes (default firmware.main; "
                   "'none': check only)")
    p.add_argument("--json", action="store_true", help="one JSON object with the result")
    g = p.add_argument_group("what the table plays (config.json, signed with the firmware)")
    g.add_argument("--game", default="ecarte", help="the game (default: ecarte)")
    g.add_argument("--variant", help="a variant of the game by name (docs/rules.md)")
    g.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="an option of the game over the variant's, e.g. stake=2, gallery=2, "
                   "seats=4 (a JSON value; repeat for more)")
    p.set_defaults(func=run, parser=p)


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
    from tapis.host import flash as F

    entry = None if args.entry.lower() == "none" else args.entry
    if entry is not None and not all(part.isidentifier() for part in entry.split(".")):
        args.parser.error("--entry must be a module name like firmware.main, got %r" % args.entry)
    log = (lambda msg: None) if args.json else (lambda msg: print(msg, flush=True))
    try:
        config = F.configuration(args.game, args.variant, parse_options(args.option))
    except (ValueError, F.FlashError) as e:
        args.parser.error(str(e))
    try:
        if args.check:
            result = F.verify(args.port, key_file=args.key_file)
            log("verified: %d files on device %s match its signed manifest" % (result["files"], result["device"]))
        else:
            result = F.flash(args.port, entry=entry, key_file=args.key_file, verify=args.verify, log=log,
                             config=config)
    except F.FlashError as e:
        if args.json:
            print(json.dumps({"ok": False, "error": str(e)}))
        sys.stderr.write("tapis flash: %s\n" % e)
        return 1
    if args.json:
        print(json.dumps(dict(result, ok=True)))
    return 0
