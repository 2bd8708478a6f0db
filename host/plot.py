# The figures `--plot FILE.png` draws, with matplotlib on its headless backend (Agg):
# simulate's return to player as the rounds accumulate, with its 95 % band; écarté's
# double-dummy odds against the dealer's trump count; club écarté's outcomes by the two
# tableaux' trump counts. matplotlib is the `plot` extra (pip install 'tapis[plot]').
import os

FORMATS = (".png", ".svg", ".pdf")
NEEDS = "needs matplotlib: pip install 'tapis[plot]'"
COLOURS = ("#1f5f8b", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#b7950b")


def cannot_write(path):
    """Why `path` cannot receive a plot (None if it can): checked before a long run."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:  # (not imported: it writes its config folder)
        return NEEDS
    ext = os.path.splitext(path)[1].lower()
    if ext not in FORMATS:
        return "%r: a plot is a %s file" % (path, ", ".join(FORMATS))
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return "%r: no folder %r to write it in" % (path, folder)
    if not os.access(folder, os.W_OK):
        return "%r: the folder %r is not writable" % (path, folder)
    return None


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None} if path.endswith(".png") else None)
    _pyplot().close(fig)


def rtp_convergence(report, path):
    """Each seat's RTP after each stretch of rounds, its 95 % interval as a band, from
    report["trace"] (simulator/montecarlo/simulate.py simulate(trace=...))."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    trace = report["trace"]
    xs = [p["rounds"] for p in trace]
    for s in range(len(report["seats"])):
        pts = [(x, p["seats"][s]) for x, p in zip(xs, trace) if p["seats"][s][1] is not None]
        if not pts:
            continue
        x = [a for a, _ in pts]
        rtp = [b[0] for _, b in pts]
        lo = [max(b[1][0], -1.0) for _, b in pts]
        hi = [min(b[1][1], 3.0) for _, b in pts]
        c = COLOURS[s % len(COLOURS)]
        ax.fill_between(x, lo, hi, color=c, alpha=0.15, linewidth=0)
        ax.plot(x, rtp, color=c, linewidth=1.4, label="seat %d (%s): %.4f" % (s, report["bots"][s], rtp[-1]))
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle=":")
    if len(xs) > 1 and xs[-1] / max(xs[0], 1) > 20:
        ax.set_xscale("log")
    ax.set_xlabel(report["unit"])
    ax.set_ylabel("return to player (95 % band)")
    ax.set_title("%s · %s %s · seed %d" % (_title(report["game"]), "{:,}".format(report["rounds"]),
                                            report["unit"], report["seed"]))
    ax.legend(loc="best", fontsize="small")
    ax.grid(True, alpha=0.3)
    _save(fig, path)


def ecarte_by_trumps(split, hand, turned, path):
    """split: [(dealer's trumps, dealer hands, elder's points, elder's voles)] (host/odds/split.py)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    rows = [r for r in split if r[1]]
    ks = [r[0] for r in rows]
    win = [r[2] / r[1] for r in rows]
    vole = [r[3] / r[1] for r in rows]
    total = sum(r[1] for r in split)
    ax.bar([k - 0.2 for k in ks], win, width=0.4, color=COLOURS[0], label="elder takes the point (3+ tricks)")
    ax.bar([k + 0.2 for k in ks], vole, width=0.4, color=COLOURS[2], label="elder takes the vole (5 tricks)")
    for k, w, r in zip(ks, win, rows):
        share = 100 * r[1] / total
        ax.annotate(("%.3f\n%.1f%% of hands" if share >= 0.1 else "%.3f\n%.3f%% of hands") % (w, share), (k - 0.2, w), ha="center",
                    va="bottom", fontsize="x-small", xytext=(0, 2), textcoords="offset points")
    overall = sum(r[2] for r in split) / total
    ax.axhline(overall, color="black", linewidth=0.8, linestyle=":", label="over every dealer hand: %.3f" % overall)
    ax.set_xticks(ks)
    ax.set_xlabel("trumps in the dealer's hand")
    ax.set_ylabel("probability, double dummy")
    ax.set_ylim(0, 1.15)
    ax.set_title("écarté · elder %s, turned %s, elder leads without proposing" % (hand, turned))
    ax.legend(loc="upper right", fontsize="small")
    ax.grid(True, axis="y", alpha=0.3)
    _save(fig, path)


def club_by_pattern(split, path):
    """split: {(banker's trumps, punter's trumps): (punter wins, pushes, banker wins)} as
    probabilities of the whole (host/odds/split.py)."""
    plt = _pyplot()
    keys = sorted(k for k, v in split.items() if sum(v) > 0)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 6), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 1.4]})
    x = range(len(keys))
    shares = [[v / sum(split[k]) for v in split[k]] for k in keys]
    base = [0.0] * len(keys)
    for i, (label, c) in enumerate((("punter wins", COLOURS[2]), ("en carte (push)", "#bbbbbb"),
                                    ("banker wins", COLOURS[1]))):
        h = [s[i] for s in shares]
        top.bar(x, h, bottom=base, color=c, label=label, width=0.8)
        base = [b + v for b, v in zip(base, h)]
    top.set_ylabel("outcome, given the pattern")
    top.set_ylim(0, 1)
    top.legend(loc="upper left", fontsize="small", bbox_to_anchor=(1.01, 1.0))
    top.set_title("club écarté · one punter tableau against the banker's, fresh 2×52 shoe")
    bottom.bar(x, [sum(split[k]) for k in keys], color=COLOURS[0], width=0.8)
    bottom.set_ylabel("how often")
    bottom.set_xticks(list(x))
    bottom.set_xticklabels(["%d:%d" % k for k in keys], fontsize="x-small")
    bottom.set_xlabel("trumps held, banker : punter")
    for a in (top, bottom):
        a.grid(True, axis="y", alpha=0.3)
    _save(fig, path)


def _title(game):
    from tapis.simulator import kits

    return kits.find(game).TITLE
