"""A tilt on the emulated Pico (the real firmware, flashed as tapis flash flashes it): the
door's switch on GP7 (rp2040js drives the input pin) opened locks the table, the lock
survives a power cycle (the event log in the chip's flash), and the supervisor clears it."""
import os

import pytest

from tapis.firmware.clears import CLEAR
from tapis.simulator.pico.board import IMAGE_ENV
from tapis.simulator.supervisor import EmuSupervisor

IMAGE = os.environ.get(IMAGE_ENV)
pytestmark = pytest.mark.skipif(not IMAGE, reason="set %s to a MicroPython RPI_PICO .uf2 image" % IMAGE_ENV)


def steps(t, ms):
    for _ in range(ms):
        t.step()


def modes(t):
    return [c.view.get("mode") if c.view else None for c in t.consoles]


def test_the_door_opened_locks_the_pico_across_a_power_cycle_until_the_supervisor_clears_it():
    from tapis.host.picotable import PicoTable
    with PicoTable(5, "ecarte", image=IMAGE) as t:
        t.run_deals(1)
        t.open_door()
        steps(t, 300)
        t.close_door()
        steps(t, 1500)
        assert modes(t) == ["locked: door-open"] * 2
        n = len(t.board_log)
        steps(t, 2000)
        assert len(t.board_log) == n  # play stopped
        t.power_cycle()
        steps(t, 1500)
        assert modes(t) == ["locked: door-open"] * 2 and len(t.board_log) == n
        sup = EmuSupervisor(t.lines[1].end("supervisor"))
        t.devices.append(sup)
        steps(t, 1500)
        sup.command(CLEAR, 0)
        steps(t, 1500)
        assert modes(t) == [None, None]
        t.run_deals(2)  # play goes on
