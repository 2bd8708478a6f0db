"""tapis pit on a board whose journal keeps only its last 10 games (issue 31, points 2-3): the
pit shows the board's own meters (its critical memory, over every deal since its last RAM
clear), not the sum of the records it could still fetch, and checks that sum against them; a
pit that comes after the journal compacted deals away records the gap as an alert, with its
numbers, and goes on live with no duplicate and no other gap."""
import json

import pytest
from sqlalchemy import text

from tapis.firmware.journal.writer import KEEP
from tapis.firmware.meters.tally import held
from tapis.host.memory.meters import as_dict
from tapis.host.pit import db, queries
from tapis.host.pit.boardlink import BoardLink
from tapis.host.pit.ingest import Ingest
from helpers import until
from test_hostlink import wire_host
from test_meters_power import MeteredRig


def rig(seed=3, game="ecarte"):
    """A table whose journal keeps the meters, as a board's does."""
    return MeteredRig(seed, game)


def games(t, n):
    """Step the table until its journal has begun n games past the first."""
    while t.controller.journal.number < n:
        t.step()


def pit_after(tmp_path, t):
    """A pit started now on the table: (its BoardLink, its engine, its ingest), one round done."""
    _board, port = wire_host(t, t.key)
    link = BoardLink(port=port, key=t.key, step=t.step, name="board-1")
    engine = db.connect(str(tmp_path / "pit.db"))
    ingest = Ingest(db.sessions(engine), [link])
    ingest.round()
    return link, engine, ingest


def rounds(ingest, n=3):
    """n rounds of the pit, each fetching the table (as its NOTICE or the poll would have it)."""
    for _ in range(n):
        ingest.feeds[0].news = True
        ingest.round()


def pit_until(ingest, done):
    """The pit's rounds until done(): a reading of the board's meters is not "whole" (not
    checked) when a deal ended while the pit fetched, and the table plays on between the
    pit's questions as many steps as the link's timing takes."""
    until(lambda: rounds(ingest, 1), done, 60, "rounds of the pit")  # (a club deal can end at every fetch: 20 ran out once under load)


def board_meters(t):
    j = t.controller.journal
    j.flush()
    return as_dict(held(j.meters, j))


def deals_stored(engine):
    with engine.connect() as c:
        return [r[0] for r in c.execute(text("select seq from pit_deal order by seq"))]


def alerts(engine):
    with engine.connect() as c:
        return c.execute(text("select kind, detail, first, last from pit_alert order by id")).all()


def page(engine):
    with db.sessions(engine)() as s:
        return queries.table(s, "board-1")


@pytest.mark.parametrize("game", ["ecarte", "club"])
def test_the_table_page_shows_the_boards_meters_not_the_kept_records_sum(tmp_path, game):
    t = rig(game=game)
    games(t, KEEP + 4)  # more games than the journal keeps: the first deals are gone from it
    link, engine, ingest = pit_after(tmp_path, t)
    if page(engine)["meters"] is None:  # (a round that timed out under load: the next reads them)
        pit_until(ingest, lambda: page(engine)["meters"] is not None)
    p = page(engine)
    board = board_meters(t)
    shown = {x["seat"]: x["wagered"] for x in p["meters"]["seats"]}
    assert shown == {x["seat"]: x["wagered"] for x in board["seats"]} and sum(shown.values()) > 0
    summed = {x["seat"]: x["wagered"] for x in p["seats"]}
    assert summed != shown  # the records kept are fewer than the meters count
    assert p["meters"]["deals"] >= t.controller.game.finished_deals() > len(deals_stored(engine))
    # the sum over the records the pit stores from here is checked against the meters
    games(t, KEEP + 8)
    pit_until(ingest, lambda: page(engine)["meters"]["checked_seq"] == deals_stored(engine)[-1])
    assert [a for a in alerts(engine) if a[0] == "meters"] == []


