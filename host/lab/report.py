# The lab report: report.html (its tables and the figures beside it as PNG), report.pdf (the
# same figures and a page of verdicts, matplotlib's PdfPages), from the summary alone.
import html

from tapis.host.lab import plots

STYLE = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
         "table{border-collapse:collapse;margin:1em 0;font-size:13px}td,th{border:1px solid #bbb;padding:3px 7px}"
         "th{background:#eee}.pass{color:#1e7b34}.fail{color:#b00020;font-weight:bold}code{background:#f4f4f4}")


def verdict(v):
    if v is None:
        return '<span>not run</span>'
    return '<span class="pass">pass</span>' if v else '<span class="fail">FAIL</span>'


def num(v, fmt="%.4f"):
    return "-" if v is None else (fmt % v if isinstance(v, float) else html.escape(str(v)))


def table(head, rows):
    out = ["<table><tr>" + "".join("<th>%s</th>" % html.escape(h) for h in head) + "</tr>"]
    for r in rows:
        out.append("<tr>" + "".join("<td>%s</td>" % c for c in r) + "</tr>")
    return "\n".join(out) + "</table>"


def sections(s):
    sh, ms, mem, ident = s["shuffle"], s["mathsheet"], s["memory"], s["identity"]
    yield "<h2>1. The shuffle (GLI-11 §3.3)</h2><p>%s; %s. %s bits in %d sequences of %s.</p>" % (
        html.escape(sh["generator"]), html.escape(sh["shuffle"]), "{:,}".format(sh["bits"]), sh["sequences"],
        "{:,}".format(sh["sequence_bits"]))
    yield "<h3>NIST SP 800-22</h3>" + table(
        ["test", "sub-tests", "P-values", "under 1 %", "binomial P", "uniformity P_T", "worst proportion", "verdict"],
        [[t["test"], num(t.get("sub_tests")), num(t.get("p_values")), num(t.get("under_1pc")), num(t.get("binomial_p")),
          num(t.get("uniformity_p")), num(t.get("worst_proportion"), "%.3f"), verdict(t["pass"])] for t in sh["nist"]])
    yield '<img src="nist.png">'
    dh = sh["dieharder"]
    yield "<h3>dieharder</h3>" + ("<p>%s</p>" % html.escape(dh["note"]) if dh.get("note") else table(
        ["test", "ntup", "tsamples", "psamples", "P", "assessment"],
        [[r["test"], r["ntup"], r["tsamples"], r["psamples"], num(r["p"]), r["assessment"]] for r in dh["tests"]]))
    yield "<h3>Card orders</h3>" + table(
        ["pack", "test", "shuffles", "statistic", "dof", "P", "batches", "batches' uniformity (KS)", "verdict"],
        [[o["pack"], o["test"], "{:,}".format(o["shuffles"]), num(o["statistic"], "%.4g"), num(o["dof"]), num(o["p"]),
          o["batches"], num(o["uniformity_p"]), verdict(o["pass"])] for o in sh["orders"]])
    yield '<img src="orders.png"> <img src="positions-32.png">'
    yield "<h2>2. The math sheet (GLI-11-style probability and accounting)</h2>"
    for sheet in ms["sheets"]:
        yield "<h3>%s%s</h3>" % (sheet["game"], " · " + sheet["variant"] if sheet["variant"] else "")
        yield table(["figure", "exact", "value", "deals for ±10 % at 95 %", "what"],
                    [[f["name"], f["fraction"], num(f["value"], "%.6f"), num(f["deals_for_10pc"]), html.escape(f["what"])]
                     for f in sheet["figures"]])
        yield table(["wager", "return", "house's take", "hit frequency", "variance", "note"],
                    [[html.escape(w["wager"]), "%s (%s)" % (w["return"], num(w["return_value"], "%.6f")),
                      "%s (%s)" % (w["house_take"], num(w["house_take_value"], "%.6f")), w.get("hit_frequency", "-"),
                      num(w.get("variance")), html.escape(w.get("note", ""))] for w in sheet["wagers"]])
    yield "<h3>Through the firmware</h3>" + table(
        ["game", "variant", "deals", "backend", "deals/s", "meters = records", "figure", "exact", "hits / deals", "95 % interval", "family-wise interval", "brackets"],
        [[r["game"], r["variant"] or "-", r["deals"], r["backend"], num(r["deals_per_second"], "%.1f"), verdict(r["merge_agrees"]),
          f["name"], f["exact"], "%d / %d" % (f["hits"], f["trials"]),
          "[%.5f, %.5f]" % tuple(f["ci95"]) if f["ci95"] else "-",
          "[%.5f, %.5f]" % tuple(f["ci_family"]) if f["ci_family"] else "-", verdict(f["brackets"])]
         for r in ms["runs"] for f in r["figures"]])
    yield table(["game", "variant", "wagered", "won", "lost", "house", "punters' return", "house's take"],
                [[r["game"], r["variant"] or "-", r["money"]["wagered"], r["money"]["won"], r["money"]["lost"],
                  r["money"]["house"], num(r["money"].get("punters_return")), num(r["money"].get("house_take"))]
                 for r in ms["runs"]])
    yield '<img src="mathsheet.png">'
    yield "<h2>3. Critical memory (GLI-11-style; issue 30.1, 30.8)</h2><p>%s</p>" % html.escape(mem.get("method", ""))
    yield table(["game", "board", "deals", "cuts", "resumed", "lost", "meters = records", "verdict"],
                [[r["game"], r["board"], r["deals"], r["cuts"], r["resumed"], r["lost"], verdict(r["meters_agree"]),
                  verdict(r["pass"])] for r in mem["rows"]])
    yield "<h2>4. Software identification (GLI's seeded check; issue 30.4)</h2><p>Seeds: %s</p>" % ", ".join(
        "<code>%s</code>" % s for s in ident["seeds"])
    for b in ident["boards"]:
        if b.get("missing"):
            yield "<h3>%s</h3><p>%s</p>" % (html.escape(b["board"]), html.escape(b["missing"]))
            continue
        extra = " UF2 SHA-256 <code>%s</code> (%d bytes)" % (b["uf2_sha256"], b["uf2_bytes"]) if b.get("uf2_sha256") else ""
        yield "<h3>%s</h3><p>%d modules.%s</p>" % (html.escape(b["board"]), len(b.get("modules", {})), extra)
        yield table(["file", "bytes", "SHA-256"], [[p, f["bytes"], "<code>%s</code>" % f["sha256"]] for p, f in b["files"].items()])
        yield table(["seed", "answer: HMAC-SHA256(seed, every byte it runs)"],
                    [["<code>%s</code>" % a["seed"], "<code>%s</code>" % a["answer"]] for a in b["answers"]])


