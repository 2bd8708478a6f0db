# tapis meters: offline from a simulated table's journal and the copies beside it (tapis
# table --journal keeps them as a board does), live over a table's link (METERS, the
# supervisor's credential), --json valid under tapis.meters/1; bad input one line, exit 2.
# And the meters the MicroPython virtual board keeps (the unix port, its flash a directory)
# are the CPython board's.
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from meters_sums import compare, records_of
from tapis.firmware import wire as W
from tapis.firmware.journal.writer import Journal
from tapis.firmware.link.link import Link
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.meters.holder import Meters
from tapis.firmware.meters.tally import beside
from tapis.firmware.meters.tally import held
from tapis.host import schemas as S
from tapis.host.commands import meters as cmd
from tapis.host.memory.meters import as_dict
from tapis.simulator.table.pipes import pipe
from tapis.simulator.testkey import TEST_KEY

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


def run(tmp_path, *args):
    env = dict(os.environ, TAPIS_KEY_DIR=str(tmp_path / "keys"))
    return subprocess.run([sys.executable, "-m", "tapis"] + [str(a) for a in args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def club_journal(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("meters")
    path = tmp / "journal.bin"
    r = run(tmp, "table", "--game", "club", "--seed", 3, "--deals", 6, "--journal", path, "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in r.stdout.splitlines()]
    return tmp, path, records


def test_tapis_table_keeps_the_meters_beside_its_journal_and_tapis_meters_reads_them(club_journal):
    tmp, path, records = club_journal
    a, b = beside(str(path))
    assert Path(a).read_bytes() == Path(b).read_bytes()
    r = run(tmp, "meters", "--journal", path, "--json")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert S.validate_lines(r.stdout) == ["tapis.meters/1"]
    d = json.loads(r.stdout)
    assert d["deals"] - 1 == len(records) == 6 and d["power_ups"] == 1 and len(d["seats"]) == 4
    assert sum(s["wagered"] for s in d["seats"]) == sum(x[2] for rec in records for x in rec["stakes"]) > 0  # (the 7th: begun)
    text = run(tmp, "meters", "--journal", path)
    assert text.returncode == 0 and "seat 3" in text.stdout and "deals begun 7" in text.stdout
    for column in ("wagered", "won", "lost", "pushed", "commission", "generation", "off"):  # each explained
        assert any(line.strip().startswith(column) or (" %s" % column) in line
                   for line in text.stdout.split("\n\n", 1)[1].splitlines()), column


def test_a_resumed_table_counts_a_power_up_and_goes_on(tmp_path):
    path = tmp_path / "journal.bin"
    for deals in (2, 2):
        r = run(tmp_path, "table", "--game", "ecarte", "--seed", 4, "--deals", deals, "--journal", path, "--quiet")
        assert r.returncode == 0, r.stderr
    d = json.loads(run(tmp_path, "meters", "--journal", path, "--json").stdout)
    assert d["power_ups"] == 2 and d["deals"] >= 4


@pytest.mark.parametrize("damage, code, says", [
    ("a", 0, "meter copy a was bad: rebuilt from copy b"),
    ("ab", 2, "the meters are refused: ram error: both copies of the meters are bad"),
])
def test_damaged_copies_offline(club_journal, tmp_path, damage, code, says):
    tmp, path, _records = club_journal
    copy = tmp_path / "journal.bin"
    copy.write_bytes(path.read_bytes())
    for k, (src, dst) in enumerate(zip(beside(str(path)), beside(str(copy)))):
        data = bytearray(Path(src).read_bytes())
        if "ab"[k] in damage:
            data[40 + k] ^= 1
        Path(dst).write_bytes(bytes(data))
    r = subprocess.run([sys.executable, "-m", "tapis", "meters", "--journal", str(copy)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120, env=dict(os.environ, TAPIS_KEY_DIR=str(tmp / "keys")))
    assert r.returncode == code and says in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr


@pytest.mark.parametrize("argv", [["--journal", "/nonexistent/journal.bin"], [], ["--port", "loop://", "--timeout", "0.2"],
                                  ["--journal", "x", "--port", "y"]])
def test_bad_input_is_one_line_and_exit_2(tmp_path, argv):
    r = run(tmp_path, "meters", *argv)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) <= 3, r.stderr
    assert "Traceback" not in r.stderr


def test_meters_over_the_link_are_what_the_copies_and_the_journal_say():
    from test_meters_power import MeteredRig
    rig = MeteredRig(5, "club")
    while rig.ctrl.game.finished_deals() < 2:
        rig.step()
    ctrl_end, host_end = pipe()
    link = Link(ctrl_end)
    rig.ctrl.route[W.HOST] = link
    rig.ctrl.links.append(link)
    t = cmd.fetch(host_end, step=rig.step, timeout=30)
    want = held(rig.meters, rig.journal)
    assert t.m == want.m and t.m[0] > 0
    assert S.validate(as_dict(t)) == "tapis.meters/1"


def test_the_unix_port_keeps_the_cpython_boards_meters():
    """The MicroPython board (the unix port, its flash a directory) through power cycles:
    its meters, as its copies and journal say, are the sum over the CPython board's records."""
    from test_vboard import cycled
    from tapis.simulator.table.emulated import EmulatedTable
    vb, _got = cycled("club", 216 * 1024, 5, cycles=(2,))
    root = Path(vb.board.flash.name)
    j = Journal(MemoryStore((root / "journal.bin").read_bytes()), key=TEST_KEY, device="vboard")
    j.size = j.store.size()
    m = Meters(*[str(root / Path(p).name) for p in beside("journal.bin")], key=TEST_KEY)
    t = held(m, j)
    assert t.m[3] == 2  # two boots
    cpy = EmulatedTable(3, "club")
    cpy.run(lambda g: len(g.log) >= len(vb.board_log))
    log = list(cpy.game.log)[:len(vb.board_log)]
    assert log == vb.board_log
    records = records_of("club", cpy.game.options, 3, log)
    got = as_dict(t)
    assert got["deals"] == sum(1 for r in records if "pending" not in r) >= 5
    assert compare(m, j, "club", records) == {}
