# tapis recall: from a journal file, and from a running table over its link (RECALL and
# RECORD frames) through an in-memory pipe and through a pseudo-terminal with pyserial.
import json
import os
import re
import subprocess
import sys

import pytest

from tapis.firmware import wire as W
from tapis.firmware.link.link import Link
from tapis.firmware.journal.resume import load
from tapis.host.memory import journal as recall_journal
from tapis.host.commands import recall
from tapis.simulator.table.pipes import pipe
from table_rig import Rig

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


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
    lines = r.stdout.splitlines()
    heads = [line for line in lines if line.startswith("game ")]
    assert heads[0].startswith("game 3: écarté, completed") and heads[1].startswith("game 4:")
    assert "unfinished" in heads[1]
    # as `tapis table` tells a game: a heading for its first deal (begun as the game before
    # ended), seats by name, cards by name, every trick and point of the journal's events
    # its first deal's heading is the one the game before began (seed 13: the players cut first, issue 14.4)
    before = recall_journal.from_journal(table.store.read(), 3)[0]
    began = [e for _a, evs, _f in before["inputs"] for e in evs if e[0] == "deal"][-1][2]
    assert lines[1] == "" and re.fullmatch("── Deal %d · (West|East) deals ──" % began, lines[2]), lines[1:3]
    events = [e for g in recall_journal.from_journal(table.store.read(), 2) for _a, evs, _f in g["inputs"] for e in evs]
    assert sum(1 for ln in lines if ln.startswith("  Trick ")) == sum(1 for e in events if e[0] == "trick")
    scores = sum(1 for ln in lines if " scores " in ln and ("West" in ln or "East" in ln))
    assert scores == sum(1 for e in events if e[0] == "score") > 0
    assert any(" discards " in ln and " and draws " in ln for ln in lines)
    assert "(1, 'point')" not in r.stdout and "seat 0" not in r.stdout


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


def test_recall_refuses_a_corrupt_journal(tmp_path, table):
    data = bytearray(table.store.read())
    data[100] ^= 0x10
    path = tmp_path / "bad.bin"
    path.write_bytes(bytes(data))
    r = tapis("recall", "--journal", str(path))
    assert r.returncode == 2 and "corrupt" in r.stderr and r.stdout == ""


def test_a_journal_that_cannot_be_read_is_one_plain_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "tapis", "recall"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.strip() == ("tapis recall: cannot read journal.bin: No such file or "
                                                      "directory (name a journal with --journal PATH, or a table "
                                                      "with --port URL)")
    r = tapis("recall", "--journal", str(tmp_path))
    assert r.returncode == 2 and r.stderr.strip() == "tapis recall: cannot read %s: Is a directory" % tmp_path


def test_an_empty_journal_says_so_and_exits_0(tmp_path):
    path = tmp_path / "empty.bin"
    path.write_bytes(b"")
    r = tapis("recall", "--journal", str(path))
    assert r.returncode == 0 and r.stdout == "" and "no games" in r.stderr and "empty" in r.stderr
    r = tapis("recall", "--journal", str(path), "--quiet", "--json")
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_a_torn_journal_is_read_up_to_the_tear_with_a_warning(tmp_path, table):
    data = table.store.read()
    whole = tapis("recall", "--journal", _write(tmp_path / "whole.bin", data), "--json")
    assert whole.returncode == 0 and "torn" not in whole.stderr
    r = tapis("recall", "--journal", _write(tmp_path / "torn.bin", data[:-3]), "--json")
    assert r.returncode == 0, r.stderr
    assert "warning" in r.stderr and "torn" in r.stderr and len(r.stderr.splitlines()) == 1
    from tapis.firmware.offboard.memstore import parse
    last = parse(data)[1][-1]  # where the last whole record begins: the tear cut that one, and only it
    before = tapis("recall", "--journal", _write(tmp_path / "before.bin", data[:last]), "--json")
    assert before.returncode == 0 and "torn" not in before.stderr
    assert r.stdout == before.stdout != whole.stdout


def _write(path, data):
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize("bad", [["--last", "0"], ["--last", "x"], ["--timeout", "-1", "--port", "loop://"],
                                 ["--timeout", "nan", "--port", "loop://"],
                                 ["--journal", "a", "--port", "loop://"]])
def test_recall_bad_input_exits_2(bad):
    r = tapis("recall", *bad)
    assert r.returncode == 2 and r.stderr and "Traceback" not in r.stderr


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
    want = json.loads(json.dumps(load(table.journal)[-2:]))
    if not want[-1]["done"]:  # the deal in play is never recalled (firmware/operator/recall.py)
        from tapis.firmware.operator.recall import withheld
        withheld(want[-1], table.game.EVENTS)
    assert [g["number"] for g in got] == [g["number"] for g in want]
    assert want == got  # several RECORD frames per game, reassembled
    assert sum(len(json.dumps(g)) for g in got) > W.RECORD_CHUNK


def test_recall_over_a_pty_with_pyserial(table):
    from tapis.host.ports import open_port

    from helpers import PtyEnd
    end = PtyEnd()
    attach(table, end)
    port = open_port(end.name)
    try:
        got = recall.fetch(port, 1, step=step_table(table), timeout=30)
    finally:
        port.close()
        end.close()
    assert [g["number"] for g in got] == [table.journal.last["number"]]
    assert got[0]["game"] == "ecarte"
