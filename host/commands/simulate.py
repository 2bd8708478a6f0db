# `tapis simulate --game G --rounds N [--workers K] [--seed S] [--scheduler ADDRESS]`:
# Monte Carlo (simulator/montecarlo.py): each seat's return to player with a 95%
# confidence interval. The same seed gives the same figures whatever the workers.
import json
import secrets
import sys
import time

from tapis.host import args as A


def register(sub):
    from tapis.simulator.montecarlo import SIMULATORS

    p = sub.add_parser("simulate", help="Monte Carlo: each seat's return to player, 95%% confidence")
    p.add_argument("--game", choices=sorted(SIMULATORS), default="club", help="the game (default: club)")
    p.add_argument("--rounds", type=A.positive, required=True, help="deals to play")
    p.add_argument("--workers", type=A.positive, default=1, help="worker processes (default 1)")
    p.add_argument("--seed", type=A.seed, help="seed for a reproducible run (default: random, printed)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the chunks on a Dask distributed scheduler (pip install 'tapis-table[dask]')")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run, parser=p)


class Bar:
    """A progress bar on stderr, drawn only on a terminal."""

    def __init__(self, stream):
        self.stream, self.t0 = stream, time.monotonic()

    def __call__(self, done, total):
        width = 30
        fill = width * done // total
        self.stream.write("\r[%s%s] %d/%d chunks %.1fs" % (
            "#" * fill, "." * (width - fill), done, total, time.monotonic() - self.t0))
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def run(args):
    from tapis.simulator.montecarlo import simulate

    if args.scheduler is not None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            args.parser.error("--scheduler needs Dask distributed: pip install 'tapis-table[dask]'")
    seed = args.seed if args.seed is not None else secrets.randbelow(2 ** 32)
    progress = Bar(sys.stderr) if sys.stderr.isatty() else None
    try:
        report, backend = simulate(args.game, args.rounds, seed, args.workers, args.scheduler, progress)
    except (OSError, ValueError) as e:  # a scheduler address that is wrong or cannot be reached
        if args.scheduler is None:
            raise
        sys.stderr.write("tapis simulate: cannot use the scheduler %r: %s\n" % (args.scheduler, e))
        return 2
    report["workers"] = args.workers
    report["backend"] = backend
    if args.json:
        print(json.dumps(report))
        return 0
    print("Tapis · %s Monte Carlo · %d rounds · seed %d · %s" % (args.game, args.rounds, seed, backend))
    print("Staking: " + report["staking"])
    print("%-5s %9s %12s %9s  %-21s %8s %12s" % ("seat", "stakes", "staked", "RTP", "95% CI", "banked", "banker net"))
    for s in report["seats"]:
        rtp = "%.5f" % s["rtp"] if s["rtp"] is not None else "-"
        ci = "[%.5f, %.5f]" % tuple(s["ci95"]) if s["ci95"] else "-"
        print("%-5d %9d %12d %9s  %-21s %8d %12d" % (
            s["seat"], s["stakes"], s["staked"], rtp, ci, s["banker_deals"], s["banker_net"]))
    print("house: %d" % report["house"])
    return 0
