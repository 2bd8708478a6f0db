# Who may use the pit (issue 45.1), each attack of the issue as a test: nothing answers without
# a signed-in operator (the pages, the JSON API, the event stream); the session cookie is
# HttpOnly and SameSite (Secure under TLS); every action needs the session's CSRF token and the
# operator's own password again, and is recorded with their name; a viewer cannot act; a page
# elsewhere cannot read the API through DNS rebinding (the Host checked); guessing passwords
# costs a growing wait and a lockout, and the refusals are counted, not a row each.
import subprocess
import sys

import httpx
import pytest
from sqlalchemy import create_engine, text

from helpers import within
from pit_rig import ADMIN, CREDENTIAL, PitProcess, add_operator, every_table_dealt


@pytest.fixture(scope="module")
def pit(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("access") / "pit.db")
    add_operator(path, "val", "viewer", "val-password")
    add_operator(path, "sam", "supervisor", "sam-password")
    p = PitProcess("--floor", "2", "--pace", "0.3", db=path)
    p.path = path
    p.wait(every_table_dealt(2, 1))
    yield p
    assert p.stop() == 130 and "Traceback" not in p.stderr, p.stderr


def client(pit, address="127.0.0.1"):
    return httpx.Client(base_url=pit.url, timeout=10, transport=httpx.HTTPTransport(local_address=address))


def test_nothing_answers_without_a_sign_in(pit):
    tid = pit.get("/api/floor")["tables"][0]["table"]
    with client(pit) as anyone:
        for path in ("/api/floor", "/api/tables/" + tid, "/api/tables/%s/deals/1" % tid, "/api/stream", "/api/me"):
            r = anyone.get(path)
            assert r.status_code == 401 and "deal" not in r.text, (path, r.status_code, r.text[:200])
        for path in ("/", "/table/" + tid, "/static/pit.js", "/static/floor.html"):
            r = anyone.get(path)
            assert r.status_code == 303 and r.headers["location"] == "/login", path
        assert anyone.post("/api/tables/%s/disable" % tid, json={"credential": CREDENTIAL}).status_code == 401
        assert anyone.get("/login").status_code == 200 and anyone.get("/static/pit.css").status_code == 200


def test_the_session_cookie_is_httponly_and_samesite(pit):
    with client(pit) as c:
        r = c.post("/login", data={"name": "val", "password": "val-password"})
        cookie = r.headers["set-cookie"].lower()
        assert r.status_code == 303 and "httponly" in cookie and "samesite=strict" in cookie
        assert "secure" not in cookie  # plain HTTP on the loopback: a Secure cookie would never come back


def test_every_action_needs_the_csrf_token_and_the_same_origin(pit):
    tid = pit.get("/api/floor")["tables"][0]["table"]
    url = "/api/tables/%s/disable" % tid
    body = {"credential": CREDENTIAL}
    assert pit.http.post(url, json=body).status_code == 403  # no token: a form or script elsewhere
    assert pit.http.post(url, json=body, headers={"X-CSRF-Token": "guess"}).status_code == 403
    r = pit.http.post(url, json=body, headers={"X-CSRF-Token": pit.csrf, "Origin": "http://evil.example"})
    assert r.status_code == 403
    assert pit.http.post("/logout", headers={"X-CSRF-Token": "guess"}).status_code == 403
    assert all(t["state"] == "running" for t in pit.get("/api/floor")["tables"])


def test_a_viewer_reads_but_cannot_act(pit):
    tid = pit.get("/api/floor")["tables"][0]["table"]
    with client(pit) as c:
        csrf = pit.sign_in(c, "val", "val-password")
        assert c.get("/api/me").json()["role"] == "viewer" and c.get("/api/floor").status_code == 200
        r = pit.act(tid, "disable", "val-password", http=c, csrf=csrf)
        assert r.status_code == 403 and "viewer" in r.json()["error"]
    assert all(t["state"] == "running" for t in pit.get("/api/floor")["tables"])


def test_a_supervisor_acts_with_their_own_password_and_is_recorded(pit):
    tid = pit.get("/api/floor")["tables"][1]["table"]
    with client(pit) as c:
        csrf = pit.sign_in(c, "sam", "sam-password")
        assert pit.act(tid, "verify", CREDENTIAL, http=c, csrf=csrf).status_code == 401  # another's password
        r = pit.act(tid, "verify", "sam-password", http=c, csrf=csrf)
        assert r.status_code == 200 and r.json()["result"] == "software check passed", r.json()
        assert c.post("/logout", headers={"X-CSRF-Token": csrf}).status_code == 200
        assert c.get("/api/floor").status_code == 401  # signed out: the cookie means nothing now
    with create_engine("sqlite:///" + pit.path).connect() as db:
        assert db.execute(text("select who, result from pit_action where action = 'verify'")).all()[-1] == \
            ("sam", "software check passed")


