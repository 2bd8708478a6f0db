# The meters (firmware/meters/holder.py, counted by firmware/meters/tally.py) as tapis meters shows them:
# the JSON of schema tapis.meters/1 (docs/schemas/tapis.meters-1.json), and as text.
from tapis.firmware.meters.tally import SEAT0, TAB0, TILTS
from tapis.firmware.offboard.meters_dict import SEAT, TABLE, as_dict  # noqa: F401 (the layout, with the sums' oracle)

_SEATS = TABLE.index("seats")
_TILT0 = len(TABLE)


SAID = {"deals": "deals begun", "power_ups": "power-ups", "laid": "banks laid", "broken": "banks broken",
        "bank_won": "bank won", "bank_lost": "bank lost"}


def labelled(m):
    """The meters (tally.py's order) as [(label, value)]: "deals begun", ..., "seat 0 wagered"."""
    out = [(SAID.get(TABLE[i], TABLE[i]), m[i]) for i in range(min(_SEATS + 1, len(m)))]
    out += [("tilts " + TILTS[i], m[_TILT0 + i]) for i in range(len(TILTS)) if _TILT0 + i < len(m)]
    for base, who, n in ((SEAT0, "seat %d", 8), (TAB0, "tableau %d", 3)):
        for k in range(n):
            out += [((who + " %s") % (k + (base == TAB0), SEAT[i]), m[base + 5 * k + i])
                    for i in range(len(SEAT)) if base + 5 * k + i < len(m)]
    return out


LEGEND = (  # what each meter counts (docs/protocol.md "Meters" has the records each sums)
    "deals begun: a deal counts when it begins (a deal's end begins the next: the one under way is "
    "counted): the deals finished are those begun less those voided, less the one under way if any",
    "games: games finished;  voids: deals voided (a power loss mid-deal, the supervisor, the laws)",
    "power-ups: times the table was switched on;  overrides: the supervisor's rules actions and voids",
    "house: club money moved to the house (commission);  banks laid, broken: club banks set up, broken;"
    "  bank won, lost: what the banks won and lost against the punters",
    "tilts: by class: ram (critical memory), software (the software check), journal, door, shoe, bus, other",
    "wagered: stakes settled (ecarte: a payment counts for both seats; club: each stake, one that never "
    "played, off, included)",
    "won, lost: what the seat won, lost;  pushed: stakes given back: a push, or off: a stake that never "
    "played (the bank was broken before it)",
    "commission: the house's cut of the seat's club winnings;  tableau 1-3: club, the same by the tableau "
    "staked on",
    "generation: how many times the two copies of the meters were written;  every meter rolls over to 0 at "
    "its roll-over value",
)


def text(d, legend=False):
    """The supervisor's meters screen, as lines of text (tapis meters, tapis play's key);
    legend: with what each column counts (LEGEND) after it."""
    lines = ["meters (roll over at %d)  generation %d" % (d["rollover"], d["generation"]),
             "deals begun %d  games %d  voids %d  power-ups %d  overrides %d  house %d" % (
                 d["deals"], d["games"], d["voids"], d["power_ups"], d["overrides"], d["house"])]
    b = d["bank"]
    if any(b.values()):
        lines.append("banks laid %d  broken %d  bank won %d  lost %d" % (b["laid"], b["broken"], b["won"], b["lost"]))
    lines.append("tilts " + "  ".join("%s %d" % kv for kv in d["tilts"].items()))
    lines.append("%-10s %10s %10s %10s %10s %10s" % (("",) + SEAT))
    for s in d["seats"]:
        lines.append("%-10s %10d %10d %10d %10d %10d" % (("seat %d" % s["seat"],) + tuple(s[k] for k in SEAT)))
    for t in d["tableaux"]:
        if t["wagered"]:
            lines.append("%-10s %10d %10d %10d %10d %10d" % (("tableau %d" % t["tableau"],) + tuple(t[k] for k in SEAT)))
    if legend:
        lines += [""] + ["  " + line for line in LEGEND]
    return lines
