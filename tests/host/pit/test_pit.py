# tapis pit (issue 31, points 2-5): the floor end to end on SQLite, nothing lost across a link
# cut mid-stream or a pit killed mid-write, the exact theoretical win, bad input refused.
import json
import random
import signal
import subprocess
import sys
import time
from fractions import Fraction

import pytest
from sqlalchemy import create_engine, text

from pit_rig import CREDENTIAL, PitProcess, every_table_dealt, money_is_conserved, nothing_lost
from test_cli_conventions import one_clear_line, tapis

from tapis.host.pit import db, figures
from tapis.host.pit.floor import FloorTable
from tapis.host.pit.floorlink import FloorLink
from tapis.host.pit.ingest import Ingest
from tapis.host.pit.link import LinkRefused
from tapis.host.pit.service import floor_links


def test_a_floor_of_three_end_to_end_on_sqlite(tmp_path):
    path = tmp_path / "pit.db"
    pit = PitProcess("--floor", "3", "--pace", "0.05", db=str(path))
    assert pit.url.startswith("http://127.0.0.1:")  # localhost unless --host says otherwise
    try:
        floor = pit.wait(every_table_dealt(3, 3))
        assert {t["game"] for t in floor["tables"]} == {"ecarte", "club", "piquet"}
        assert all(t["connected"] and t["state"] == "running" for t in floor["tables"])
        assert any(e["kind"] == "power-up" for e in floor["events"])
        club = next(t for t in floor["tables"] if t["game"] == "club")
        assert club["theo"] == "0" and club["theo_note"] is None  # the rules' club: fair, exactly
        page = pit.get("/api/tables/" + club["table"])
        assert [s["seat"] for s in page["seats"]] == [0, 1, 2, 3] and page["deals"]
        told = pit.get("/api/tables/%s/deals/1" % club["table"])
        assert told["record"]["deal"] == 1 and "Tableau 1" in told["text"]
        ecarte = next(t for t in floor["tables"] if t["game"] == "ecarte")
        assert "no exact theoretical win exists per seat" in ecarte["theo_note"]
        # the supervisor's actions: the credential each time, who asked recorded, the table's event
        assert pit.act(club["table"], "disable", credential="guess").status_code == 401
        r = pit.act(club["table"], "disable")
        assert r.status_code == 200 and r.json()["result"] == "disabled"
        pit.wait(lambda f: any(t["table"] == club["table"] and t["state"] == "disabled" for t in f["tables"]))
        r = pit.act(club["table"], "verify")
        assert r.json()["result"] == "software check passed", r.json()
        assert pit.act(club["table"], "enable").json()["result"] == "enabled"
        with pit.http.stream("GET", "/api/stream") as s:  # live: the next round, as the pages get it
            lines = s.iter_lines()
            m = next(json.loads(x[6:]) for x in lines if x.startswith("data: "))
        assert m["type"] == "table" and m["row"]["table"] in {t["table"] for t in floor["tables"]}
    finally:
        assert pit.stop() == 130 and "Traceback" not in pit.stderr, pit.stderr  # Ctrl-C, as every command
    engine = create_engine("sqlite:///%s" % path)
    counts = nothing_lost(engine)
    assert len(counts) == 3 and min(counts.values()) >= 3
    with engine.connect() as c:
        acts = c.execute(text("select action, who, result from pit_action order by id")).all()
        kinds = [k for (k,) in c.execute(text("select kind from pit_event where table_id = :t order by seq"),
                                         {"t": club["table"]})]
    assert acts[0] == ("disable", "admin", "disabled")  # who: the operator signed in; a refusal is counted apart
    with engine.connect() as c:
        assert c.execute(text("select kind, count from pit_refusal")).all() == [("credential", 1)]
    assert {"disabled", "software check", "enabled"} <= set(kinds)
    assert db.revision(engine) == "0006"


def test_a_link_cut_mid_stream_loses_nothing_and_stores_nothing_twice(tmp_path, monkeypatch):
    from tapis.host.pit import ingest as I

    monkeypatch.setattr(I, "RETRY", 0.02)  # a lost link tried again at once: many cuts in 4 s
    engine = db.connect(str(tmp_path / "cut.db"))
    floor, links = floor_links(3, CREDENTIAL, pace=0.0, seed=10)
    ingest = Ingest(db.sessions(engine), links).start()
    rng = random.Random(5)
    try:
        end, most = time.time() + 4, time.time() + 120
        # cables pulled at random, some in the middle of a fetch, for 4 s and until each table
        # dealt more than 5 deals (a loaded machine deals slower)
        while time.time() < end or min(_counts(floor, i)[0] for i in range(3)) <= 5 and time.time() < most:
            k = rng.choice(links)
            if rng.random() < 0.5:
                k.cut_after = rng.randrange(0, 3)
            else:
                k.cut()
            time.sleep(rng.uniform(0.01, 0.1))
        for i in range(3):  # the floor held still, and the pit let catch up
            assert floor.request("act", i, "disable", "test", CREDENTIAL)[0] == "ok"
        deadline = time.time() + 20
        while True:
            seen = [(f.records, f.events) for f in ingest.feeds]
            wanted = [_counts(floor, i) for i in range(3)]
            if seen == wanted:
                break
            assert time.time() < deadline, (seen, wanted)
            time.sleep(0.2)
        ingest.stop()
        counts = nothing_lost(engine)
        assert sum(f.reconnects for f in ingest.feeds) > 3 + 5  # each table connected, then again after cuts
        with engine.connect() as c:
            for i, f in enumerate(ingest.feeds):
                assert counts[f.id] == wanted[i][0] > 5
                stored = [json.loads(r) for (r,) in c.execute(
                    text("select record from pit_deal where table_id = :t order by seq"), {"t": f.id})]
                assert stored == [r for _n, _at, r in floor.request("fetch", i, 0, 0, 10 ** 6)[1]["records"]]
    finally:
        ingest.stop()
        floor.stop()


