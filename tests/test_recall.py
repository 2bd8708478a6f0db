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


def test_recall_as_json_has_every_input_and_event(journal_file, table):
    r = tapis("recall", "--journal", journal_file, "--json")
    assert r.returncode == 0, r.stderr
    games = [json.loads(line) for line in r.stdout.splitlines()]
    assert [g["number"] for g in games] == [1, 2, 3, 4]
    events = []
    for g in games:
        events.extend(recall_tuples(g["events"]))
        for _a, evs, _f in g["inputs"]:
            events.extend(recall_tuples(evs))
    assert events[-len(table.ctrl.game.log):] == table.ctrl.game.log


def recall_tuples(evs):
    from tapis.firmware.reader import tuples
    return [tuples(e) for e in evs]


def test_recall_refuses_a_corrupt_journal(tmp_path, table):
    data = bytearray(table.store.read())
    data[100] ^= 0x10
    path = tmp_path / "bad.bin"
    path.write_bytes(bytes(data))
    r = tapis("recall", "--journal", str(path))
    assert r.returncode == 2 and "corrupt" in r.stderr and r.stdout == ""


@pytest.mark.parametrize("bad", [["--last", "0"], ["--last", "x"],
                                 ["--journal", "a", "--port", "loop://"]])
def test_recall_bad_input_exits_2(bad):
    r = tapis("recall", *bad)
    assert r.returncode == 2 and r.stderr


def step_table(rig):
    def step():
        rig.step()
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
