"""The product image's resume bound (issue 30's last paragraph, issue 32 point 5): on the
emulated Pico, power-on to playing from a full journal (host/picomeasure.py measure_resume:
ten games done and one under way) within 2 s of emulated time, per game. Slow: about a
minute a game (the journal is written through the REPL). Run one Pico test at a time.

Measured 2026-12-04 (main 82d4bdb, the meters and event log merged): fresh boot 1,137 ms
(écarté), 1,138 ms (piquet), 1,056 ms (club); resume 1,816 / 2,933 / 2,288 ms. Piquet and
club are over the bound: xfail(strict) until the boot is cut, so that the
test flips to a failure (remove the mark) the day they pass.
"""
import pytest

from test_product import SOURCE, PICOTOOL, product  # noqa: F401  (the cached image fixture)

LIMIT_MS = 2000
OVER = pytest.mark.xfail(strict=True, reason="issue 32 point 5: resume measured over 2 s, the boot not cut yet")

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not (SOURCE and PICOTOOL), reason="no image sources")]


@pytest.mark.parametrize("game", ["ecarte", pytest.param("piquet", marks=OVER), pytest.param("club", marks=OVER)])
def test_the_product_pico_resumes_from_a_full_journal_within_two_seconds(product, game):  # noqa: F811
    from tapis.host.picomeasure import measure_resume

    got = measure_resume(7, game, image=product, log=lambda *a: None)
    assert not got["console"], got["console"]
    assert got["resume_ms"] <= LIMIT_MS, got
    assert got["fresh_ms"] <= LIMIT_MS, got
