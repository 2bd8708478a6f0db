# The meters (firmware/meters/tally.py's Tally) as the JSON of schema tapis.meters/1
# (docs/schemas/tapis.meters-1.json), named: what `tapis meters` shows (host/meters_show.py)
# and what the simulator's oracle of the meters compares with the sums over the deal records
# (simulator/metersums.py, simulator/cutsweep.py), which may not import the host. Never on a board.
from ..meters.tally import N, ROLL, SEAT0, TAB0, TILTS

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

    out = {"schema": "tapis.meters/1"}  # type: dict
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
