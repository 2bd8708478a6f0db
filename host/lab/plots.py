# The lab report's figures (matplotlib, headless): NIST's P-values by test, the card orders'
# batch P-values, the 32-card pack's card-by-position table, and each exact figure against the
# run's 95 % interval. Each is a matplotlib Figure, saved as PNG for the HTML report and drawn
# again on a page of the PDF (matplotlib's PdfPages: no other library).
import numpy as np

from tapis.host.plot import COLOURS


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    return plt


def nist_figure(plt, nist):
    fig, ax = plt.subplots(figsize=(8, 3.6))
    rows = [t for t in nist if t.get("p_values")]
    ax.bar(range(len(rows)), [t["binomial_p"] for t in rows], color=[COLOURS[0] if t["pass"] else COLOURS[1] for t in rows])
    ax.axhline(0.01, color="black", lw=0.8, ls="--")
    ax.set_yscale("log")
    ax.set_ylim(1e-4, 1.5)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([t["test"] for t in rows], rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("P of its P-values under 1 %")
    ax.set_title("NIST SP 800-22: each test's count of P-values under 1 % (binomial), line at 99 %", fontsize=9)
    return fig


def orders_figure(plt, orders):
    fig, ax = plt.subplots(figsize=(8, 3.6))
    rows = [o for o in orders if o["batch_p_values"]]
    for i, o in enumerate(rows):
        ps = o["batch_p_values"]
        ax.scatter(np.full(len(ps), i) + np.linspace(-0.2, 0.2, len(ps)), ps, s=9, color=COLOURS[i % len(COLOURS)])
    ax.axhline(0.01, color="black", lw=0.8, ls="--")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(["%d cards\n%s" % (o["pack"], o["test"].replace("_", " ")) for o in rows], fontsize=7)
    ax.set_ylim(0, 1)
    ax.set_ylabel("P-value of a batch")
    ax.set_title("Card orders: each batch's P-value (uniform on [0, 1] for a fair shuffle)", fontsize=9)
    return fig


def positions_figure(plt, cells):
    fig, ax = plt.subplots(figsize=(5.2, 4.4))
    ratio = cells / cells.mean()
    im = ax.imshow(ratio, cmap="coolwarm", vmin=0.8, vmax=1.2)
    fig.colorbar(im, ax=ax, label="count / expected")
    ax.set_xlabel("card (its place in the fresh pack)")
    ax.set_ylabel("position after the shuffle")
    ax.set_title("32-card pack: each card's position", fontsize=9)
    return fig


def figures_figure(plt, runs):
    rows = [(r, f) for r in runs for f in r["figures"] if f["ci95"]]
    fig, ax = plt.subplots(figsize=(8, 0.5 + 0.28 * len(rows)))
    for i, (r, f) in enumerate(rows):
        lo, hi = f["ci95"]
        ax.plot([lo, hi], [i, i], color=COLOURS[0] if f["brackets"] else COLOURS[1], lw=3)
        ax.plot([f["value"]], [i], "k|", ms=10)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(["%s%s" % (f["name"], " (%s)" % r["variant"] if r["variant"] else "") for r, f in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("chance per deal: the run's 95 % interval (bar), the exact figure (tick)")
    ax.set_title("Math sheet: the firmware's deals against the exact figures", fontsize=9)
    return fig


def all_figures(summary, cells32):
    """[(file name, Figure)] of the report."""
    plt = pyplot()
    out = [("nist.png", nist_figure(plt, summary["shuffle"]["nist"])),
           ("orders.png", orders_figure(plt, summary["shuffle"]["orders"]))]
    if cells32 is not None:
        out.append(("positions-32.png", positions_figure(plt, cells32)))
    out.append(("mathsheet.png", figures_figure(plt, summary["mathsheet"]["runs"])))
    return out
