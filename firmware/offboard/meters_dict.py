# The meters (firmware/meters/tally.py's Tally, laid out by firmware/meters/layout.py) as the JSON
# of schema tapis.meters/1 (docs/schemas/tapis.meters-1.json), named: what `tapis meters` shows
# (host/memory/meters.py) and what the simulator's oracle of the meters compares with the sums
# over the deal records (simulator/cuts/metersums.py, simulator/cuts/cutsweep.py), which may not import
# the host. Never on a board.
from ..meters.layout import FINISHED, LATER, N, ROLL, SEAT0, TAB0, TABLE, TILT0, TILTS

SEAT = ("wagered", "won", "lost", "pushed", "commission")
_SEATS = TABLE.index("seats")


def as_dict(t):
    """A tally.Tally (the meters and their generation) as tapis.meters/1."""
    m = t.m
    assert len(m) == N

    def row(base):
        return dict((SEAT[i], m[base + i]) for i in range(len(SEAT)))

    out = {"schema": "tapis.meters/1"}  # type: dict
    for i in range(_SEATS):
        out[TABLE[i]] = m[i]
    for i, k in enumerate(LATER):
        out[k] = m[FINISHED + i]
    out["tilts"] = dict((TILTS[i], m[TILT0 + i]) for i in range(len(TILTS)))
    out["seats"] = [dict(seat=s, **row(SEAT0 + 5 * s)) for s in range(max(m[_SEATS], 1))]
    out["tableaux"] = [dict(tableau=t + 1, **row(TAB0 + 5 * t)) for t in range(3)]
    out["bank"] = {"laid": out.pop("laid"), "broken": out.pop("broken"), "won": out.pop("bank_won"),
                   "lost": out.pop("bank_lost")}
    out["rollover"] = ROLL
    out["generation"] = t.gen
    return out
