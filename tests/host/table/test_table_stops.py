# A table that cannot go on says why in a sentence (issue 46, 44.6): which device, what fault,
# what to do; exit 3 (README "Exit status"); no traceback, no fault list as Python reprs. And
# what it says to do works: a locked table run with --host-port is cleared by `tapis clear`.
import os
import subprocess
import sys
import time

from tapis.firmware.eventlog import log as E
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.journal.store import FileStore
from tapis.host.table import stopped
from tapis.host.table.identity import table_identity
from tapis.simulator.table.emulated import StalledTable
from test_cli_conventions import ROOT, env, tapis


def test_a_table_whose_devices_do_not_answer_names_them_and_exits_3():
    p = tapis("table", "--deals", "3", "--faults", "drop=1", "--seed", "1", "--json")
    assert p.returncode == 3 and "Traceback" not in p.stderr, p.stderr
    said = p.stderr.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("tapis table: the table cannot go on"), p.stderr
    assert "the shoe does not answer" in said[0] and "seat 0's display does not answer" in said[0]
    assert "[" not in said[0] and "0x" not in said[0] and "cable" in said[0], said[0]


def test_a_stall_reads_as_words_never_as_reprs():
    e = StalledTable("no progress for 3000 ms", ["device 0x10 is dead: no answer", "a card: b'E'"], [])
    assert "['" not in str(e) and "device 0x10 is dead" in str(e)
    assert stopped.stalled(e.faults) .startswith("the table cannot go on: the shoe does not answer; a card")
    assert "locked by the tilt door-open (the table's door was opened)" in stopped.stalled([], ["door-open"], "P")
    assert "no fault" in stopped.stalled([])


def test_a_locked_table_run_with_its_operators_link_is_cleared_as_it_says_and_plays_on(tmp_path):
    journal = str(tmp_path / "t.jnl")
    assert tapis("table", "--journal", journal, "--seed", "3", "--deals", "1", "--quiet", "--json").returncode == 0
    device, key = table_identity(journal)
    EventLog(FileStore(journal + ".events"), key, device).log(E.DOOR, "opened", locks=True)
    link = str(tmp_path / "link")
    table = subprocess.Popen([sys.executable, "-m", "tapis", "table", "--journal", journal, "--seed", "3", "--deals",
                              "1", "--json", "--host-port", link], cwd=ROOT, env=env(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(link) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)  # not a wait: the span over which the locked table must not end by itself
        assert table.poll() is None  # locked, it waits for the supervisor
        p = tapis("clear", "--port", link, "--yes", "--table-key", device, timeout=60)
        assert p.returncode == 0 and "cleared door-open" in p.stdout, p.stderr
        out, err = table.communicate(timeout=120)
    finally:
        if table.poll() is None:
            table.kill()
    assert table.returncode == 0 and out.strip() and "is locked" not in err, err  # it played its deal
