# What the pages show, read from the database: the floor's rows, one table's page, a deal.
import json

from sqlalchemy import select

from tapis.host.pit import api, checks, figures
from tapis.host.pit.models import Alert, Deal, Event, Meters, Seat, Table

LAST_EVENTS = 20


def row(t):
    """A table's row on the floor, from its database row. Hands per hour: over the time the
    table could deal (ingest.py's dealing_s), so a locked table's stays where it was."""
    return {"table": t.id, "game": t.game, "variant": t.variant, "link": t.link, "state": t.state,
            "connected": t.connected, "deals": t.deals,
            "hands_per_hour": round(t.dealt * 3600 / t.dealing_s, 1) if t.dealt and t.dealing_s > 0 else None,
            "actual": t.actual, "theo": t.theo, "theo_approx": figures.approx(t.theo), "inexact": t.inexact,
            "theo_note": figures.why_not(t.game), "records": t.record_seq, "events": t.event_seq,
            "suspect": t.suspect or None}


def event(e):
    return {"table": e.table_id, "seq": e.seq, "at": e.at, "kind": e.kind, "tilt": e.tilt,
            "detail": e.detail, "who": e.who}


def alerts(s, table_id=None):
    """The pit's own alerts (checks.py), the newest first."""
    q = select(Alert).order_by(Alert.id.desc()).limit(LAST_EVENTS)
    if table_id is not None:
        q = q.where(Alert.table_id == table_id)
    return [checks.as_dict(a.table_id, a.at, a.kind, a.detail, a.first, a.last) for a in s.scalars(q)]


def floor(s):
    tables = s.scalars(select(Table).order_by(Table.id)).all()
    events = s.scalars(select(Event).order_by(Event.at.desc(), Event.id.desc()).limit(LAST_EVENTS)).all()
    return {"schema": api.FLOOR, "tables": [row(t) for t in tables], "events": [event(e) for e in events], "alerts": alerts(s)}


def table(s, table_id, deals=20):
    t = s.get(Table, table_id)
    if t is None:
        return None
    seats = s.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat)).all()
    events = s.scalars(select(Event).where(Event.table_id == table_id)
                       .order_by(Event.seq.desc()).limit(50)).all()
    recent = s.execute(select(Deal.seq, Deal.ended_at).where(Deal.table_id == table_id)
                       .order_by(Deal.seq.desc()).limit(deals)).all()
    return {"schema": api.TABLE, "table": row(t),
            "seats": [{"seat": x.seat, "deals": x.deals, "wagered": x.wagered, "won": x.won, "theo": x.theo or None,
                       "theo_approx": figures.approx(x.theo) if x.theo else None} for x in seats],
            "events": [event(e) for e in events],
            "deals": [{"seq": q, "ended_at": at} for q, at in recent],
            "meters": meters(s, table_id), "alerts": alerts(s, table_id)}


def meters(s, table_id):
    """The board's own meters as last read (tapis.meters/1, with when and the last deal the
    records agreed with them up to), or None: the table gives none (a floor's own table)."""
    m = s.get(Meters, table_id)
    if m is None:
        return None
    return dict(json.loads(m.meters), read_at=m.at, checked_seq=m.checked_seq)


def deal(s, table_id, seq):
    """A stored deal: its record, and the lines tapis recall would tell it in (render.py)."""
    from tapis.host.pit.render import lines

    d = s.scalars(select(Deal).where(Deal.table_id == table_id, Deal.seq == seq)).first()
    if d is None:
        return None
    record = json.loads(d.record)
    return {"schema": api.DEAL, "table": table_id, "seq": seq, "ended_at": d.ended_at, "record": record, "text": lines(record)}
