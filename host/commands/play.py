# `tapis play`: a person plays one seat of a game against bots, in a full-screen terminal
# UI (host/play). The screen is that seat's display; keys are its panel's buttons.
import sys

from tapis.firmware.games import GAMES, find
from tapis.host import args as A
from tapis.simulator import kits


PAUSE = 0.7  # seconds a bot takes per action, by default


def register(sub):
    p = sub.add_parser("play", help="play a seat yourself, against bots, in a full-screen terminal UI")
    p.add_argument("--game", choices=sorted(GAMES), default="ecarte", help="the game (default: ecarte)")
    p.add_argument("--seat", type=int, default=0, help="the seat you play (default: 0)")
    p.add_argument("--bots", type=A.bots, metavar="LEVEL",
                   help="the bots' strength: random, rules (default) or advisor; per seat: 1=advisor,2=random")
    p.add_argument("--json", action="store_true", help="write each deal's record to stdout as it completes, one "
                   "JSON object a line (schema tapis.record/2, as tapis table --json); the game is drawn on the "
                   "terminal (stderr), so `tapis play --json > deals.jsonl` keeps them")
    p.add_argument("--seed", type=A.seed, help="seed for a reproducible game (default: random, shown)")
    p.add_argument("--variant", help="a variant of the game by name (see docs/rules.md)")
    p.add_argument("--pause", type=float, default=PAUSE, help="seconds a bot takes per action (default %.1f)" % PAUSE)
    p.set_defaults(func=run, parser=p)


def run(args):
    kit = kits.find(args.game)
    options = A.variant_options(args)
    if not 0 <= args.pause <= 10:
        args.parser.error("--pause is 0 to 10 seconds, got %r" % args.pause)
    seats = find(args.game).Table(kit.new_game(options)).SEATS
    if not 0 <= args.seat < seats:
        args.parser.error("%s seats players 0 to %d, not %d" % (kit.TITLE, seats - 1, args.seat))
    try:
        levels = A.seat_bots(args.game, args.bots, seats, args.seat)
    except ValueError as e:
        args.parser.error(str(e))
    if not (sys.stdin.isatty() and sys.stderr.isatty() and (args.json or sys.stdout.isatty())):
        sys.stderr.write("tapis play: needs a terminal (stdin and %s a TTY); to watch bots without one, use "
                         "`tapis table`\n" % ("stderr" if args.json else "stdout"))
        return 2
    from tapis.cython_core.twins import evaluate
    from tapis.host.play.app import PlayApp

    seed = args.seed if args.seed is not None else A.new_seed()
    out = None
    if args.json:  # the records to the real stdout: the app captures sys.stdout while it runs
        import json
        import os
        out = os.fdopen(os.dup(sys.stdout.fileno()), "w")

        def on_record(record):
            out.write(json.dumps(record) + "\n")
            out.flush()
    app = PlayApp(args.game, args.seat, seed, options, evaluate, pause_s=args.pause,
                  bots=lambda s: kits.bot(args.game, levels[s]), on_record=on_record if out else None)
    try:
        app.run()
    except KeyboardInterrupt:  # Ctrl-C before the terminal was taken over, or after
        pass
    finally:
        if out is not None:
            out.close()
    said = "tapis play: %s, seed %d" % (kit.TITLE, seed)
    if args.json:  # stdout holds only the records
        sys.stderr.write(said + "\n")
    else:
        print(said)
    return 0
