# tapis recall: from a journal file, and from a running table over its link (RECALL and
# RECORD frames) through an in-memory pipe and through a pseudo-terminal with pyserial.
import json
import os
import subprocess
import sys
import tty

import pytest

from tapis.firmware import wire as W
from tapis.firmware.link import Link
from tapis.host.commands import recall
from tapis.simulator.pipes import pipe
from table_rig import Rig

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tapis(*args):
    return subprocess.run([sys.executable, "-m", "tapis"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def table():
    rig = Rig(13, "ecarte")
    rig.run(3)
    return rig


@pytest.fixture
def journal_file(tmp_path, table):
    path = tmp_path / "journal.bin"
    path.write_bytes(table.store.read())
    return str(path)


def test_recall_shows_the_last_games_readably(journal_file, table):
    r = tapis("recall", "--journal", journal_file, "--last", "2")
    assert r.returncode == 0, r.stderr
    heads = [line for line in r.stdout.splitlines() if line.startswith("game ")]
    assert heads[0].startswith("game 3: ecarte, completed") and heads[1].startswith("game 4:")
    assert "unfinished" in heads[1]
    assert any(line.split()[0] == "score" for line in r.stdout.splitlines()[1:] if line.strip())


def test_recall_as_json_prints_the_deal_records_of_table_json(journal_file, table):
    """issue 14.12: recall --json and table --json share one schema (docs/records.md):
    one deal record a line, every input of every deal, each replaying to itself."""
    from tapis.firmware.games.ecarte import Rules
    from tapis.simulator.kits.replay import audit

    r = tapis("recall", "--journal", journal_file, "--json")
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in r.stdout.splitlines()]
    assert all(x["schema"] == 2 and x["game"] == "ecarte" for x in records)
    assert [x["journal"]["game"] for x in records] == sorted(x["journal"]["game"] for x in records)
    assert {x["journal"]["game"] for x in records} == {1, 2, 3, 4}
    assert [x["complete"] for x in records] == [True] * (len(records) - 1) + [False]
    deals = [x["deal"] for x in records]
    assert deals == list(range(1, len(records) + 1))  # every deal, none twice
    # the inputs of the records are every input the table applied, in order
    inputs = [a for x in records for a in x["inputs"]]
    from tapis.simulator.kits.schema import inputs_text
    assert inputs == inputs_text(Rules.EVENTS, table.ctrl.game.log)
    for x in records:
        assert audit(x)["matches"], x["deal"]


def test_recall_json_from_the_last_games_begins_where_the_journal_game_began(journal_file, table):
    """--last 1: the last journal game began from a snapshot, mid-match: its records still
    say where each deal began, and replay."""
    from tapis.simulator.kits.replay import audit

    r = tapis("recall", "--journal", journal_file, "--json", "--last", "1")
    records = [json.loads(line) for line in r.stdout.splitlines()]
    assert records and {x["journal"]["game"] for x in records} == {4}
    assert records[0]["game_no"] == 4 and all(audit(x)["matches"] for x in records)


def test_recall_of_an_empty_journal_says_so_and_exits_1(tmp_path):
    """issue 15 (recall's input): an empty journal is no error in the input, but nothing
    to show is not what was asked for: one line on stderr, exit 1, nothing on stdout."""
    path = tmp_path / "journal.bin"
    path.write_bytes(b"")
    for extra in ([], ["--json"]):
        r = tapis("recall", "--journal", str(path), *extra)
        assert r.returncode == 1 and r.stdout == "" and "holds no games" in r.stderr


def test_recall_of_a_torn_journal_warns_and_shows_what_it_holds(tmp_path, table):
    """A power loss during a write leaves an incomplete last record: recall warns of it
    on stderr and shows the rest (the board drops it at boot)."""
    data = table.store.read()
    path = tmp_path / "journal.bin"
    path.write_bytes(data + data[:7])  # the start of one more record
    r = tapis("recall", "--journal", str(path), "--json")
    assert r.returncode == 0 and "warning" in r.stderr and "incomplete record (7 bytes" in r.stderr
    assert len(r.stdout.splitlines()) > 3
    path.write_bytes(data[:3])  # nothing but a torn first record
    r = tapis("recall", "--journal", str(path))
    assert r.returncode == 1 and "warning" in r.stderr and "holds no games" in r.stderr


def test_recall_refuses_a_corrupt_journal(tmp_path, table):
    data = bytearray(table.store.read())
    data[100] ^= 0x10
    path = tmp_path / "bad.bin"
    path.write_bytes(bytes(data))
    r = tapis("recall", "--journal", str(path))
    assert r.returncode == 2 and "corrupt" in r.stderr and r.stdout == ""


@pytest.mark.parametrize("bad", [["--last", "0"], ["--last", "x"],
                                 ["--journal", "a", "--port", "loop://"],
                                 ["--port", "loop://", "--timeout", "-1"],
                                 ["--port", "loop://", "--timeout", "0"],
                                 ["--port", "loop://", "--timeout", "nan"]])
def test_recall_bad_input_exits_2(bad):
    r = tapis("recall", *bad)
    assert r.returncode == 2 and r.stderr


def step_table(rig):
    def step():
        rig.now += 1
        rig.ctrl.step(rig.now)
        for d in rig.devices:
            d.step(rig.now)
    return step


def attach(rig, port):
    """Wire a host port to the table's controller, as a link of its own."""
    link = Link(port)
    rig.ctrl.route[W.HOST] = link
    rig.ctrl.links.append(link)


def test_recall_over_the_link_gives_what_the_journal_holds(table):
    ctrl_end, host_end = pipe()
    attach(table, ctrl_end)
    got = recall.fetch(host_end, 2, step=step_table(table), timeout=30)
    want = table.journal.open()[-2:]
    assert [g["number"] for g in got] == [g["number"] for g in want]
    assert json.loads(json.dumps(want)) == got  # several RECORD frames per game, reassembled
    assert sum(len(json.dumps(g)) for g in got) > W.RECORD_CHUNK


def test_recall_over_a_pty_with_pyserial(table):
    from tapis.host.ports import open_port

    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)

    class PtyEnd:
        def read(self):
            try:
                return os.read(master, 4096)
            except (BlockingIOError, OSError):
                return b""

        def write(self, b):
            os.write(master, bytes(b))
            return len(b)

    attach(table, PtyEnd())
    port = open_port(os.ttyname(slave))
    try:
        got = recall.fetch(port, 1, step=step_table(table), timeout=30)
    finally:
        port.close()
        os.close(master)
        os.close(slave)
    assert [g["number"] for g in got] == [table.journal.last["number"]]
    assert got[0]["game"] == "ecarte"
