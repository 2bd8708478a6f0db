"""The host interface on the emulated Pico (the real firmware, flashed as tapis flash flashes
it), a few frames from the supervisor's device on the bus: DEALS after the last deal over
(none), disable (the displays say so, play stops), enable (play goes on)."""
import os

import pytest

from tapis.firmware import wire as W
from tapis.firmware.wire import CLEAR
from tapis.simulator.pico.board import IMAGE_ENV
from tapis.simulator.table.supervisor import EmuSupervisor
from test_tilts_pico import modes, steps

IMAGE = os.environ.get(IMAGE_ENV)
pytestmark = pytest.mark.skipif(not IMAGE, reason="set %s to a MicroPython RPI_PICO .uf2 image" % IMAGE_ENV)


@pytest.mark.slow  # 29 s of the emulated chip: make test keeps test_hostlink_ops.py's and the pit's DEALS over the USB
def test_deals_disable_and_enable_on_the_pico():
    from tapis.host.pico.table import PicoTable
    with PicoTable(5, "ecarte", image=IMAGE) as t:
        t.run_deals(1)
        sup = EmuSupervisor(t.lines[1].end("supervisor"))
        t.devices.append(sup)
        steps(t, 1500)
        sup.chunks, sup.total, sup.games = {}, None, None
        sup.link.send(W.SUPERVISOR, W.DEALS, (1000).to_bytes(4, "big") + b"\x01")
        for _ in range(3000):
            t.step()
            if sup.games is not None:
                break
        assert sup.games == []  # no deal after 1000 is over
        sup.command(CLEAR, 2)
        steps(t, 1500)
        assert modes(t) == ["disabled"] * 2
        n = len(t.board_log)
        steps(t, 2000)
        assert len(t.board_log) == n  # play stopped
        sup.command(CLEAR, 3)
        steps(t, 1500)
        assert modes(t) == [None, None]
        t.run_deals(2)  # play goes on
