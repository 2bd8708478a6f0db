import json
import secrets
import sys

from tapis.firmware.games import GAMES, find
from tapis.host import args as A
from tapis.host.progress import progress
from tapis.host.watch import DELAY, Watch, watch_game
from tapis.simulator import kits


def register(sub):
    p = sub.add_parser("table", help="play on the emulated table (bots at every seat)")
    p.add_argument("--game", choices=sorted(GAMES), default="ecarte", help="the game (default: ecarte)")
    p.add_argument("--seed", type=A.seed, help="seed for a reproducible run (default: random, printed)")
    p.add_argument("--deals", type=A.positive, help="play N deals (default: one whole game)")
    p.add_argument("--json", action="store_true", help="one JSON record per deal")
    p.add_argument("--board", choices=["cpython", "micropython"], default="cpython",
                   help="where the firmware runs: here, or on the virtual board (real MicroPython)")
    p.add_argument("--variant", help="a variant of the game by name (see docs/rules.md)")
    p.add_argument("--delay", type=A.seconds_or_zero, help="seconds between lines when watching (default %.2f on a terminal; "
                   "keys there: space pause, s step, + - speed, q quit)" % DELAY)
    p.add_argument("--bots", type=A.bots, metavar="LEVEL",
                   help="the bots' strength: random, rules (default) or advisor; per seat: 0=advisor,1=random")
    p.add_argument("--quiet", action="store_true", help="no progress bar with --deals N")
    p.add_argument("--interactive", action="store_true",
                   help="play seat 0 yourself, as `tapis play` does (--bots for the others)")
    p.set_defaults(func=run, parser=p)


def run(args):
    from tapis.cython_core.twins import evaluate
    from tapis.simulator.table import EmulatedTable

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
    seed = args.seed if args.seed is not None else secrets.randbelow(2 ** 32)
    out = sys.stdout
    if args.board == "micropython":
        from tapis.simulator.vboard import VirtualBoardTable as EmulatedTable  # noqa: F811
    sim = EmulatedTable(seed, args.game, options=options, evaluator=evaluate, players=players)
    # A deal's record is complete when the next deal starts, which the rules do at
    # once, in the same step that ends a deal or a game.
    if args.deals is None:
        play = lambda on_events: sim.run_games(1, on_events)  # noqa: E731
    else:
        play = lambda on_events: sim.run_deals(args.deals, on_events)  # noqa: E731
    try:
        if args.json or not out.isatty():
            _record(sim, play, kit, seed, options, args, out)
        else:
            print("Tapis · %s on the emulated table · seed %d" % (kit.TITLE, seed))
            watch_game(kit.Renderer, play, out, args.delay)
    except KeyboardInterrupt:
        sys.stderr.write("tapis table: stopped (Ctrl-C), seed %d\n" % seed)
        return 130
    finally:
        if args.board == "micropython":
            sim.close()
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
