# tapis pit on a real PostgreSQL server (issue 31.5): the suite starts one of its own with
# Debian's postgresql (initdb and pg_ctl), on a Unix socket in a temporary directory and no TCP
# port, runs the floor end to end against it, and stops it. Skipped, saying why, only where
# PostgreSQL is not installed (make install installs it).
import glob
import os
import shutil
import subprocess
import tempfile

import pytest
from sqlalchemy import create_engine

from pit_rig import PitProcess, every_table_dealt, nothing_lost

from tapis.host.pit import db


def _bin():
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True) + [""]:
        initdb = os.path.join(d, "initdb") if d else shutil.which("initdb")
        if initdb and os.access(initdb, os.X_OK) and os.access(os.path.join(os.path.dirname(initdb), "pg_ctl"), os.X_OK):
            return os.path.dirname(initdb)
    return None


def _as_postgres_user():
    """PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user."""
    if os.geteuid() != 0:
        return None
    import pwd
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("PostgreSQL refuses to run as root, and there is no postgres user to run it as")


@pytest.fixture(scope="module")
def postgres():
    where = _bin()
    if where is None:
        pytest.skip("PostgreSQL is not installed (Debian's postgresql: make install installs it)")
    user = _as_postgres_user()
    d = tempfile.mkdtemp(prefix="pit-pg-")  # short: a socket's path has at most 107 bytes
    data, sock = os.path.join(d, "data"), d
    run = dict(check=True, capture_output=True, text=True, timeout=120)
    if user is not None:
        os.chown(d, user.pw_uid, user.pw_gid)
        run.update(user=user.pw_uid, group=user.pw_gid, extra_groups=[])
    subprocess.run([os.path.join(where, "initdb"), "-D", data, "-U", "pit", "-A", "trust", "--no-sync",
                    "-E", "UTF8"], **run)
    subprocess.run([os.path.join(where, "pg_ctl"), "-D", data, "-w", "-l", os.path.join(d, "log"), "-o",
                    "-k %s -c listen_addresses='' -F" % sock, "start"], **run)
    try:
        subprocess.run([os.path.join(where, "createdb"), "-h", sock, "-U", "pit", "pit"], **run)
        yield "postgresql+psycopg://pit@/pit?host=%s" % sock
    finally:
        subprocess.run([os.path.join(where, "pg_ctl"), "-D", data, "-m", "immediate", "stop"],
                       **dict(run, check=False))
        shutil.rmtree(d, True)


def test_a_floor_of_three_end_to_end_on_postgresql(postgres):
    import subprocess
    import sys

    from pit_rig import ROOT, add_operator
    up = subprocess.run([sys.executable, "-m", "tapis", "pit", "db", "upgrade", "--db", postgres], cwd=ROOT,
                        capture_output=True, text=True, timeout=120)  # docs/pit.md's steps, in its order
    assert up.returncode == 0 and "revision 0006" in up.stdout, up.stderr
    add_operator(postgres, "ann", "supervisor", "a-long-password")
    pit = PitProcess("--floor", "3", "--pace", "0.05", db=postgres)
    try:
        floor = pit.wait(every_table_dealt(3, 3))
        club = next(t for t in floor["tables"] if t["game"] == "club")
        assert pit.get("/api/tables/%s/deals/1" % club["table"])["record"]["deal"] == 1
        assert pit.act(club["table"], "verify").json()["result"] == "software check passed"
        with pit.http.__class__(base_url=pit.url, timeout=10) as c:  # the operator made before the start
            csrf = pit.sign_in(c, "ann", "a-long-password")
            assert pit.act(club["table"], "verify", "a-long-password", http=c, csrf=csrf).status_code == 200
    finally:
        assert pit.stop() == 130
    engine = create_engine(postgres)
    assert db.revision(engine) == "0006" and engine.dialect.name == "postgresql"
    counts = nothing_lost(engine)
    assert len(counts) == 3 and min(counts.values()) >= 3
    engine.dispose()


def test_a_postgresql_url_without_a_driver_gets_psycopg_3():
    assert db.url_of("postgresql://pit@/pit").get_driver_name() == "psycopg"