def test_another_host_name_is_refused_against_dns_rebinding(pit):
    r = pit.http.get("/api/floor", headers={"Host": "attacker.example"})
    assert r.status_code == 400 and "tables" not in r.text


def test_guessing_passwords_costs_a_growing_wait_then_a_lockout_and_is_counted(pit):
    from tapis.host.pit.limits import Throttle

    tid = pit.get("/api/floor")["tables"][0]["table"]
    with client(pit, "127.0.0.9") as c:  # an address of its own: the throttle is per address
        for i in range(Throttle.FREE):  # the first few cost nothing
            r = c.post("/login", data={"name": ADMIN, "password": "guess-%d" % i})
            assert r.status_code == 401 and "Wait" not in r.text
        r = c.post("/login", data={"name": ADMIN, "password": "guess"})
        assert r.status_code == 401 and "Wait 2 s" in r.text  # then each one doubles the wait
        # the right password is refused too while it waits: guessing stops, not only wrong guesses
        r = c.post("/login", data={"name": ADMIN, "password": CREDENTIAL})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        statuses = [c.post("/login", data={"name": ADMIN, "password": "g%d" % i}).status_code for i in range(20)]
        assert statuses.count(429) >= 15, statuses  # (a loaded machine may take the 2 s past a few)
        assert pit.act(tid, "disable", "guess").status_code == 401  # another address is not held up
    want = {"login": Throttle.FREE + 1 + statuses.count(401), "throttled": 1 + statuses.count(429)}

    rows = {}

    def counted():  # the counts are written at most once a second, at the next refusal
        with client(pit, "127.0.0.10") as c:  # a refusal from elsewhere
            c.post("/login", data={"name": ADMIN, "password": "one more"})
        with create_engine("sqlite:///" + pit.path).connect() as db:
            rows.update(db.execute(text("select kind, count from pit_refusal where address = '127.0.0.9'")).all())
        return rows == want

    within(30, counted, "the refusals of 127.0.0.9 counted in pit_refusal", every=0.25)
    with create_engine("sqlite:///" + pit.path).connect() as db:
        actions = db.execute(text("select count(*) from pit_action")).scalar()
    assert rows == want, rows
    assert actions < 10  # a guess is no row of its own


def test_the_throttle_doubles_its_wait_then_locks_out():
    from tapis.host.pit.limits import Throttle

    t, waits = Throttle(), []
    for i in range(Throttle.LOCKOUT_AFTER):
        waits.append(t.failed("a", now=1000.0 + i * 100)[1])  # each failure once the wait has passed
    assert waits[:Throttle.FREE] == [0.0] * Throttle.FREE
    assert waits[Throttle.FREE:Throttle.FREE + 3] == [2.0, 4.0, 8.0] and waits[-1] == Throttle.LOCKOUT
    assert t.wait("a", now=1000.0 + 9 * 100 + 1) == Throttle.LOCKOUT - 1 and t.wait("b") == 0
    t.succeeded("a")
    assert t.wait("a") == 0


def test_removing_an_operator_ends_their_sessions(pit):
    add_operator(pit.path, "tim", "supervisor", "tim-password")
    with client(pit) as c:
        pit.sign_in(c, "tim", "tim-password")
        assert c.get("/api/floor").status_code == 200
        p = subprocess.run([sys.executable, "-m", "tapis", "pit", "user", "remove", "tim", "--db", pit.path], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        assert c.get("/api/floor").status_code == 401


def test_tls_serves_https_with_a_secure_cookie(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    p = PitProcess("--floor", "1", "--pace", "1", "--tls-cert", str(cert), "--tls-key", str(key),
                   db=str(tmp_path / "tls.db"), login=False)
    try:
        assert p.url.startswith("https://127.0.0.1:")
        r = p.http.post("/login", data={"name": ADMIN, "password": CREDENTIAL})
        assert r.status_code == 303 and "secure" in r.headers["set-cookie"].lower()
        with pytest.raises(httpx.HTTPError):  # plain HTTP on the TLS port gets nothing
            httpx.get(p.url.replace("https", "http") + "api/floor", timeout=5)
    finally:
        assert p.stop() == 130


def test_the_first_administrator_is_made_once_and_its_password_printed_once(tmp_path):
    path = str(tmp_path / "first.db")
    first = PitProcess("--floor", "1", "--pace", "1", db=path, env={"TAPIS_PIT_ADMIN_PASSWORD": ""}, login=False)
    assert first.stop() == 130
    said = [x for x in first.stderr.splitlines() if "administrator" in x]
    assert len(said) == 1 and "made 'admin', password " in said[0], first.stderr
    password = said[0].split("password ")[1].split()[0]
    again = PitProcess("--floor", "1", "--pace", "1", db=path, env={"TAPIS_PIT_ADMIN_PASSWORD": ""}, login=False)
    try:
        assert again.sign_in(again.http, ADMIN, password)
    finally:
        assert again.stop() == 130
    assert "administrator" not in again.stderr
