# The lab's critical memory section (host/lab/memory.py, issue 47.4): by default the power cuts
# are spread over each run's writes; --every-write cuts at every one of them (twice: right
# after it and torn inside it), over the lab's workers; given a stock MicroPython image, a
# sample is cut on the emulated Pico too (host/pico/cuts.py), else the section says none.
import os

import pytest

from tapis.host.lab import memory


def test_every_write_cuts_each_write_twice_over_the_workers(tmp_path, monkeypatch):
    monkeypatch.setattr(memory, "GAMES", ("club",))
    monkeypatch.setitem(memory.SIZES, "quick", dict(memory.SIZES["quick"], deals=1, vboard_games=()))
    writes = memory._writes("club", 1, 1)
    assert memory.units(True, 1, every_write=True) == 2 * writes
    got = memory.run(tmp_path, True, 1, workers=2, every_write=True)
    row, = got["rows"]
    assert (row["board"], row["every"], row["cuts"], row["writes"]) == ("cpython", 1, 2 * writes, writes)
    assert row["pass"] and got["pass"] and row["resumed"] == row["cuts"]
    assert "at every write" in got["method"] and "no emulated Pico sample" in got["method"]
    lines = (tmp_path / "memory" / "sweep-club-cpython.jsonl").read_text().splitlines()
    assert len(lines) == 2 * writes


IMAGE = os.environ.get("TAPIS_PICO_IMAGE")


@pytest.mark.skipif(not IMAGE, reason="set TAPIS_PICO_IMAGE to a MicroPython RPI_PICO .uf2 image "
                    "(/work/shared/boards/RPI_PICO-v1.27.0.uf2)")
@pytest.mark.slow  # two runs of the emulated chip, about 40 s each: make test cuts the virtual board
# (test_cutsweep.py's) and the Pico's flash (test_meters_power_vboard.py's counterpart) elsewhere
def test_the_picos_sample_cuts_its_flash_and_it_resumes_with_its_meters_equal_the_sums(tmp_path):
    from tapis.host.pico import cuts as cutpico
    made, every, rows = cutpico.sample("ecarte", 3, 1, 1, IMAGE)
    assert made > 10 and every == made
    row, = rows
    assert row["board"] == "pico" and row["cut"] and row["resumed"], row
    assert row["agree"] and row["deals"] >= 2, row