def write(out, summary, cells32):
    figs = plots.all_figures(summary, cells32)
    for name, fig in figs:
        fig.tight_layout()
        fig.savefig(out / name, dpi=100)
    head = "<h1>Tapis %s · a laboratory's submission pack</h1><p>%s · seed %d · %s · overall: %s</p>" % (
        html.escape(summary["version"]), html.escape(summary["made"]), summary["seed"],
        "quick" if summary["quick"] else "full", verdict(summary["pass"]))
    body = "\n".join(sections(summary))
    (out / "report.html").write_text("<!doctype html><meta charset=utf-8><title>Tapis lab pack</title><style>%s</style>%s%s"
                                     % (STYLE, head, body))
    from matplotlib.backends.backend_pdf import PdfPages

    plt = plots.pyplot()
    with PdfPages(out / "report.pdf", metadata={"Title": "Tapis lab pack", "CreationDate": None}) as pdf:
        page = plt.figure(figsize=(8.27, 11.69))
        lines = ["Tapis %s: a laboratory's submission pack" % summary["version"], "", "seed %d, %s" % (
            summary["seed"], "quick" if summary["quick"] else "full"), ""]
        for k in ("shuffle", "mathsheet", "memory", "identity"):
            v = summary[k].get("pass")
            lines.append("%-10s %-8s %7.0f s" % (k, "pass" if v else "not run" if v is None else "FAIL",
                                                   summary[k].get("seconds", 0)))
        lines += ["", "The tables are in report.html and summary.json; the raw files beside them."]
        page.text(0.08, 0.92, "\n".join(lines), va="top", family="monospace", fontsize=10)
        pdf.savefig(page)
        for _name, fig in figs:
            pdf.savefig(fig)
            plt.close(fig)
        plt.close(page)
