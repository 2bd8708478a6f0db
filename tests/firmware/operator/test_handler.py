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
    seen = []
    monkeypatch.setattr(recall, "on_frame", lambda *a: seen.append(a))
    sys.modules["tapis.firmware.operator.recall"] = recall  # (the one spied on, if another test unloaded it)
    ctrl, link = object(), object()
    try:
        handler.frame(ctrl, link, W.SUPERVISOR, W.RECALL, b"\x01", seq=7)
        assert seen == [(ctrl, link, W.SUPERVISOR, W.RECALL, b"\x01", 7)]
        assert "tapis.firmware.operator.recall" not in sys.modules  # out of the heap until the next
    finally:  # the modules put back (unload pops them as a board does)
        sys.modules["tapis.firmware.operator"], sys.modules["tapis.firmware.operator.recall"] = operator_pkg, recall
        firmware.operator, operator_pkg.recall = operator_pkg, recall
