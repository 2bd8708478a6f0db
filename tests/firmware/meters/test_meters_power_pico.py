"""A power cut at a flash write of the emulated Pico (the real firmware on the stock image,
flashed as tapis flash flashes it), as test_meters_power_vboard.py cuts the unix port's
board at a file write: here the cut falls on the chip's own flash operations (an erase or a
program of littlefs's blocks, EmulatedPico.cut_power_at), right after one or in its middle
(torn), and the chip boots again from its flash as at power-on. The table's CPython mirror
follows the resume (host/pico/table.py: a resumed game must be the one played so far, less
inputs not yet journaled). Then the board's files, read off the chip, agree as the lab
reads them: the meters equal the independent sum over the deal records its journal gives,
the event log's chain verifies under the device key, nothing is set aside and nothing locks
(certification.md, "The same on the MicroPython boards")."""
import os

import pytest

from tapis.simulator.pico.board import IMAGE_ENV
from test_meters_power_vboard import agrees

IMAGE = os.environ.get(IMAGE_ENV)
pytestmark = pytest.mark.skipif(not IMAGE, reason="set %s to a MicroPython RPI_PICO .uf2 image" % IMAGE_ENV)
DEALS = 2  # within écarté's first game: the journal holds it whole


def run(tmp_path, at, torn=False, seed=3):
    """The Pico's power cut at its flash operation `at` after its boot (0: never) while
    DEALS deals are played; then one more deal, and its files checked. (The flash
    operations those deals made, when not cut; how many times it resumed.)"""
    from tapis.host.pico.cuts import played, read_files
    from tapis.host.pico.table import PicoTable
    with PicoTable(seed, "ecarte", image=IMAGE) as t:
        made = played(t, DEALS, at, torn)
        flash = tmp_path / ("cut-%d%s" % (at, "t" if torn else ""))
        flash.mkdir()
        key, ident = read_files(t, flash)
        entries = agrees(flash, seed, key, ident)
        resumed = len(t.resumes)
    ups = [e["c"] for e in entries].count("power-up")
    assert 1 + resumed - (1 if torn else 0) <= ups <= 1 + resumed, entries  # (a torn power-up is dropped)
    return made, resumed


@pytest.mark.slow  # 68 s of the emulated chip: make test keeps test_meters_power_vboard.py's sample, on MicroPython
def test_a_power_cut_at_a_flash_write_of_the_pico_leaves_meters_journal_and_event_log_agreeing(tmp_path):
    made, resumed = run(tmp_path, 0)
    assert made > 10 and resumed == 0
    for at, torn in ((made // 2, True),):  # one in make test: the rest behind slow
        assert run(tmp_path, at, torn)[1] == 1


@pytest.mark.slow  # about 40 s each
def test_a_power_cut_at_a_sample_of_the_picos_flash_writes_leaves_them_agreeing(tmp_path):
    made, _ = run(tmp_path, 0)
    for at in range(1, made + 1, max(1, made // 6)):  # (12 took 534 s in make soak: 6 make the sample)
        assert run(tmp_path, at, torn=at % 2 == 1)[1] == 1
