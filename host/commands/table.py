import json
import sys

from tapis.firmware.games import GAMES, find
from tapis.host import args as A
from tapis.host.progress import progress
from tapis.host.table.watch import DELAY, Watch, watch_game
from tapis.simulator import kits


def register(sub):
    p = sub.add_parser("table", help="play on the emulated table (bots at every seat)",
                       epilog="Exit status: 0 done, 2 bad input, 3 the table cannot go on: locked by a tilt "
                       "(the line names it and how a supervisor clears it) or a device that does not answer "
                       "(named, with what to do), 130 Ctrl-C.")
    p.add_argument("--game", choices=sorted(GAMES), default="ecarte", help="the game (default: ecarte)")
    p.add_argument("--seed", type=A.seed, help="seed for a reproducible run (default: random, printed)")
    p.add_argument("--deals", type=A.positive, help="play N deals (default: one whole game)")
    p.add_argument("--json", action="store_true", help="one JSON record per deal")
    p.add_argument("--board", choices=["cpython", "micropython", "pico"], default="cpython",
                   help="where the firmware runs: here, on the virtual board (real MicroPython), or "
                   "flashed onto an emulated Raspberry Pi Pico (rp2040js; needs --image)")
    p.add_argument("--image", help="--board pico: the MicroPython RPI_PICO .uf2 image (default: $TAPIS_PICO_IMAGE)")
    p.add_argument("--shoe", type=A.port, metavar="URL", help="a real (or emulated) shoe on a serial port, instead of "
                   "the emulated one (pyserial URL); real time")
    p.add_argument("--shoe-dialect", choices=["frames", "text"], default="frames",
                   help="what the --shoe speaks (default frames)")
    p.add_argument("--bus", type=A.port, metavar="URL", help="real panels and displays: the RS-485 bus on a serial port "
                   "(pyserial URL), instead of the emulated consoles; real time")
    p.add_argument("--journal", metavar="PATH", help="keep the board's journal in this file (an unfinished "
                   "game in it is resumed); read it with tapis recall --journal PATH")
    p.add_argument("--faults", metavar="SPEC", help="inject faults: drop=P,corrupt=P (each frame on the "
                   "wires), shoe=P (each card out of the shoe misfeeds), e.g. drop=0.01,corrupt=0.01,shoe=0.02")
    p.add_argument("--variant", help="a variant of the game by name (see docs/rules.md)")
    p.add_argument("--delay", type=A.seconds_or_zero, help="seconds between lines when watching (default %.2f on a terminal; "
                   "keys there: space pause, s step, + - speed, q quit)" % DELAY)
    p.add_argument("--bots", type=A.bots, metavar="LEVEL",
                   help="the bots' strength: random, rules (default) or advisor; per seat: 0=advisor,1=random")
    p.add_argument("--quiet", action="store_true", help="no progress bar with --deals N")
    p.add_argument("--host-port", type=A.link_path, metavar="PATH", help="the board's operator's link on a pseudo-terminal "
                   "linked at PATH, paced on the wall clock, keyed with the table's device key (--journal's "
                   "device's, else the test key): `tapis pit --table PATH` and `tapis verify --port PATH` speak "
                   "to it (docs/pit.md); --board pico: the Pico's USB, flashed with the link on it; --board "
                   "micropython: the virtual board's link")
    p.add_argument("--interactive", action="store_true",
                   help="play seat 0 yourself, as `tapis play` does (--bots for the others)")
    p.set_defaults(func=run, parser=p)


def run(args):
    from tapis.cython_core.twins import evaluate
    from tapis.simulator.table.emulated import EmulatedTable

    if args.interactive:  # SPEC §5's name for a person at the table: tapis play at seat 0
        from tapis.host.commands import play
        args.seat, args.pause = 0, play.PAUSE
        return play.run(args)
    kit = kits.find(args.game)
    options = A.variant_options(args)
    if args.delay is not None and args.delay > 60:
        sys.stderr.write("tapis table: --delay is 0 to 60 seconds, got %r\n" % args.delay)
        return 2
    seats = find(args.game).Table(kit.new_game(options)).SEATS
    try:
        levels = A.seat_bots(args.game, args.bots, seats)
    except ValueError as e:
        sys.stderr.write("tapis table: %s\n" % e)
        return 2
    players = [kits.bot(args.game, levels[s]) for s in range(seats)]
    from tapis.host.table.stopped import STOPPED, TableStopped, booted_locked, stalled
    from tapis.simulator.table.emulated import StalledTable
    try:
        extra = _devices(args, options)
    except TableStopped as e:
        sys.stderr.write("tapis table: %s\n" % e)
        return STOPPED
    seed = args.seed if args.seed is not None else A.new_seed()
    out = sys.stdout
    if args.board == "micropython":
        from tapis.simulator.boards.vtable import VirtualBoardTable as EmulatedTable  # noqa: F811
        if args.host_port:
            from tapis.host.table.hostport import Pty
            extra["host"] = Pty()  # the board's operator's link (linked at PATH: _host_port)
    elif args.board == "pico":
        from tapis.host.pico.table import PicoTable

        image = extra.pop("image")

        def EmulatedTable(seed, game, options=None, evaluator=None, **kw):  # noqa: F811
            return PicoTable(seed, game, options=options, image=image, host_link="usb" if args.host_port else None,
                             log=lambda line: sys.stderr.write(line + "\n") if not args.json else None, **kw)
    if args.host_port and "pacer" not in extra:
        from tapis.host.table.real import Pacer
        extra["pacer"] = Pacer()  # a host on the pty answers in real time
    try:
        sim = EmulatedTable(seed, args.game, options=options, evaluator=evaluate, players=players, **extra)
        if args.host_port:
            _host_port(sim, args)
    except Exception as e:
        from tapis.simulator.pico.setup import PicoError
        if not isinstance(e, PicoError):
            raise
        sys.stderr.write("tapis table: %s\n" % e)
        return 1
    if args.journal is not None and not args.host_port and getattr(getattr(sim, "controller", None), "locked", None):
        sys.stderr.write("tapis table: %s\n" % booted_locked(sim.controller, args.journal))  # (boot/custody.py)
        return STOPPED
    # A deal's record is complete when the next deal starts, which the rules do at
    # once, in the same step that ends a deal or a game.
    done_deals = done_games = 0
    if getattr(args, "resumes", False):  # the journal's unfinished game: N deals more
        done_deals, done_games = sim.game.finished_deals(), sim.game.finished_games()
        sys.stderr.write("tapis table: resumed the unfinished game in %s (%d deals played)\n"
                         % (args.journal, done_deals))
    if args.deals is None:
        play = lambda on_events: sim.run_games(done_games + 1, on_events)  # noqa: E731
    else:
        play = lambda on_events: sim.run_deals(done_deals + args.deals, on_events)  # noqa: E731
    try:
        if args.json or not out.isatty():
            _record(sim, play, kit, seed, options, args, out)
        else:
            print("Tapis · %s on the emulated table · seed %d" % (kit.TITLE, seed))
            watch_game(kit.Renderer, play, out, args.delay)
        sim.drain()  # the bus lags the game: the displays are shown its end before the table stops
    except KeyboardInterrupt:
        sys.stderr.write("tapis table: stopped (Ctrl-C), seed %d\n" % seed)
        return 130
    except StalledTable as e:
        sys.stderr.write("tapis table: %s (seed %d)\n" % (stalled(e.faults, e.locked, args.host_port or "PATH"), seed))
        return STOPPED
    finally:
        if args.board in ("micropython", "pico"):
            sim.close()  # the board's process too, on Ctrl-C
        if extra.get("journal") is not None:
            extra["journal"].flush()
    return 0


