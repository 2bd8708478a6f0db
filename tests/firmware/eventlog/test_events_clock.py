"""The event log's board clock (certification.md note 2): a Pico has no battery RTC, so each
entry carries the board's own clock, "b": the boot it was logged in (the seq of that boot's
first entry: higher at each power-up) and the ms since that power-up; a TIME from the
supervisor's device (or a host tool, with the credential) sets the board's RTC where it has
one and is logged, and dates every entry of its boot: `tapis events` shows their wall time
(tapis.events/2). Run on the MicroPython virtual board (the unix port: its flash a
directory), whose event log runs on the board's clock as a Pico's does."""
import json
import time
from pathlib import Path

from tapis.firmware.link.hello import TEST_KEY
from tapis.host import schemas as S
from tapis.simulator.boards.vtable import VirtualBoardTable
from test_cli_conventions import tapis
from test_tilts_vboard import steps, supervisor_on

WALL = 1800000000  # 2027-01-15T08:00:00Z


def test_each_entry_has_the_boards_clock_and_a_time_set_by_the_supervisor_dates_its_boot(tmp_path):
    with VirtualBoardTable(3, "ecarte", unix_heap=400 * 1024) as vb:
        vb.run_deals(1)
        vb.power_cycle()
        steps(vb, 500)
        sup = supervisor_on(vb)
        sup.set_time(WALL)
        steps(vb, 1000)
        vb.open_door()  # an entry after the TIME, in the same boot
        steps(vb, 500)
        flash = Path(vb.board.flash.name)
        keyfile = tmp_path / "device.key"
        keyfile.write_text(TEST_KEY.hex() + "\n")
        p = tapis("events", "--journal", str(flash / "journal.bin"), "--key-file", str(keyfile), "--json")
        text = tapis("events", "--journal", str(flash / "journal.bin"), "--key-file", str(keyfile)).stdout
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert S.validate(doc) == "tapis.events/2"
    es = doc["entries"]
    assert all(e["boot"] is not None and e["ms"] is not None for e in es)
    ups = [e for e in es if e["class"] == "power-up"]
    assert len(ups) == 2 and ups[0]["boot"] == 1 and ups[1]["boot"] > ups[0]["boot"]
    for e in es:  # each entry in the boot of the power-up before it, its ms on from that one's
        up = [u for u in ups if u["seq"] <= e["seq"]][-1]
        assert e["boot"] == up["boot"] and e["ms"] >= up["ms"]
    timed = [e for e in es if e["class"] == "supervisor" and e["detail"].startswith("clock set")]
    assert len(timed) == 1 and timed[0]["who"] == "EMU-SUPERVISOR" and timed[0]["wall"] == WALL
    assert "clock set: %d UTC seconds" % WALL in timed[0]["detail"]
    second = [e for e in es if e["boot"] == ups[1]["boot"]]
    first = [e for e in es if e["boot"] == ups[0]["boot"]]
    assert all(e["wall"] is None for e in first)  # nothing dated the first boot
    door = [e for e in second if e["class"] == "door-open"]
    assert door and WALL <= door[0]["wall"] <= WALL + 5
    assert all(e["wall"] is not None and abs(e["wall"] - WALL) <= 10 for e in second)
    assert time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(WALL)) in text and "boot %d +" % ups[1]["boot"] in text
