# The meters a run must show, summed from its deal records alone (simulator/kits/*/records.py,
# docs/records.md): the oracle of the meters' tests (tests/meters_sums.py) and of tapis lab's
# merge of its workers' meters (host/lab/wagers.py). tapis.meters/1's money and counts.
from tapis.firmware.meters.tally import ROLL
from tapis.simulator import kits

FIELDS = ("wagered", "won", "lost", "pushed", "commission")


def blank(n):
    return [dict([(f, 0) for f in FIELDS], seat=s) for s in range(n)]


def expected(game, records, seats):
    """tapis.meters/1's money and counts, summed from the deal records alone."""
    out = {"deals": sum(1 for r in records if "pending" not in r), "games": 0, "voids": 0, "house": 0, "seats": blank(seats),
           "bank": {"laid": 0, "broken": 0, "won": 0, "lost": 0}, "tableaux": blank(3)}
    s, tab = out["seats"], out["tableaux"]
    for t in tab:
        t["tableau"] = t.pop("seat") + 1
    for k, r in enumerate(records):
        out["voids"] += sum(1 for law in r.get("laws", ()) if law[0] == "void")
        if game == "ecarte":
            out["games"] += "game_over" in r
            if k == 0:  # what was paid before the first deal: pool écarté's antes
                for seat, b in enumerate(r["start"]["balances"]):
                    s[seat]["wagered"] -= min(0, b)
                    s[seat]["lost"] -= min(0, b)
            for payer, payee, n in r["payments"]:
                s[payer]["wagered"] += n
                s[payer]["lost"] += n
                if payee != "pool":
                    s[payee]["wagered"] += n
                    s[payee]["won"] += n
            if "pool_over" in r:
                s[r["pool_over"]["winner"]]["won"] += r["pool_over"]["amount"]
        elif game == "piquet":
            out["games"] += "result" in r
        else:
            o = r["options"]
            out["games"] += sum(1 for e in r["bank_events"] if e[0] == "banker")
            out["bank"]["laid"] += sum(1 for e in r["bank_events"] if e[0] == "lay")
            out["bank"]["broken"] += bool(r["broken"])
            paid = dict(((x["seat"], x["tableau"]), x["paid"]) for x in r["short"])
            for x in r["settlement"]:
                n, net = x["amount"], x["net"]
                if x["outcome"] == "banker":
                    fee = n * o["commission"] // 100
                    col, v = "lost", n
                    out["bank"]["won"] += n - fee
                elif x["outcome"] == "punter":
                    fee = paid.get((x["seat"], x["tableau"]), n) - net
                    col, v = "won", net
                    out["bank"]["lost"] += net + fee
                else:
                    fee, col, v = 0, "pushed", n
                out["house"] += fee
                for row in (s[x["seat"]], tab[x["tableau"] - 1]):
                    row["wagered"] += n
                    row[col] += v
                    row["commission"] += fee
    if game == "club":
        out["games"] -= 1  # the first banker's: the bank a game begins with
    for row in s + tab:
        for f in FIELDS:
            row[f] %= ROLL
    return out


def records_of(game, options, seed, log):
    """The deal records of a game's whole event log, as Metered.records() gives them."""
    rec = kits.find(game).Recorder(seed, options)
    out = rec.feed(list(log))
    if rec.current is not None:
        out.append(rec.partial())
    if getattr(rec, "pending", None):
        out.append({"bank_events": rec.pending, "settlement": [], "short": [], "broken": False,
                    "options": {"commission": options.commission}, "pending": True})
    return out
