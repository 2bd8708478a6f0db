# What the controller hands the supervisor's frames (firmware/operator/handler.py): recall.py
# answers them, loaded for the frame and out of the board's heap after it.
import sys

from tapis import firmware
from tapis.firmware import wire as W
from tapis.firmware import operator as operator_pkg
from tapis.firmware.boot import build
from tapis.firmware.operator import handler, recall


def test_the_board_is_built_with_this_handler():
    assert build.frame is handler.frame


def test_a_frame_goes_to_recall_with_everything_and_recall_is_unloaded_after(monkeypatch):
    # the modules as they are, put back after the test (unload pops them as a board does)
    for key, mod in (("tapis.firmware.operator", operator_pkg), ("tapis.firmware.operator.recall", recall)):
        monkeypatch.setitem(sys.modules, key, mod)
    monkeypatch.setattr(firmware, "operator", operator_pkg)
    monkeypatch.setattr(operator_pkg, "recall", recall)
    seen = []
    monkeypatch.setattr(recall, "on_frame", lambda *a: seen.append(a))
    ctrl, link = object(), object()
    handler.frame(ctrl, link, W.SUPERVISOR, W.RECALL, b"\x01", seq=7)
    assert seen == [(ctrl, link, W.SUPERVISOR, W.RECALL, b"\x01", 7)]
    assert "tapis.firmware.operator.recall" not in sys.modules  # out of the heap until the next
