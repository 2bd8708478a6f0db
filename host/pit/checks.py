# The board's own meters kept in the pit's database (models.Meters), the sum of the deal
# records checked against them, and the pit's own alerts (models.Alert). The board's meters
# are the authoritative figures: its critical memory, counted over every deal since its last
# RAM clear, where its journal (and so the records a pit can fetch) keeps the last 10 games
# only. The records' sums stay as the cross-check: between two readings of the meters that
# each counted exactly the records stored up to then (boardfetch.fetch's "whole"), each
# seat's wagered must have moved by what the records stored between say. A seat's won is
# not compared: a club banker's winnings are the bank's meters, not the seat's.
import json

from tapis.firmware.meters.tally import ROLL
from tapis.host.pit.models import Alert, Meters

COMPACTED = "deals %d..%d compacted away before the pit fetched them"


class Check:
    """The cross-check between readings: at deal `seq` the board's meters (their deals meter
    `deals`) said `wagered` {seat: n}; `summed` {seat: n} is what the records stored since add
    up to. seq None: no reading to check from yet (a pit just started, a gap)."""

    def __init__(self, seq=None, deals=0, wagered=None):
        self.seq, self.deals, self.wagered, self.summed = seq, deals, wagered or {}, {}

    def copy(self):
        c = Check(self.seq, self.deals, self.wagered)
        c.summed = dict(self.summed)
        return c

    def add(self, fig):
        """One stored record's figures (figures.of)."""
        for k, (wagered, _won, _theo) in fig.seats.items():
            self.summed[k] = self.summed.get(k, 0) + wagered


def alert(s, t, kind, detail, now, first=0, last=0):
    """One pit alert stored; its message for the pages."""
    s.add(Alert(table_id=t.id, at=now, kind=kind, detail=detail, first=first, last=last))
    return as_dict(t.id, now, kind, detail, first, last)


def as_dict(table, at, kind, detail, first=0, last=0):
    return {"table": table, "at": at, "kind": kind, "detail": detail, "first": first, "last": last}


def compacted(s, t, gap, now):
    """Deals gap[0]..gap[1] gone from the board's journal before the pit asked for them."""
    return alert(s, t, "compacted", COMPACTED % gap, now, gap[0], gap[1])


def wagered(m):
    return {x["seat"]: x["wagered"] for x in m["seats"]}


def meters(s, t, m, seq, check, now):
    """The board's meters `m` (tapis.meters/1, "whole": they count exactly the records up to
    deal `seq`) kept; checked against the records since the last whole reading: (the check
    from here, [alert messages])."""
    whole = m.pop("whole", False)
    row = s.get(Meters, t.id)
    if row is None:
        row = Meters(table_id=t.id, checked_seq=0)
        s.add(row)
    row.at, row.generation, row.meters = now, m["generation"], json.dumps(m)
    if not whole:
        return check, []
    out = []
    if check.seq is not None and m["deals"] >= check.deals:  # (fewer: a RAM clear began them anew)
        said = wagered(m)
        for k in sorted(set(said) | set(check.summed)):
            board = (said.get(k, 0) - check.wagered.get(k, 0)) % ROLL
            records = check.summed.get(k, 0) % ROLL
            if board != records:
                out.append(alert(s, t, "meters", "seat %d: the board's meters say %d wagered over deals %d..%d, "
                                 "the deal records %d" % (k, board, check.seq + 1, seq, records), now,
                                 check.seq + 1, seq))
        if not out:
            row.checked_seq = seq
    return Check(seq, m["deals"], wagered(m)), out
