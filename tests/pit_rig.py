# The pit as its tests run it: `tapis pit` started in a process of its own on a free port,
# its API read over HTTP, its database checked for what "nothing lost" means.
import json
import os
import re
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
CREDENTIAL = "pit-test-credential"  # the first administrator's password (admin), and the floor's tables'
ADMIN = "admin"


class PitProcess:
    """`tapis pit` on a free port, and an HTTP client signed in as its first administrator."""

    def __init__(self, *argv, db, env=None, login=True):
        e = dict(os.environ, TAPIS_PIT_CREDENTIAL=CREDENTIAL, TAPIS_PIT_ADMIN_PASSWORD=CREDENTIAL)
        e.update(env or {})
        self.p = subprocess.Popen([sys.executable, "-m", "tapis", "pit", "--db", db, "--port", "0"] + list(argv),
                                  cwd=ROOT, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.p.stdout.readline()
        m = re.search(r"the floor at (https?://\S+)", line)
        if not m:
            self.p.kill()
            raise AssertionError("the pit did not start: %r %s" % (line, self.p.stderr.read()))
        self.url = m.group(1)
        self.http = httpx.Client(base_url=self.url, timeout=10, verify=False)
        self.csrf = self.sign_in(self.http, ADMIN, CREDENTIAL) if login else None

    def sign_in(self, http, name, password):
        """Sign `http` in as name: its CSRF token (the session cookie is in http's jar)."""
        r = http.post("/login", data={"name": name, "password": password})
        assert r.status_code == 303 and r.headers["location"] == "/", (r.status_code, r.text[:300])
        return http.get("/api/me").json()["csrf"]

    def get(self, path):
        r = self.http.get(path)
        r.raise_for_status()
        return r.json()

    def act(self, table, action, credential=CREDENTIAL, http=None, csrf=None):
        """A supervisor's action, the password given again (by default the administrator's)."""
        return (http or self.http).post("/api/tables/%s/%s" % (table, action), json={"credential": credential},
                                        headers={"X-CSRF-Token": csrf or self.csrf})

    def wait(self, what, timeout=30.0):
        """The floor (GET /api/floor) once what(floor) holds."""
        end = time.time() + timeout
        while True:
            floor = self.get("/api/floor")
            if what(floor):
                return floor
            if time.time() > end:
                raise AssertionError("the floor never got there: %s" % json.dumps(floor)[:2000])
            time.sleep(0.2)

    def stop(self, sig=signal.SIGINT):
        self.http.close()
        if self.p.poll() is None:
            self.p.send_signal(sig)
        try:
            rc = self.p.wait(20)
        except subprocess.TimeoutExpired:
            self.p.kill()
            raise
        self.stderr = self.p.stderr.read()
        return rc


def add_operator(db, name, role, password):
    """`tapis pit user add NAME --role ROLE --db DB`, the password on stdin."""
    p = subprocess.run([sys.executable, "-m", "tapis", "pit", "user", "add", name, "--role", role, "--db", db],
                       cwd=ROOT, input=password + "\n", capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "added" in p.stdout, p.stderr
    return p


def every_table_dealt(n, deals):
    return lambda f: len(f["tables"]) == n and all(t["deals"] >= deals for t in f["tables"])


def nothing_lost(engine):
    """Per table: its deals numbered 1..N with none missing or twice, its row's numbers the
    last stored, and its seats' meters the sums of its records. Returns {table: N}."""
    from sqlalchemy import text

    from tapis.host.pit import figures

    out = {}
    with engine.connect() as c:
        for tid, seq, deals in c.execute(text("select id, record_seq, deals from pit_table")).all():
            seqs = [s for (s,) in c.execute(text("select seq from pit_deal where table_id = :t order by seq"),
                                            {"t": tid})]
            assert seqs == list(range(1, len(seqs) + 1)) and seq == deals == len(seqs), (tid, seq, deals, seqs[-5:])
            want = {}
            for (rec,) in c.execute(text("select record from pit_deal where table_id = :t order by seq"), {"t": tid}):
                r = json.loads(rec)
                assert r["complete"] is True  # nothing of a deal in play ever reaches the pit
                for k, (wagered, won, _th) in figures.of(r).seats.items():
                    w = want.setdefault(k, [0, 0, 0])
                    w[0], w[1], w[2] = w[0] + 1, w[1] + wagered, w[2] + won
            got = {k: [d, w, x] for k, d, w, x in c.execute(
                text("select seat, deals, wagered, won from pit_seat where table_id = :t"), {"t": tid})}
            assert got == want, (tid, got, want)
            evs = [s for (s,) in c.execute(text("select seq from pit_event where table_id = :t order by seq"),
                                           {"t": tid})]
            assert evs == list(range(1, len(evs) + 1)), (tid, evs)
            out[tid] = len(seqs)
    return out


def money_is_conserved(record):
    """The seats' actual wins and the house's sum to 0, and so do their exact theoretical ones."""
    from tapis.host.pit import figures

    f = figures.of(record)
    assert sum(w for _a, w, _t in f.seats.values()) + f.actual == 0, record["deal"]
    if f.exact:
        assert sum(t for _a, _w, t in f.seats.values() if t is not None) + f.theo == Fraction(0)
    return f
