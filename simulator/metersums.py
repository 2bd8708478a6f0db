# The meters' oracle: what an independent sum over a game's deal records (simulator/kits/*/
# records.py, docs/records.md) says the meters (tapis.meters/1) must be, and the meters as
# their copies and the journal say, compared with it (tests/meters_sums.py, the power-cut
# sweep simulator/cutsweep.py). Nothing here counts as the firmware counts: the records are
# the host's reading of the rules' events.
from tapis.firmware.meters.tally import ROLL, held
from tapis.firmware.offboard.meters_dict import as_dict
from tapis.simulator import kits

FIELDS = ("wagered", "won", "lost", "pushed", "commission")


def _blank(n):
    return [dict([(f, 0) for f in FIELDS], seat=s) for s in range(n)]


def expected(game, records, seats):
    """tapis.meters/1's money and counts, summed from the deal records alone."""
    out = {"deals": sum(1 for r in records if "pending" not in r), "games": 0, "voids": 0, "house": 0, "seats": _blank(seats),
           "bank": {"laid": 0, "broken": 0, "won": 0, "lost": 0}, "tableaux": _blank(3)}
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


def compare(meters, journal, game, records, voided=0):
    """The meters (as their copies and the journal say) against the sum over the records
    and `voided` deals voided outside them (a journal's "v" records): their differences
    (empty: agree)."""
    got = as_dict(held(meters, journal))
    want = expected(game, records, len(got["seats"]))
    want["voids"] += voided
    diff = {}
    for k in want:
        have = got[k]
        if have != want[k]:
            diff[k] = (have, want[k])
    return diff


def records_of(game, options, seed, log, rec=None):
    """The deal records of a game's whole event log, as Metered.records() gives them (rec:
    the recorder to go on with, the last game's: a deal begun in one game of a journal and
    played in the next is one record)."""
    rec = rec or kits.find(game).Recorder(seed, options)
    return rec.feed(list(log)) + tail(rec, options)


def tail(rec, options):
    """The deal in progress's record as far as it went, and club's bank events after its
    last deal (in no record yet)."""
    out = []
    if rec.current is not None:
        out.append(rec.partial())
    if getattr(rec, "pending", None):
        out.append({"bank_events": rec.pending, "settlement": [], "short": [], "broken": False,
                    "options": {"commission": options.commission}, "pending": True})
    return out


def journal_records(data, seed, key, device):
    """(the deal records of every game a journal's bytes hold, each game replayed from its
    journaled inputs, the deals voided in it: its "v" records, whose inputs the replay
    leaves out, which the meters count as voids)."""
    from tapis.firmware.games import find
    from tapis.firmware.games.replay import rebuild
    from tapis.firmware.journal.resume import load
    from tapis.firmware.journal.writer import Journal
    from tapis.firmware.offboard.memstore import MemoryStore
    out, voided, rec, options = [], 0, None, None
    for u in load(Journal(MemoryStore(data), key=key, device=device), True, True):
        voided += len(u["voided"])
        kit = find(u["game"])
        options = kit.Options.restore(u["options"])
        game = kit.Rules(options)
        if u["state"] is not None:
            game.restore(u["state"])
        else:
            rec = None
        rebuild(game, u["inputs"])
        rec = rec or kits.find(u["game"]).Recorder(seed, options)
        out += rec.feed(list(game.log))
    return out + (tail(rec, options) if rec is not None else []), voided