def test_a_disagreement_between_the_meters_and_the_records_is_a_pit_alert(tmp_path, monkeypatch):
    from tapis.host.pit import figures
    t = rig()
    games(t, 2)
    link, engine, ingest = pit_after(tmp_path, t)
    pit_until(ingest, lambda: ingest.feeds[0].check.seq is not None)  # (read whole before they go short)
    real = figures.of

    def short(record):  # the records the pit fetches say a seat wagered less than the board counted
        f = real(record)
        for row in f.seats.values():
            row[0] = max(row[0] - 1, 0)
        return f

    monkeypatch.setattr(figures, "of", short)
    games(t, 5)
    pit_until(ingest, lambda: [a for a in alerts(engine) if a[0] == "meters"])
    got = [a for a in alerts(engine) if a[0] == "meters"]
    assert got and "the board's meters say" in got[0][1] and "the deal records" in got[0][1]
    assert page(engine)["alerts"][0]["kind"] == "meters"


def test_a_ram_clear_on_the_board_is_no_meters_alert(tmp_path):
    """The board's meters all 0 again (their generation goes on): the check starts afresh."""
    from tapis.firmware.operator.clears import ram_clear
    t = rig()
    games(t, 2)
    link, engine, ingest = pit_after(tmp_path, t)
    games(t, 3)
    pit_until(ingest, lambda: page(engine)["meters"]["checked_seq"] > 0)
    ram_clear(t.controller, "usb")
    games(t, 1)
    rounds(ingest)
    assert [a for a in alerts(engine) if a[0] == "meters"] == [] and page(engine)["meters"]["deals"] < 5


def test_after_a_ram_clear_the_pit_goes_on_numbering_after_what_it_stored(tmp_path):
    """The board numbers its deals and events from 1 again after a RAM clear; the pit sees
    its meters begin again, says so once (an alert naming where the new numbers begin), and
    stores what follows after what it held: no stall, no duplicate, no gap, nothing dropped."""
    from tapis.firmware.operator.clears import ram_clear
    from test_meters_log import Metered
    t = Metered()  # (with an event log: the board's RAM clear begins a new one)
    games(t, 2)
    link, engine, ingest = pit_after(tmp_path, t)
    rounds(ingest)
    before, events = deals_stored(engine), events_stored(engine)
    assert before and events
    ram_clear(t.controller, "usb")
    games(t, 3)
    rounds(ingest, 5)
    after, evs = deals_stored(engine), events_stored(engine)
    done = t.controller.game.finished_deals()
    assert done >= 2 and after == list(range(1, len(before) + done + 1))  # the new deals after the old
    with engine.connect() as c:
        recs = [json.loads(r[0])["deal"] for r in c.execute(text("select record from pit_deal order by seq"))]
    assert recs == before + list(range(1, done + 1))  # each the board's own record, once
    assert [n for n, _k in evs] == list(range(1, len(evs) + 1)) and len(evs) > len(events)
    assert evs[len(events)][1] == "ram-clear"  # the new log's first entry, right after the old log's
    (kind, detail, a, b), = [a for a in alerts(engine) if a[0] == "ram-clear"]
    assert (a, b) == (len(before) + 1, len(events) + 1) and "RAM clear" in detail
    games(t, 4)  # and live from there
    rounds(ingest)
    assert deals_stored(engine) == list(range(1, len(before) + t.controller.game.finished_deals() + 1))


def events_stored(engine):
    with engine.connect() as c:
        return [tuple(r) for r in c.execute(text("select seq, kind from pit_event order by seq"))]


def test_a_pit_behind_the_journal_records_the_gap_and_goes_on_live(tmp_path):
    t = rig()
    games(t, KEEP + 3)
    link, engine, ingest = pit_after(tmp_path, t)
    rounds(ingest)
    stored = deals_stored(engine)
    assert stored, "the pit stalled at the compacted deals"
    first = stored[0]
    assert first > 1 and stored == list(range(first, first + len(stored)))  # no other gap, no duplicate
    (kind, detail, a, b), = alerts(engine)
    assert (kind, a, b) == ("compacted", 1, first - 1)
    assert detail == "deals 1..%d compacted away before the pit fetched them" % (first - 1)
    assert page(engine)["alerts"][0]["detail"] == detail
    games(t, KEEP + 6)  # live from there: the next deals, once each
    done = t.controller.game.finished_deals()
    rounds(ingest)
    stored = deals_stored(engine)
    assert stored == list(range(first, first + len(stored))) and stored[-1] >= done
    assert len(alerts(engine)) == 1
    with engine.connect() as c:
        recs = [json.loads(r[0])["deal"] for r in c.execute(text("select record from pit_deal order by seq"))]
    assert recs == stored


