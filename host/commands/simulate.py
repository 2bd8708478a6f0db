# `tapis simulate --game G --rounds N [--bots LEVEL[,LEVEL...]] [--workers K] [--seed S]
# [--scheduler ADDRESS] [--json | --csv] [--plot FILE.png] [--quiet]`: Monte Carlo
# (simulator/montecarlo/simulate.py): win rates, points per deal, game values, each seat's return
# to player and house edge with 95 % confidence intervals. The same seed gives the same
# figures whatever the workers, here or on Dask.
import csv
import json
import os
import signal
import sys

from tapis.host import args as A

ROUNDS = {"club": "deals", "ecarte": "games", "piquet": "parties"}


def register(sub):
    from tapis.simulator.montecarlo.simulate import SIMULATORS

    p = sub.add_parser("simulate", help="Monte Carlo: win rates, points, return to player, 95%% confidence")
    p.add_argument("--game", choices=sorted(SIMULATORS), default="club", help="the game (default: club)")
    p.add_argument("--rounds", type=A.positive, required=True,
                   help="rounds to play: deals of club écarté, games of écarté (to 5 points), parties of piquet")
    p.add_argument("--bots", type=levels, default=["rules"], metavar="LEVEL[,LEVEL...]",
                   help="the bots' strength: one for every seat, or one per seat in seat order "
                        "(default rules; the kits' BOTS: random, rules, advisor)")
    p.add_argument("--variant", help="a variant of the game by name (see docs/rules.md)")
    p.add_argument("--workers", type=A.positive, help="worker processes (default 1)")
    p.add_argument("--seed", type=A.seed, help="seed for a reproducible run (default: random, printed)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the chunks on a Dask distributed scheduler (pip install 'tapis-table[dask]')")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="machine-readable output: one JSON object")
    out.add_argument("--csv", action="store_true", help="one CSV row per seat")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw each seat's RTP as the rounds accumulate, with its 95%% band (matplotlib)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run, parser=p)


def levels(text):
    got = [t.strip() for t in text.split(",")]
    if not all(got):
        import argparse

        raise argparse.ArgumentTypeError("bot strengths are names separated by commas, got %r" % text)
    return got


def check(args):
    """Refuse what cannot run, before anything runs (exit 2, one line)."""
    A.check_backend(args)
    if args.plot is not None:
        from tapis.host import plot

        why = plot.cannot_write(args.plot)
        if why:
            args.parser.error("--plot: " + why)


def run(args):
    from tapis.host.progress import progress
    from tapis.simulator.montecarlo import simulate as MC

    check(args)
    seed = args.seed if args.seed is not None else A.new_seed()
    unit = ROUNDS[args.game]
    try:
        MC.check({"game": args.game, "seed": seed, "bots": args.bots, "variant": args.variant})
    except ValueError as e:
        args.parser.error(str(e))
    once = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if once:
        signal.signal(signal.SIGINT, stop_once)
    try:
        with progress(args.rounds, unit, args.quiet) as advance:
            report, _backend = MC.simulate(args.game, args.rounds, seed, args.workers or 1, args.scheduler,
                                           advance, bots=args.bots, variant=args.variant,
                                           trace=200 if args.plot else 0)
    except MC.Interrupted as stop:
        r = stop.report
        show(args, r)
        sys.stderr.write("tapis simulate: interrupted after %s of %s\n" % (
            count(r["rounds"], unit), count(r["asked"], unit)))
        return 130
    except (OSError, ValueError) as e:  # a scheduler address that is wrong or cannot be reached
        if args.scheduler is None:
            raise
        sys.stderr.write("tapis simulate: cannot use the scheduler %r: %s\n" % (args.scheduler, e))
        return 2
    finally:
        if once and signal.getsignal(signal.SIGINT) is stop_once:  # interrupted: stays ignored
            signal.signal(signal.SIGINT, signal.default_int_handler)
    if args.plot:
        from tapis.host import plot

        plot.rtp_convergence(report, args.plot)
        report["plot"] = args.plot
    show(args, report)
    return 0


