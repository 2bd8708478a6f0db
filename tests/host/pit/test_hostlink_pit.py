"""tapis pit speaking to boards (issue 31.1): the pit's BoardLink over a keyed operator's link,
in process (a door tilt on the board is a pit alert) and over a pty (`tapis table
--host-port`): records and events ingested with no gap and no duplicate across cut links;
disable, enable and clear through the pit."""
import os
import subprocess
import sys
import time

from sqlalchemy import text

from tapis.firmware.eventlog import log as E
from tapis.host.pit import db
from tapis.host.pit.boardlink import BoardLink
from tapis.host.pit.ingest import Ingest
from helpers import within
from test_hostlink import wire_host
from test_tilts import rig, step


def stored(engine, what):
    with engine.connect() as c:
        return c.execute(text("select seq, %s from pit_%s order by seq" % (
            "kind, tilt, who" if what == "event" else "ended_at", what))).all()


def pit_on_board(tmp_path):
    """A CPython table, its keyed operator's link, and a pit on it that fetched once:
    (the table, the board's end, the wire, the pit's BoardLink, the database, the ingest)."""
    t = rig()
    step(t, 1000)
    board, port = wire_host(t, t.key)
    link = BoardLink(port=port, key=t.key, step=t.step, name="board-1")
    engine = db.connect(str(tmp_path / "pit.db"))
    ingest = Ingest(db.sessions(engine), [link])
    ingest.round()
    return t, board, port, link, engine, ingest


def test_a_door_tilt_on_the_board_is_a_pit_alert(tmp_path):
    t, _b, _port, link, engine, ingest = pit_on_board(tmp_path)
    t.controller.tilt(E.DOOR, "the door opened")
    for _ in range(200):
        link._poll()
        t.step()
    assert ingest.feeds[0].news  # the board's NOTICE woke the pit
    ingest.round()
    evs = stored(engine, "event")
    assert [e[0] for e in evs] == list(range(1, len(evs) + 1))
    assert ("door-open", True) in [(e[1], bool(e[2])) for e in evs]
    with engine.connect() as c:
        assert c.execute(text("select state from pit_table")).scalar() == "locked"


