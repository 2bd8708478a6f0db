# The meters (firmware/meters.py) as tapis meters shows them: the JSON of schema
# tapis.meters/1 (docs/schemas/tapis.meters-1.json), and as text.
from tapis.firmware.meters import N, ROLL, SEAT, SEAT0, TAB0, TABLE, TILTS

_SEATS = TABLE.index("seats")
_TILT0 = len(TABLE)


def as_dict(m, generation=None):
    """The meters `m` (a Meters, or its list of N ints) as tapis.meters/1."""
    if not isinstance(m, list):
        m, generation = m.m, m.gen
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
    if generation is not None:
        out["generation"] = generation
    return out
