# What the pit's BoardLink (boardlink.py) asks a board in one fetch, over its session:
#   meters(link)             METERS: the board's own meters (its critical memory, counted over
#                            its whole life since its last RAM clear), as tapis.meters/1;
#   deals(link, since, ...)  DEALS: the finished deals after `since`, and the deals the
#                            journal compacted away before the pit asked (it keeps its last
#                            KEEP games: a pit further behind finds them gone);
#   fetch(link, ...)         both, the events, and whether the meters count exactly the
#                            records given (they were read before and after, and agree);
#                            the last event the pit stored is asked again, its "mark": if the
#                            board no longer has it as it was, its log was begun anew (a RAM
#                            clear numbers deals and events from 1 again: ingest.py).
import time

from tapis.firmware.eventlog import log as E
from tapis.firmware import wire as W
from tapis.firmware.operator import hostframes as H

# the board's tilts (its log marks those that lock; an attack or a shoe's fault is one too, and
# the host's own disable is none): the pit's alerts
_TILTS = E.LOCKS + (E.ATTACK, E.SHOE)
_MAX_GAMES = 255  # a DEALS asks for this many games at most (a byte)


def event(e):
    """A board's event log entry as the pit stores it."""
    d, at = e.get("d", ""), e.get("t", 0)  # (its clock: seconds since boot on a board without one)
    return {"seq": e["n"], "at": at if isinstance(at, (int, float)) and at > 1e9 else time.time(),
            "mark": marked(e), "kind": e["c"], "tilt": e["c"] in _TILTS or bool(e.get("l")) and e["c"] != H.DISABLED,
            "who": e.get("w") or "", "detail": d if isinstance(d, str) else str(d)}


def collect(chunks, frames):
    """RECORD frames [i, n, k, kn] + JSON chunks gathered into `chunks`: the answer's
    entries once it is whole ([] for [0, 0, 0, 0]), else None."""
    import json

    from tapis.firmware import wire as W
    for _a, _s, t, p in frames:
        if t != W.RECORD or len(p) < 4:
            continue
        if p[1] == 0:
            return []
        chunks.setdefault("n", p[1])
        chunks.setdefault(p[0], {})[p[2]] = (p[3], bytes(p[4:]))
    n = chunks.get("n")
    if n is None or len(chunks) - 1 < n or any(len(chunks[i]) != next(iter(chunks[i].values()))[0]
                                                for i in range(n) if i in chunks):
        return None
    return [json.loads(b"".join(chunks[i][k][1] for k in sorted(chunks[i]))) for i in range(n)]


def meters(link):
    """The board's meters (METERS, one METERED frame: a copy's bytes, brought up to the
    journal's end) as tapis.meters/1, or None: the board keeps none. LinkLost if it is silent."""
    from tapis.firmware import wire as W
    from tapis.firmware.meters.tally import parse
    from tapis.host.memory.meters import as_dict
    got = link.answer(W.METERS, b"", W.METERED)
    t = parse(bytes(got)) if got else None
    return as_dict(t) if t is not None else None


def deals(link, since, limit=500):
    """([(deal, when it came, deal record)] of the finished deals after `since`, gap): the
    last games asked for, one more each time, until their first deal reaches back to since
    + 1 or the board has no more. gap: (first, last), the deals after `since` the board no
    longer keeps (its journal compacted them), or None; the records then begin after it."""
    from tapis.host.memory.games import deal_records
    n = 1
    while True:
        games = link.ask(W.DEALS, since.to_bytes(4, "big") + bytes((n,)))
        if not games:
            return [], None
        recs = [r for r in deal_records(games) if r.get("complete", True)]
        first = min(r["deal"] for r in recs) if recs else since + 2
        if first <= since + 1 or len(games) < n or n >= _MAX_GAMES:
            break
        n += 1
    gap = None
    if recs and first > since + 1 and len(games) < n:  # all the board keeps, and it begins after since + 1
        gap, since = (since + 1, first - 1), first - 1
    now, out, want = time.time(), [], since + 1
    for r in sorted(recs, key=lambda r: r["deal"]):
        if r["deal"] == want and len(out) < limit:
            out.append((want, now, r))
            want += 1
    return out, gap


def fetch(link, records, events, limit=500):
    """link.TableLink.fetch's answer from a board: the meters read before and after the
    deals, so that "whole" says they count exactly the finished deals up to the last given
    (nothing was committed between: the same generation, the same values); "over", the deals
    over its journal holds, as its last NOTICE said (sent before any answer that gives more)."""
    from tapis.firmware import wire as W
    from tapis.firmware.operator.clears import PAGE
    before = meters(link)
    evs, since = [], max(events - 1, 0)  # (from the last event stored: it comes again, its mark)
    mark = None
    while len(evs) < limit:
        got = link.ask(W.EVENTS, (since + len(evs)).to_bytes(4, "big"))
        mark = mark or [e for e in got if e["n"] == events]
        evs += [event(e) for e in got if e["n"] > events + len(evs)]
        if len(got) < PAGE:
            break
    recs, gap = deals(link, records, limit)
    after = meters(link) if before is not None else None
    if after is not None:
        after["whole"] = after == before and len(recs) < limit
    return {"records": recs, "events": evs[:limit], "state": link.state, "meters": after, "gap": gap,
            "mark": marked(mark[0]) if mark else None, "over": link.counts[0]}


def marked(e):
    """What tells an entry of the board's event log from another of the same number: the
    mark the pit compares to see whether the log it follows was begun anew (a RAM clear)."""
    return "%s|%s|%s|%s" % (e["n"], e.get("t"), e["c"], e.get("d"))
