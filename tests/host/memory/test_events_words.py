# The event log reads as words (issue 46.3): a local date-time (ISO 8601 with its offset in
# JSON), each class with its cause, a shoe's fault code as its meaning (never a Python bytes
# repr), a RAM clear's old meters by name; tapis.events/2 still valid.
import json
from datetime import datetime

from tapis.firmware.eventlog import log as E
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.journal.store import FileStore
from tapis.firmware.meters.tally import N
from tapis.host.memory import words
from tapis.host import schemas as S
from tapis.host.table.identity import table_identity
from test_cli_conventions import tapis


def test_a_logs_faults_and_ram_clear_read_as_words(tmp_path):
    journal = str(tmp_path / "t.jnl")
    assert tapis("table", "--journal", journal, "--seed", "3", "--deals", "1", "--quiet", "--json").returncode == 0
    device, key = table_identity(journal)
    log = EventLog(FileStore(journal + ".events"), key, device)
    log.log(E.SHOE, "fault %r" % b"E")
    log.log(E.SHOE, "fault %r" % bytes((ord("F"), 0x1B)))
    old = [0] * N
    old[0], old[1], old[18] = 201, 20, 35  # deals begun, games, seat 0 wagered (tally.py's order)
    log.log(E.RAM_CLEAR, {"meters": old, "tilts": ["door-open"], "journal": ""})
    p = tapis("events", "--journal", journal)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "b'" not in p.stdout and 'b"' not in p.stdout
    assert "the shoe reported a fault: shoe empty (E)" in lines[-4]
    assert "card delivered face up (F KH)" in lines[-3]
    assert "old meters: deals begun 201, games 20, seat 0 wagered 35; tilts cleared: door-open" in lines[-2]
    assert "the table was switched on" in lines[0]
    day = datetime.now().strftime("%Y-%m-%d")
    assert lines[0].split()[1] == day  # the local date, not epoch seconds
    doc = json.loads(tapis("events", "--journal", journal, "--json").stdout)
    assert S.validate(doc) == "tapis.events/2"
    for e in doc["entries"]:
        when = datetime.fromisoformat(e["when"])
        assert when.utcoffset() is not None and abs(when.timestamp() - e["time"]) < 1
    assert doc["entries"][-1]["text"].startswith("a supervisor cleared the critical memory (a RAM clear): old meters")


def test_every_class_has_its_cause_in_words():
    assert all(words.cause(c) != c for c in E.CLASSES)


def test_a_board_clock_never_set_dates_nothing():
    assert words.when({"wall": None, "time": 5}, "s") is None
    assert words.when({"wall": None, "time": 1796650964}, "ms") is None
    assert words.when({"wall": 1796650964, "time": 5}, "ms").startswith("2026-12-")