def _record(sim, play, kit, seed, options, args, out):
    """--json: one record per deal; text off a terminal: the lines, unpaced. Either with a
    progress bar on stderr for --deals."""
    recorder = kit.Recorder(seed, options) if args.json else None
    if recorder is None:
        print("Tapis · %s on the emulated table · seed %d" % (kit.TITLE, seed))
        renderer = kit.Renderer(Watch(out, 0, keys=False).line, None, _utf8(out), watcher=True)
    with progress(args.deals or 0, "deals", quiet=args.deals is None or args.quiet) as advance:
        done = [0]

        def on_events(events):
            if recorder is not None:
                for record in recorder.feed(events):
                    out.write(json.dumps(record) + "\n")
            else:
                renderer.feed(events)
            n = sim.game.finished_deals()
            if n > done[0]:
                advance(n - done[0])
                done[0] = n

        play(on_events)
        if recorder is None:
            renderer.flush()


def _utf8(out):
    return (getattr(out, "encoding", "") or "").lower().replace("-", "") == "utf8"


def _devices(args, options):
    """The keyword arguments of the table for --shoe, --bus, --journal, --faults, --image
    (bad input: exit 2 through args.parser.error)."""
    extra = {}
    real = args.shoe is not None or args.bus is not None
    if args.board != "cpython" and (real or args.journal):
        args.parser.error("--shoe, --bus and --journal need --board cpython (the firmware here)")
    if args.board == "pico":
        from tapis.simulator.pico.setup import PicoError, image_path
        try:
            extra["image"] = image_path(args.image)
        except PicoError as e:
            args.parser.error(str(e))
    elif args.image:
        args.parser.error("--image is for --board pico")
    if args.faults is not None:
        from tapis.simulator.table.wires import parse_faults
        try:
            if not args.faults.strip():
                raise ValueError("--faults takes drop=P,corrupt=P,shoe=P (P from 0 to 1), not %r" % args.faults)
            extra["faults"] = faults = parse_faults(args.faults)
        except ValueError as e:
            args.parser.error(str(e))
        if faults["shoe"]:
            from tapis.firmware import wire as W
            from tapis.firmware.games import find
            kit = kits.find(args.game)
            if find(args.game).Table(kit.new_game(options)).shoe_fault(bytes((W.UNREAD,))) is None:
                args.parser.error("--faults shoe=P: %s's table answers no misfed card (ecarte's and piquet's laws do)"
                                  % args.game)
    if args.journal is not None:
        from tapis.host.table.journaled import open_journal
        extra.update(open_journal(args))
    if real:
        from tapis.host.ports import PortError, open_port
        from tapis.host.table.real import Pacer, TextShoe
        try:
            if args.shoe:
                port = open_port(args.shoe)
                extra["shoe"] = TextShoe(port, args.shoe) if args.shoe_dialect == "text" else port
            if args.bus:
                extra["bus"] = open_port(args.bus)
        except PortError as e:
            args.parser.error(str(e))
        extra["pacer"] = Pacer()
    return extra


def _host_port(sim, args):
    """--host-port PATH: the operator's link (firmware/operator/hostlink.py) on a pty linked at PATH."""
    if args.board == "pico":
        from tapis.host.table.hostport import attach_pico
        return sys.stderr.write("tapis table: %s\n" % attach_pico(sim, args.host_port))
    if args.board == "micropython":
        from tapis.host.table.hostport import attach_vboard
        return sys.stderr.write("tapis table: %s\n" % attach_vboard(sim, args.host_port))
    from tapis.host.table.hostport import attach
    keyed = attach(sim, args.host_port, getattr(args, "device_key", None))
    sys.stderr.write("tapis table: the operator's link at %s (keyed with the %s)\n" % (args.host_port, keyed))