def _counts(floor, i):
    """(records, events) a floor's table holds."""
    got = floor.request("fetch", i, 0, 0, 10 ** 6)[1]
    return len(got["records"]), len(got["events"])


def test_a_table_refuses_a_pit_without_its_key():
    floor, links = floor_links(1, CREDENTIAL, pace=60.0)
    try:
        with pytest.raises(LinkRefused):
            FloorLink(floor, 0, b"\0" * 32).connect()
        assert links[0].connect()["state"] == "running"
    finally:
        floor.stop()
    t = FloorTable("ecarte", 1, CREDENTIAL)
    with pytest.raises(LinkRefused):  # and the supervisor's action without the credential
        t.act("disable", "someone", "guess")
    assert t.state == "running" and t.logged[-1]["kind"] == "refused"


def test_the_database_survives_the_pit_killed_mid_write(tmp_path):
    path = tmp_path / "kill.db"
    pit = PitProcess("--floor", "6", "--pace", "0", db=str(path))  # flat out: always writing
    pit.wait(every_table_dealt(6, 20))  # then killed while it writes on, flat out
    pit.p.send_signal(signal.SIGKILL)
    pit.p.wait(10)
    pit.http.close()
    engine = create_engine("sqlite:///%s" % path)
    with engine.connect() as c:
        assert c.execute(text("pragma integrity_check")).scalar() == "ok"
    before = nothing_lost(engine)
    engine.dispose()
    again = PitProcess("--floor", "2", "--pace", "0.05", db=str(path))  # restarted on it
    try:
        again.wait(lambda f: len(f["tables"]) == 8 and sum(t["deals"] for t in f["tables"]) > sum(before.values()))
    finally:
        assert again.stop() == 130
    after = nothing_lost(create_engine("sqlite:///%s" % path))
    assert all(after[t] == n for t, n in before.items())  # the old tables' deals whole, as stored


def test_each_deals_money_and_its_exact_theoretical_win_add_up_to_nothing():
    from tapis.simulator.table.emulated import EmulatedTable
    from tapis.simulator import kits
    from tapis.firmware.offboard import named

    p, b = figures.club_chances()
    assert p == b == Fraction(102970087961, 252171840900)  # tapis odds club
    for variant in (None, "commission-5"):
        options = named.options("club", variant) if variant else None
        sim, rec, out = EmulatedTable(3, "club", options=options), kits.find("club").Recorder(3, options), []
        sim.run_deals(25, lambda evs: out.extend(rec.feed(evs)))
        house = sum(money_is_conserved(r).theo for r in out)
        if variant is None:
            assert house == 0
        else:  # the house takes 5 % of each win: (p + b) times each stake's fee, exactly
            fees = sum(a * 5 // 100 for r in out for _s, _t, a in r["stakes"] if figures.of(r).exact)
            assert house == (p + b) * fees and house > 0
    for game in ("ecarte", "piquet"):
        sim, rec, out = EmulatedTable(3, game), kits.find(game).Recorder(3, None), []
        sim.run_deals(6, lambda evs: out.extend(rec.feed(evs)))
        for r in out:
            f = money_is_conserved(r)
            assert f.theo == 0 and all(t is None for _a, _w, t in f.seats.values())
        assert figures.why_not(game)


def test_the_models_are_the_migrations_head(tmp_path):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from tapis.host.pit.models import Base

    engine = db.connect(str(tmp_path / "m.db"))
    with engine.connect() as c:
        assert compare_metadata(MigrationContext.configure(c), Base.metadata) == []


@pytest.mark.parametrize("argv,words", [
    (["--floor", "0"], ["--floor"]),
    (["--floor", "many"], ["--floor", "'many'"]),
    (["--floor", "100000"], ["--floor", "at most"]),
    ([], ["--floor"]),
    (["--floor", "2", "--db", "mysql://u@h/pit"], ["--db", "mysql"]),
    (["--floor", "2", "--db", "not a url://"], ["--db"]),
    (["--floor", "2", "--db", "/no/such/dir/pit.db"], ["--db", "no directory"]),
    (["--floor", "2", "--db", "postgresql+psycopg://nobody@/pit?host=/no/such/socket"], ["--db", "cannot open"]),
    (["--floor", "2", "--tilt-rate", "2"], ["--tilt-rate"]),
    (["--floor", "2", "--timeout", "0"], ["--timeout"]),
    (["--floor", "2", "--db", "README.md"], ["--db", "cannot open", "not a database"]),
    (["--floor", "2", "--host", "no.such.host.invalid", "--insecure"], ["cannot listen"]),
    (["--floor", "2", "--host", "0.0.0.0"], ["--host", "--tls-cert", "--insecure"]),  # a network: TLS, or said
    (["--floor", "2", "--tls-cert", "README.md"], ["--tls-cert", "--tls-key"]),
    (["--floor", "2", "--tls-cert", "README.md", "--tls-key", "README.md"], ["--tls-cert", "not a certificate"]),
    (["--floor", "2", "--variant", "commission-5"], ["--variant", "--game"]),
    (["--floor", "2", "--game", "club", "--variant", "nonesuch"], ["nonesuch"]),
])
def test_bad_input_exits_2_in_one_clear_line(argv, words):
    one_clear_line(tapis("pit", *argv, timeout=60), *words)


def test_a_port_in_use_is_one_clear_line(tmp_path):
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    try:
        one_clear_line(tapis("pit", "--floor", "1", "--db", str(tmp_path / "p.db"), "--port",
                             str(s.getsockname()[1]), timeout=60), "cannot listen")
    finally:
        s.close()
