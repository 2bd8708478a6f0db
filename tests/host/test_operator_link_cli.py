"""The host tools on a table whose operator's link is keyed (issue 31.1; `tapis table
--host-port`): `tapis meters`, `events`, `recall`, `verify` and `clear` with `--table-key` speak
in a session under the table's device key and are answered; without it, or with another
table's key, the table refuses them (each exits 2 in a line: without a key at once, saying
the table wants it; with another, that it had no answer) and changes nothing."""
import json
import os
import subprocess
import sys

import pytest

from helpers import within
from tapis.host.schemas import validate

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def tapis(*args, env=None, stdin=None):
    return subprocess.run([sys.executable, "-m", "tapis", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, input=stdin, timeout=120)


@pytest.fixture
def table(tmp_path):
    """`tapis table --host-port` with a journal, its device key in the test's key store:
    (the pty's path, the key file, the environment)."""
    import glob
    keys = tmp_path / "keys"
    keys.mkdir()
    env = dict(os.environ, TAPIS_KEY_DIR=str(keys))
    path = str(tmp_path / "host-port")
    records = tmp_path / "records.jsonl"
    with records.open("w") as out:
        p = subprocess.Popen([sys.executable, "-m", "tapis", "table", "--host-port", path, "--journal",
                              str(tmp_path / "t.jnl"), "--deals", "5000", "--seed", "5", "--json", "--quiet"],
                             stdout=out, stderr=subprocess.PIPE, cwd=ROOT,
                             env=dict(env, PYTHONUNBUFFERED="1"))  # each record as it is printed

    def dealt():  # two deal records printed: the first deal is over, journaled and metered
        assert p.poll() is None, p.stderr.read()
        return os.path.exists(path) and records.read_text().count("\n") >= 2
    try:
        within(60, dealt, "the table's port and two deals")
        yield path, glob.glob(str(keys / "*.key"))[0], env
    finally:
        p.terminate()
        p.wait(10)


def test_the_host_tools_with_the_tables_key_are_answered(table):
    path, key, env = table
    got = tapis("meters", "--port", path, "--table-key", key, "--json", env=env)
    assert got.returncode == 0, got.stderr
    meters = json.loads(got.stdout)
    validate(meters)
    assert meters["deals"] >= 1
    got = tapis("events", "--port", path, "--table-key", key, "--json", env=env)
    assert got.returncode == 0, got.stderr
    doc = json.loads(got.stdout)
    validate(doc)
    assert doc["entries"] and doc["entries"][0]["class"] == "power-up"
    got = tapis("recall", "--port", path, "--table-key", os.path.basename(key)[:-4], "--last", "1", env=env)
    assert got.returncode == 0 and got.stdout.strip(), got.stderr  # by the device's name in the key store
    got = tapis("clear", "--port", path, "--table-key", key, "--yes", "--json", env=env)
    assert got.returncode == 0, got.stderr  # answered: no tilt was open, so no clear entry
    assert json.loads(got.stdout)["entries"] == [], got.stdout
    got = tapis("verify", "--port", path, "--table-key", key, "--seed", "00" * 16, env=env)
    assert got.returncode == 0 and "MATCH: the emulated table runs this install's firmware" in got.stdout, got.stderr
    # (answered: the CPython table holds no manifest, and answers over the firmware files it runs)


def test_without_the_key_or_with_another_the_table_refuses_and_nothing_changes(table, tmp_path):
    path, key, env = table
    other = tmp_path / "other.key"
    other.write_text("11" * 32 + "\n")
    before = json.loads(tapis("events", "--port", path, "--table-key", key, "--json", env=env).stdout)["entries"]
    for extra in ([], ["--table-key", str(other)]):
        got = tapis("clear", "--port", path, "--yes", "--timeout", "2", *extra, env=env)
        assert got.returncode == 2 and len(got.stderr.strip().splitlines()) == 1, got.stderr
        got = tapis("meters", "--port", path, "--timeout", "2", *extra, env=env)
        # without a key the table says at once it wants one (NAK [NAK_KEY], issue 46.2); with
        # another, a tool in a session it cannot open waits for its answer in vain
        said = "the table's operator's link is keyed: give its device key with --table-key" if not extra else "no answer"
        assert got.returncode == 2 and said in got.stderr, got.stderr
    after = json.loads(tapis("events", "--port", path, "--table-key", key, "--json", env=env).stdout)["entries"]
    assert after[:len(before)] == before and not [e for e in after if e["class"] == "clear"]
    assert [e for e in after if e["class"] in ("forged", "bus-attack")], after  # refused, and counted


def test_a_table_key_not_held_is_one_clear_line_and_exit_2(tmp_path):
    env = dict(os.environ, TAPIS_KEY_DIR=str(tmp_path))
    for tool in ("meters", "events", "recall", "verify", "clear"):
        got = tapis(tool, "--port", "loop://", "--table-key", "no-such-table", env=env)
        assert got.returncode == 2 and "no key for device no-such-table" in got.stderr, (tool, got.stderr)
