# The `tapis` command. Each subcommand lives in its own function; bad input exits 2
# with a message on stderr (argparse does that for malformed arguments).
import argparse
import json
import secrets
import sys
import time


def _positive(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a whole number, got %r" % text)
    if n < 1:
        raise argparse.ArgumentTypeError("expected a number of at least 1, got %r" % text)
    return n


def _seed(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a seed is a whole number, got %r" % text)
    if not 0 <= n < 2 ** 63:
        raise argparse.ArgumentTypeError("a seed is between 0 and 2**63-1, got %r" % text)
    return n


def cmd_info(args):
    from importlib.metadata import PackageNotFoundError, version

    from host.core import CORE
    from simulator import micropython

    try:
        ver = version("tapis")
    except PackageNotFoundError:
        ver = "unknown"
    info = {"version": ver, "core": CORE, "micropython": micropython.version_or_none()}
    if args.json:
        print(json.dumps(info))
    else:
        for k, v in info.items():
            print("%-12s %s" % (k, v))
    return 0


def cmd_table(args):
    from host.core import evaluate
    from simulator.games import GAMES
    from simulator.table import EmulatedTable

    kit = GAMES[args.game]
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

        def write(line):
            out.write(line + "\n")
            out.flush()
            if delay:
                time.sleep(delay)

        symbols = (out.encoding or "").lower().replace("-", "") == "utf8"
        hands = lambda: [c.view["hand"] if c.view else [] for c in sim.consoles]
        on_table = kit.Renderer(write, hands, symbols).on_view
        print("Tapis · %s on the emulated table · seed %d" % (kit.title, seed))
    sim = EmulatedTable(seed, args.game, evaluator=evaluate, on_table=on_table)
    # A deal's record is complete when the next deal starts, which the rules do at
    # once, in the same step that ends a deal or a game.
    if args.deals is None:
        sim.run_games(1, on_events)
    else:
        sim.run_deals(args.deals, on_events)
    return 0


def build_parser():
    from simulator.games import GAMES

    p = argparse.ArgumentParser(prog="tapis", description="Tapis: the electronic card table for écarté, club écarté and piquet.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    info = sub.add_parser("info", help="version, which core is in use, the MicroPython runtime")
    info.add_argument("--json", action="store_true", help="machine-readable output")
    info.set_defaults(func=cmd_info)

    table = sub.add_parser("table", help="play on the emulated table (bots at every seat)")
    table.add_argument("--game", choices=sorted(GAMES), default="ecarte", help="the game (default: ecarte)")
    table.add_argument("--seed", type=_seed, help="seed for a reproducible run (default: random, printed)")
    table.add_argument("--deals", type=_positive, help="play N deals (default: one whole game)")
    table.add_argument("--json", action="store_true", help="one JSON record per deal")
    table.add_argument("--board", choices=["cpython"], default="cpython", help="where the firmware runs")
    table.add_argument("--delay", type=float, help="seconds between lines when watching (default 0.05 on a terminal)")
    table.set_defaults(func=cmd_table)
    return p


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
