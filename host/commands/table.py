import json
import secrets
import sys
import time

from tapis.host import args as A
from tapis.firmware.games import named
from tapis.firmware.games import GAMES
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
    p.add_argument("--delay", type=float, help="seconds between lines when watching (default 0.05 on a terminal)")
    p.set_defaults(func=run, parser=p)


def run(args):
    from tapis.cython_core.twins import evaluate
    from tapis.simulator.table import EmulatedTable

    kit = kits.find(args.game)
    options = None
    if args.variant is not None:
        try:
            options = named.options(args.game, args.variant)
        except ValueError as e:
            args.parser.error(str(e))
    seed = args.seed if args.seed is not None else secrets.randbelow(2 ** 32)
    out = sys.stdout
    on_table = on_events = None
    if args.json:
        recorder = kit.Recorder(seed)

        def on_events(events):
            for record in recorder.feed(events):
                out.write(json.dumps(record) + "\n")
    else:
        delay = args.delay if args.delay is not None else (0.05 if out.isatty() else 0.0)

        held = []  # a section heading ("\n── Deal 6 ..."), printed once its section has a line

        def write(line):
            if line.startswith("\n"):
                held[:] = [line]
                return
            if held:
                out.write(held.pop() + "\n")
            out.write(line + "\n")
            out.flush()
            if delay:
                time.sleep(delay)

        symbols = (out.encoding or "").lower().replace("-", "") == "utf8"
        hands = lambda: [c.view["hand"] if c.view else [] for c in sim.consoles]
        on_table = kit.Renderer(write, hands, symbols).on_view
        print("Tapis · %s on the emulated table · seed %d" % (kit.TITLE, seed))
    if args.board == "micropython":
        from tapis.simulator.vboard import VirtualBoardTable as EmulatedTable  # noqa: F811
    sim = EmulatedTable(seed, args.game, options=options, evaluator=evaluate, on_table=on_table)
    # A deal's record is complete when the next deal starts, which the rules do at
    # once, in the same step that ends a deal or a game.
    if args.deals is None:
        sim.run_games(1, on_events)
    else:
        sim.run_deals(args.deals, on_events)
    if on_table is not None:
        sim.drain()  # what the game did last, on the table display too
    if args.board == "micropython":
        sim.close()
    return 0
