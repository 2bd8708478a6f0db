# The board's entry (firmware/boot/main.py) under CPython, on a stand-in `machine`: a board
# whose configuration is missing or refused halts before it opens a UART, says why on its
# console and blinks its LED (the emulated Pico runs the whole boot: tests/simulator/pico).
# Importing the module runs the board, as on a Pico; the stand-in LED stops it at its first
# blink (an exception no `except Exception` of the board's catches).
import sys
import types

import pytest

from tapis.firmware.link import boards


class Halted(BaseException):
    pass


def stand_in_machine(monkeypatch, opened):
    class Pin:
        OUT, IN, PULL_UP = 1, 0, 2

        def __init__(self, *a, **kw):
            pass

        def toggle(self):
            raise Halted

    def uart(*a, **kw):
        opened.append(a)
        raise AssertionError("a UART opened")
    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(Pin=Pin, UART=uart))
    monkeypatch.delitem(sys.modules, "tapis.firmware.boot.main", raising=False)


@pytest.mark.parametrize("config, why", [
    (None, "configuration refused: no configuration at"),
    (b"{not json", "configuration refused:"),
    (b'{"game": "whist"}', "configuration refused:"),
])
def test_a_board_without_a_good_configuration_halts_saying_why_before_any_uart(
        tmp_path, monkeypatch, capsys, config, why):
    path = tmp_path / "config.json"
    if config is not None:
        path.write_bytes(config)
    monkeypatch.setattr(boards, "CONFIG", str(path))
    opened = []
    stand_in_machine(monkeypatch, opened)
    with pytest.raises(Halted):
        import tapis.firmware.boot.main  # noqa: F401  (it runs the board)
    out = capsys.readouterr().out
    assert out.startswith("tapis: " + why), out
    assert not opened
