"""tapis events and tapis clear (issue 30.7): offline from the log a simulated table keeps
beside its journal, live over the operator's link; tapis.events/2 valid; bad input one
clear line, exit 2, nothing changed."""
import json

import pytest

from tapis.firmware.eventlog import log as E
from tapis.firmware import wire as W
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.host.memory import events as R
from tapis.host import schemas as S
from tapis.host.commands.clear import send_clear
from tapis.simulator.table.pipes import pipe
from test_cli_conventions import one_clear_line, tapis
from test_tilts import KEY, rig, step

from tapis.firmware.link.link import Link


def test_a_simulated_tables_log_beside_its_journal_is_read_and_valid(tmp_path):
    journal = tmp_path / "t.jnl"
    for _ in range(2):  # two runs: two power-ups
        p = tapis("table", "--journal", str(journal), "--seed", "3", "--deals", "1", "--json", "--quiet")
        assert p.returncode == 0, p.stderr
    p = tapis("events", "--journal", str(journal), "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert S.validate(doc) == "tapis.events/2"
    classes = [e["class"] for e in doc["entries"]]
    assert classes[0] == "power-up" and classes.count("power-up") == 2 and doc["locked"] == []
    p = tapis("events", "--journal", str(journal) + ".events", "--class", "clear", "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["entries"] == []
    p = tapis("events", "--journal", str(journal))
    assert p.returncode == 0 and "power-up" in p.stdout and "locked: no" in p.stdout


def test_a_locked_simulated_table_is_refused_and_said_so(tmp_path):
    """Issue 44.6: which tilt locked it and how a supervisor clears it, exit 3, no traceback."""
    journal = tmp_path / "t.jnl"
    assert tapis("table", "--journal", str(journal), "--seed", "3", "--deals", "1", "--quiet",
                 "--json").returncode == 0
    from tapis.firmware.journal.store import FileStore
    from tapis.host.table.identity import table_identity
    device, key = table_identity(str(journal))
    EventLog(FileStore(str(journal) + ".events"), key, device).log(E.DOOR, "opened", locks=True)
    p = tapis("table", "--journal", str(journal), "--seed", "3", "--deals", "1")
    assert p.returncode == 3 and p.stdout == "" and "Traceback" not in p.stderr, p.stderr
    said = p.stderr.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("tapis table:"), p.stderr
    for words in ("locked", "door-open", "the table's door was opened", "close the door", "tapis clear --port",
                  "--host-port"):
        assert words in said[0], said[0]
    doc = json.loads(tapis("events", "--journal", str(journal), "--json").stdout)
    assert doc["locked"] == ["door-open"] and doc["entries"][-1]["locks"] is True


def test_bad_input_is_one_clear_line(tmp_path):
    one_clear_line(tapis("events", "--journal", str(tmp_path / "none")), "cannot read")
    (tmp_path / "junk").write_bytes(b"not a log at all")
    one_clear_line(tapis("events", "--journal", str(tmp_path / "junk")), "not an event log")
    one_clear_line(tapis("events", "--class", "bogus"), "--class", "bogus")
    one_clear_line(tapis("events", "--port", "loop://", "--timeout", "0.3"), "no complete answer")
    one_clear_line(tapis("clear"), "--port")
    one_clear_line(tapis("clear", "--port", "loop://", "--yes", "--timeout", "0.3"), "no complete answer")


def test_an_edited_log_is_refused(tmp_path):
    store = MemoryStore()
    log = EventLog(store)
    log.log(E.POWER_UP, "x")
    data = bytearray(store.read())
    data[-8] ^= 1
    (tmp_path / "e.bin").write_bytes(bytes(data))
    one_clear_line(tapis("events", "--journal", str(tmp_path / "e.bin")), "corrupt")


def test_clear_asks_first_and_no_is_nothing():
    import subprocess
    import sys
    from test_cli_conventions import ROOT, env
    import os
    import pty
    master, slave = pty.openpty()  # asked on a terminal
    os.write(master, b"n\n")
    p = subprocess.run([sys.executable, "-m", "tapis", "clear", "--port", "loop://"], cwd=ROOT, env=env(),
                       stdin=slave, capture_output=True, text=True, timeout=60)
    os.close(master), os.close(slave)
    assert p.returncode == 1 and "nothing cleared" in p.stderr and "[y/N]" in p.stderr


@pytest.mark.parametrize("ram", [[], ["--ram"]])
def test_clear_with_no_terminal_to_ask_on_wants_yes(ram):
    import subprocess
    import sys
    from test_cli_conventions import ROOT, env, one_clear_line
    p = subprocess.run([sys.executable, "-m", "tapis", "clear", "--port", "loop://"] + ram, cwd=ROOT, env=env(),
                       input="y\n", capture_output=True, text=True, timeout=60)
    one_clear_line(p, "--yes", "no terminal")


def host_end(t):
    """The operator's USB to the table: the board's end routed to W.HOST, the tool's port."""
    ctrl_end, tool_end = pipe()
    link = Link(ctrl_end)
    t.controller.route[W.HOST] = link
    t.controller.links.append(link)
    return tool_end


def test_events_and_clear_live_over_the_operators_link():
    t = rig()
    step(t, 1000)
    t.controller.tilt(E.RAM, "both copies bad")
    for i in range(40):  # more than a page
        t.controller.event(E.FORGED, "n%d" % i)
    got = R.fetch(host_end(t), 5.0, t.step)
    assert [e["n"] for e in got] == list(range(1, len(got) + 1)) and len(got) == 42
    doc = R.document("pipe", got)
    assert S.validate(doc) == "tapis.events/2" and doc["locked"] == ["ram-error"]
    answer = send_clear(host_end(t), False, 5.0, t.step)
    assert [e["c"] for e in answer] == ["clear"] and answer[0]["w"] == "usb"
    assert t.controller.locked == []
    assert send_clear(host_end(t), False, 5.0, t.step) == []  # nothing open: nothing logged
    doc = R.document("pipe", R.fetch(host_end(t), 5.0, t.step))
    assert S.validate(doc) == "tapis.events/2" and doc["locked"] == []
    assert doc["entries"][1]["cleared_by"] == "usb"
    log = EventLog(t.events_store, KEY, "dev")
    assert len(log.since(0)) == 43
    # a host tool sets the board's clock (TIME, certification.md note 2): logged, with who
    got = R.fetch(host_end(t), 5.0, t.step, since=43, clock=1800000000)
    assert [(e["c"], e["d"][:33], e["w"]) for e in got] == [("supervisor", "clock set: 1800000000 UTC seconds", "usb")]