def _table(tmp_path, monkeypatch):
    """`tapis table --host-port` with a journal (its deals and events are what the board
    answers), its device key in a key store of the test's: (the process, the pty, the device)."""
    import glob
    keys = tmp_path / "keys"
    keys.mkdir()
    monkeypatch.setenv("TAPIS_KEY_DIR", str(keys))
    path = str(tmp_path / "host-port")
    p = subprocess.Popen([sys.executable, "-m", "tapis", "table", "--host-port", path, "--journal",
                          str(tmp_path / "t.jnl"), "--deals", "5000", "--seed", "5", "--json", "--quiet"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         cwd=os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")))
    deadline = time.time() + 30
    while not os.path.exists(path):
        assert p.poll() is None and time.time() < deadline, p.stderr.read()
        time.sleep(0.05)
    return p, path, os.path.basename(glob.glob(str(keys / "*.key"))[0])[:-4]


def test_the_pit_ingests_a_board_over_a_pty_across_cut_links(tmp_path, monkeypatch):
    from tapis.host.pit import ingest as I
    monkeypatch.setattr(I, "RETRY", 0.05)
    monkeypatch.setattr(I, "POLL", 0.2)
    from tapis.host.pit.service import board_links
    table, path, device = _table(tmp_path, monkeypatch)
    engine = db.connect(str(tmp_path / "pit.db"))
    link, = board_links([path], [device])  # its key from the key store
    ingest = Ingest(db.sessions(engine), [link]).start()
    try:
        deadline = time.time() + 60
        cuts = 0
        while len(stored(engine, "deal")) < 4 or cuts < 3:
            assert time.time() < deadline and table.poll() is None, stored(engine, "deal")
            time.sleep(0.5)
            if link.port is not None and len(stored(engine, "deal")) >= cuts:
                link.port.close()  # the cable pulled, in the middle of whatever was going on
                cuts += 1
        deadline = time.time() + 20  # (a cut can land while a reconnect is still storing the table's row,
        while ingest.feeds[0].reconnects < 2:  # before it counts: a fresh run's race, 5 December)
            assert time.time() < deadline, ingest.feeds[0].reconnects
            time.sleep(0.1)
        said = link.act("disable", "sup", "cred")  # (the pit's web.py checked the credential)
        assert "disabled" in said
        assert "nothing" in link.act("clear", "sup", "cred")
        # play stops (the board's NOTICE says so: no seat's press is taken after it, so no deal
        # ends), then the pit catches up with the numbers the board's NOTICE gives
        within(30, lambda: link.state == "disabled", "the board's NOTICE that play is disabled")
        deadline = time.time() + 20
        while (ingest.feeds[0].records, ingest.feeds[0].events) != link.counts:  # what the board's NOTICE says
            assert time.time() < deadline, ((ingest.feeds[0].records, ingest.feeds[0].events), link.counts)
            time.sleep(0.2)
        deals, evs = stored(engine, "deal"), stored(engine, "event")
        assert [d[0] for d in deals] == list(range(1, len(deals) + 1)) and len(deals) == link.counts[0]
        assert [e[0] for e in evs] == list(range(1, len(evs) + 1))
        assert ("disabled", "host:tapis-pit") in [(e[1], e[3]) for e in evs]
        assert link.state == "disabled"
        def checked():
            with engine.connect() as c:
                return c.execute(text("select checked_seq from pit_meters")).scalar() or 0
        # the board's meters read at each of the pit's rounds, and the records' sums agree with them
        within(20, lambda: checked() > 0, "the pit's check of the records against the board's meters")
        with engine.connect() as c:
            assert c.execute(text("select kind, detail from pit_alert")).all() == []
        assert "clear" in link.act("enable", "sup", "cred")
    finally:
        ingest.stop()
        link.close()
        table.terminate()
        table.wait(10)


def test_frames_forged_on_the_operators_link_are_a_pit_alert(tmp_path):
    """A host without the key, writing on the same wire as the pit: its frames refused and
    counted by the board, a burst of them logged as a bus attack, which the pit shows."""
    from tapis.firmware.link import frames as F
    from tapis.firmware import wire as W
    t, board, port, link, engine, ingest = pit_on_board(tmp_path)
    for i in range(40):  # (unsealed: no session, no MAC)
        port.write(F.encode(W.HOST, i + 1, W.BUTTON, bytes((5, 2))))
        t.step()
    step(t, 2000)
    assert board.forged >= 40 and "disabled" not in t.controller.locked
    for _ in range(200):
        link._poll()
        t.step()
    ingest.round()
    evs = {e[1]: bool(e[2]) for e in stored(engine, "event")}
    assert evs.get("bus-attack") is True, evs  # a tilt: the pit's alert


def test_the_supervisors_actions_through_the_pits_web_need_the_credential(tmp_path):
    """disable, enable and clear on a board through the pit's web (its credential checked on
    every action, then the board's session), each on the board's log with who."""
    import warnings

    from tapis.host.pit.service import Pit
    from tapis.host.pit.web import app
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    t = rig()
    step(t, 1000)
    _b, port = wire_host(t, t.key)
    link = BoardLink(port=port, key=t.key, step=t.step, name="board-1")
    from tapis.host.pit import accounts
    pit = Pit(db.connect(str(tmp_path / "pit.db")), [link], "s3cret")
    accounts.add(pit.sessions, "ann", "supervisor", "ann-s3cret")  # an operator, signed in (issue 45.1)
    pit.ingest.round()
    web = TestClient(app(pit, ["testserver"]))
    assert web.post("/login", data={"name": "ann", "password": "ann-s3cret"}, follow_redirects=False).status_code == 303
    web.headers["X-CSRF-Token"] = web.get("/api/me").json()["csrf"]
    r = web.post("/api/tables/board-1/disable", json={"credential": "wrong"})
    assert r.status_code == 401 and t.controller.locked == []
    r = web.post("/api/tables/board-1/disable", json={"credential": "ann-s3cret"})
    assert r.status_code == 200 and "disabled" in r.json()["result"] and t.controller.locked == ["disabled"]
    r = web.post("/api/tables/board-1/clear", json={"credential": "ann-s3cret"})
    assert r.status_code == 200 and t.controller.locked == ["disabled"]  # a tilt clear leaves it
    r = web.post("/api/tables/board-1/enable", json={"credential": "ann-s3cret"})
    assert r.status_code == 200 and t.controller.locked == []
    pit.ingest.feeds[0].news = True
    pit.ingest.round()
    kinds = [e[1] for e in stored(pit.engine, "event")]
    assert "disabled" in kinds and kinds[-1] == "clear"


def test_the_pits_software_check_of_an_emulated_board_passes(tmp_path, monkeypatch):
    """Issue 46.2: tapis table --host-port answers VERIFY over the firmware files it runs
    (CHECKED 02, no manifest); the pit's board link expects the same from this install's."""
    from tapis.host.pit.service import board_links
    table, path, device = _table(tmp_path, monkeypatch)
    link, = board_links([path], [device])
    try:
        seed = "0123456789abcdef0123456789abcdef"
        got = link.act("verify", "sup", "cred", seed)
        assert link.emulated and got == link.expected(seed)
        assert link.expected("ff" * 16) != got  # another seed, another answer
    finally:
        link.close()
        table.terminate()
        table.wait(10)
