# The meters (firmware/meters/holder.py, counted by firmware/meters/tally.py) as tapis meters shows them:
# the JSON of schema tapis.meters/1 (docs/schemas/tapis.meters-1.json), and as text.
from tapis.firmware.meters.tally import N, ROLL, SEAT0, TAB0, TILTS

TABLE = ("deals", "games", "voids", "power_ups", "house", "overrides", "laid", "broken", "bank_won",
         "bank_lost", "seats")  # tally.py's order
SEAT = ("wagered", "won", "lost", "pushed", "commission")
_SEATS = TABLE.index("seats")
_TILT0 = len(TABLE)


def as_dict(t):
    """A tally.Tally (the meters and their generation) as tapis.meters/1."""
    m = t.m
    assert len(m) == N

    def row(base):
        return dict((SEAT[i], m[base + i]) for i in range(len(SEAT)))

    out = {"schema": "tapis.meters/1"}
    for i in range(_SEATS):
        out[TABLE[i]] = m[i]
    out["tilts"] = dict((TILTS[i], m[_TILT0 + i]) for i in range(len(TILTS)))
    out["seats"] = [dict(seat=s, **row(SEAT0 + 5 * s)) for s in range(max(m[_SEATS], 1))]
    out["tableaux"] = [dict(tableau=t + 1, **row(TAB0 + 5 * t)) for t in range(3)]
    out["bank"] = {"laid": out.pop("laid"), "broken": out.pop("broken"), "won": out.pop("bank_won"),
                   "lost": out.pop("bank_lost")}
    out["rollover"] = ROLL
    out["generation"] = t.gen
    return out


def text(d):
    """The supervisor's meters screen, as lines of text (tapis meters, tapis play's key)."""
    lines = ["meters (roll over at %d)  generation %d" % (d["rollover"], d["generation"]),
             "deals %d  games %d  voids %d  power-ups %d  overrides %d  house %d" % (
                 d["deals"], d["games"], d["voids"], d["power_ups"], d["overrides"], d["house"])]
    b = d["bank"]
    if any(b.values()):
        lines.append("banks laid %d  broken %d  bank won %d  lost %d" % (b["laid"], b["broken"], b["won"], b["lost"]))
    lines.append("tilts " + "  ".join("%s %d" % kv for kv in d["tilts"].items()))
    lines.append("%-8s %10s %10s %10s %10s %10s" % (("",) + SEAT))
    for s in d["seats"]:
        lines.append("%-8s %10d %10d %10d %10d %10d" % (("seat %d" % s["seat"],) + tuple(s[k] for k in SEAT)))
    for t in d["tableaux"]:
        if t["wagered"]:
            lines.append("%-8s %10d %10d %10d %10d %10d" % (("tab. %d" % t["tableau"],) + tuple(t[k] for k in SEAT)))
    return lines