def test_a_board_whose_memory_is_rolled_back_is_an_alert_and_suspect_until_acknowledged(tmp_path):
    """Issue 45.3: an old copy of the board's memory written back (its journal, meters and event
    log as they were some games ago) shows the pit lower readings than it saw: an alert at once,
    the table suspect until a supervisor acknowledges it."""
    from test_meters_log import Metered
    from tapis.host.pit import memory
    from tapis.host.pit.models import Table
    t = Metered()
    games(t, 2)
    link, engine, ingest = pit_after(tmp_path, t)
    rounds(ingest)
    old = [bytearray(x.data) for x in (t.store, t.events_store) + tuple(t.copies)]
    games(t, 5)
    rounds(ingest)
    assert [a for a in alerts(engine) if a[0] == "backwards"] == [] and not page(engine)["table"]["suspect"]
    for x, data in zip((t.store, t.events_store) + tuple(t.copies), old):  # the flash written back
        x.data[:] = data
    t.boot()
    link.close()  # the board rebooted: the pit's link to it begun again, on a new cable
    f = ingest.feeds[0]
    _board, port = wire_host(t, t.key)
    f.link, f.up = BoardLink(port=port, key=t.key, step=t.step, name="board-1"), False
    pit_until(ingest, lambda: page(engine)["table"]["suspect"])
    rounds(ingest)
    back = [a for a in alerts(engine) if a[0] == "backwards"]
    assert len(back) == 1 and "went back" in back[0][1], alerts(engine)  # once, not at every reading
    assert page(engine)["alerts"][0]["kind"] == "backwards"
    with db.sessions(engine)() as s, s.begin():
        said = memory.acknowledge(s, s.get(Table, "board-1"))
    assert said.startswith("acknowledged") and not page(engine)["table"]["suspect"]
    rounds(ingest)  # the next reading is where the board stands now: no new alert
    assert not page(engine)["table"]["suspect"] and len([a for a in alerts(engine) if a[0] == "backwards"]) == 1


def test_a_ram_clear_is_not_memory_going_back(tmp_path):
    from tapis.firmware.operator.clears import ram_clear
    from test_meters_log import Metered
    t = Metered()
    games(t, 2)
    link, engine, ingest = pit_after(tmp_path, t)
    rounds(ingest)
    ram_clear(t.controller, "usb")
    games(t, 3)
    rounds(ingest, 5)
    assert [a for a in alerts(engine) if a[0] == "backwards"] == [] and not page(engine)["table"]["suspect"]


def test_a_journal_put_back_alone_is_an_alert_and_suspect(tmp_path):
    """Issue 45.3, the journal's head: only the journal written back as it was some games ago
    (its meters and event log left as they are). The board resumes from it, its deals over
    fewer than the pit stored: an alert at once and the table suspect. Before, the pit took
    the board's "no deal after yours" as nothing new, and each deal played again under a
    number it held as a repeat, stored already."""
    from test_meters_log import Metered
    t = Metered()
    games(t, 2)
    link, engine, ingest = pit_after(tmp_path, t)
    rounds(ingest)
    old = bytearray(t.store.data)
    games(t, 5)
    pit_until(ingest, lambda: len(deals_stored(engine)) >= t.controller.game.finished_deals())
    assert [a for a in alerts(engine) if a[0] == "backwards"] == [] and not page(engine)["table"]["suspect"]
    t.store.data[:] = old  # the journal alone written back
    t.boot()
    assert t.controller.game.finished_deals() < len(deals_stored(engine))
    link.close()  # the board rebooted: the pit's link to it begun again
    f = ingest.feeds[0]
    _board, port = wire_host(t, t.key)
    f.link, f.up = BoardLink(port=port, key=t.key, step=t.step, name="board-1"), False
    pit_until(ingest, lambda: page(engine)["table"]["suspect"])
    back = [a for a in alerts(engine) if a[0] == "backwards"]
    assert len(back) == 1 and "its journal went back" in back[0][1], alerts(engine)