def stop_once(signum, frame):
    """The first Ctrl-C stops the run (the figures so far are printed); the next ones,
    while the workers are stopped and the figures printed, are ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def count(n, unit):
    """'1 deal', '12,000 deals'."""
    return "%s %s" % ("{:,}".format(n), unit[:-1] if n == 1 else unit)


SCHEMA = "tapis.simulate/1"


def show(args, report):
    report.pop("trace", None)
    if args.json:
        print(json.dumps(dict(report, schema=SCHEMA)))
    elif args.csv:
        write_csv(report, sys.stdout)
    else:
        for line in text(report):
            print(line)


def flat(row, prefix=""):
    """A seat's row as CSV columns: [lo, hi] as _low/_high, nested dicts dotted."""
    out = {}
    for k, v in row.items():
        key = prefix + k
        if isinstance(v, dict):
            out.update(flat(v, key + "."))
        elif isinstance(v, list) or k.endswith("ci95"):  # an interval: None for one round
            out[key + "_low"], out[key + "_high"] = v if v else (None, None)
        else:
            out[key] = v
    return out


def write_csv(report, stream):
    head = {k: report[k] for k in ("game", "unit", "rounds", "seed", "variant")}
    rows = [dict(head, bot=report["bots"][r["seat"]], **flat(r)) for r in report["seats"]]
    if not rows:
        return
    w = csv.DictWriter(stream, fieldnames=list(rows[0]), lineterminator=os.linesep)
    w.writeheader()
    w.writerows(rows)


def ci(v, interval, fmt="%.4f"):
    if v is None:
        return "-"
    if interval is None:  # one round: no interval
        return (fmt + " [one round: no interval]") % v
    return (fmt + " [" + fmt + ", " + fmt + "]") % (v, interval[0], interval[1])


def text(r):
    from tapis.simulator import kits

    title = kits.find(r["game"]).TITLE
    unit = r["unit"]
    done = count(r["rounds"], unit)
    if "deals" in r and unit != "deals":
        done += " (%s)" % count(r["deals"], "deals")
    where = "%d worker%s" % (r["workers"], "" if r["workers"] == 1 else "s") if r["backend"] != "dask" else "Dask"
    yield "Tapis · %s Monte Carlo · %s · seed %d · %s%s" % (
        title, done, r["seed"], where, " · variant " + r["variant"] if r["variant"] else "")
    yield "Bots: " + ", ".join("seat %d %s" % (s, b) for s, b in enumerate(r["bots"]))
    yield "Staking: " + r["staking"]
    if r["game"] == "club":
        yield "%-5s %9s %12s  %-28s %-10s %8s %12s  %s" % (
            "seat", "stakes", "staked", "RTP [95% CI]", "edge", "banked", "banker net",
            "duels won / en carte / lost")
        for s in r["seats"]:
            edge = "%.5f" % s["house_edge"] if s["house_edge"] is not None else "-"
            rates = " / ".join("%.4f" % s[k] if s[k] is not None else "-"
                               for k in ("win_rate", "push_rate", "loss_rate"))
            yield "%-5d %9d %12d  %-28s %-10s %8d %12d  %s" % (
                s["seat"], s["stakes"], s["staked"], ci(s["rtp"], s["ci95"], "%.5f"), edge,
                s["banker_deals"], s["banker_net"], rates)
        yield "house: %d" % r["house"]
        return
    won = "parties" if r["game"] == "piquet" else "games"
    yield "%-5s %-8s %-28s %-28s %-28s" % ("seat", "bot", "%s won [95%% CI]" % won,
                                            "points a deal [95% CI]", "RTP [95% CI]")
    for s in r["seats"]:
        yield "%-5d %-8s %-28s %-28s %-28s" % (
            s["seat"], r["bots"][s["seat"]], "%d: " % s["games_won"] + ci(s["win_rate"], s["win_rate_ci95"], "%.3f"),
            ci(s["points_per_deal"], s["points_per_deal_ci95"], "%.3f"), ci(s["rtp"], s["ci95"]))
    for s in r["seats"]:
        if r["game"] == "ecarte":
            values = ", ".join("%s %d" % (("single", "double", "treble")[int(v) - 1], n)
                               for v, n in s["game_values"].items())
            extra = "games won %s; rubbers %d" % (values or "none", s["rubbers_won"])
        else:
            extra = "Rubicon value of a partie won %s; rubicons %d" % (
                ci(s["mean_value_won"], s["mean_value_won_ci95"], "%.1f"), s["rubicons"])
        yield "seat %d: deals won %d (%s); %s; house edge %s; net %+d" % (
            s["seat"], s["deals_won"], ci(s["deal_win_rate"], s["deal_win_rate_ci95"], "%.3f"), extra,
            ci(s["house_edge"], s["house_edge_ci95"]), s["net"])
    if r.get("drawn"):
        yield "drawn parties: %d" % r["drawn"]
