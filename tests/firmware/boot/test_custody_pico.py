"""One chain of custody on the emulated Pico (issue 44.1, 44.7; the real firmware flashed as
tapis flash flashes it): a door tilt locks the table; with the power off, its event log and
both copies of the meters are deleted from the chip's flash (a technician with the flash and
no key), and the boot, which compares the journal's heads with them before it writes, locks
again and names what disagreed. Before it played on, the meters recounted from the journal."""
import os

import pytest

from tapis.simulator.pico.board import IMAGE_ENV
from test_tilts_pico import events_on_the_chip, modes, steps

IMAGE = os.environ.get(IMAGE_ENV)
pytestmark = pytest.mark.skipif(not IMAGE, reason="set %s to a MicroPython RPI_PICO .uf2 image" % IMAGE_ENV)


@pytest.mark.slow  # 38 s of the emulated chip: make test keeps test_custody_vboard.py's, on MicroPython
def test_a_door_tilt_survives_the_picos_log_and_both_meter_copies_deleted(tmp_path):
    from tapis.host.pico import flash as picoflash
    from tapis.host.pico.table import PicoTable
    with PicoTable(5, "ecarte", image=IMAGE) as t:
        t.run_deals(2)
        t.open_door()
        steps(t, 300)
        t.close_door()
        steps(t, 1500)
        assert modes(t) == ["locked: door-open"] * 2
        key, _ident = t.identity()  # (the table stopped at its REPL)
        repl = picoflash.stopped(t.pico)
        _out, err = repl.exec_raw("import os\nfor p in ('events.bin', 'journal.meters.a', 'journal.meters.b'):\n"
                                  " os.remove(p)")
        assert not err, err
        t.boot()  # main.py on the flash as edited
        steps(t, 2000)
        assert modes(t) == ["locked: journal-failure, ram-error"] * 2, "the table plays on"
        n = len(t.board_log)
        steps(t, 2000)
        assert len(t.board_log) == n  # play stopped
        head, entries = events_on_the_chip(t, key, tmp_path)
    said = [e["d"] for e in entries if e.get("l")]
    assert any("both copies of the meters are missing" in d for d in said), entries
    assert "ram-error" in head["locked"] and "journal-failure" in head["locked"]
