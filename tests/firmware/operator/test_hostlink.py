"""The host interface (issue 31.1): the operator's link keyed with the table's device key,
a host tool paired as W.HOST (firmware/operator/hostlink.py); a host without the key refused and
counted; the unkeyed link of its own still answers where a board is built that way."""
import pytest

from tapis.firmware.eventlog import log as E
from tapis.firmware import wire as W
from tapis.firmware.operator.hostlink import board_end, host_end
from tapis.host.memory import events as R
from tapis.simulator.table.pipes import pipe
from test_tilts import rig, step


def wire_host(t, device_key):
    """The board's end of the operator's link (keyed when device_key), the tool's port."""
    ctrl_end, tool_end = pipe()
    link = board_end(ctrl_end, device_key)
    t.controller.route[W.HOST] = link
    t.controller.links.append(link)
    return link, tool_end


def events(link, t, timeout=5.0):
    link.send(W.HOST, W.EVENTS, bytes(4))
    return R.answer(link, timeout, t.step)


def test_a_paired_host_is_answered_and_logged_by_its_serial():
    t = rig()
    step(t, 1000)
    board, port = wire_host(t, t.key)
    got = events(host_end(port, b"pit-1", t.key), t)
    assert got and got[0]["c"] == "power-up"
    assert board.forged == 0
    assert t.controller.events is not None
    from tapis.firmware.operator.recall import serial
    assert serial(board, W.HOST) == "host:pit-1"


def test_a_host_with_another_key_is_refused_and_counted():
    t = rig()
    step(t, 1000)
    board, port = wire_host(t, t.key)
    with pytest.raises(TimeoutError):
        events(host_end(port, b"pit-1", b"\x01" * 32), t, 1.0)
    assert board.forged > 0 and board.stats(W.HOST)["forged"] > 0


def test_a_host_without_the_key_is_told_at_once_that_one_is_required():
    """Issue 46.2: a keyed table answers an unkeyed request with NAK [NAK_KEY] at its next
    step; the tool stops there (KeyRequired), before its first resend (patient as a 600 s
    wait: one a second), where it waited out its whole timeout. Counted in the table's
    milliseconds, not the wall's: the same under any load. Still refused and counted."""
    from tapis.host.operator_link import KeyRequired, open_link
    t = rig()
    step(t, 1000)
    board, port = wire_host(t, t.key)
    host = open_link(port, b"tapis-events", None, timeout=600)
    host.send(W.HOST, W.EVENTS, bytes(4))
    ms = 0
    with pytest.raises(KeyRequired, match="--table-key"):
        while ms < 600_000:
            ms += 1
            host.poll(ms)
            t.step()
    assert ms <= 3  # the table's next step answers it
    assert host.stats(W.HOST)["retransmits"] == 0 and board.stats(W.HOST)["forged"] == 1
    assert t.controller.locked == []  # one frame refused: no tilt that locks


def test_a_keyed_host_is_not_told_a_key_is_required():
    """The NAK is for a host with no session: a paired host's frames open, none is sent."""
    from tapis.host.operator_link import open_link
    t = rig()
    step(t, 1000)
    board, port = wire_host(t, t.key)
    host = open_link(port, b"pit-1", t.key, timeout=5)
    assert events(host, t)[0]["c"] == "power-up"
    assert host.stats(W.HOST)["naks_got"] == 0 and board.forged == 0


def test_another_serial_with_the_key_of_another_is_refused():
    """The key is derived for the serial: a host claiming another serial does not open."""
    from tapis.firmware.link.hello import pair_key
    from tapis.firmware.link.link import Link
    t = rig()
    step(t, 1000)
    board, port = wire_host(t, t.key)
    k = pair_key(t.key, W.DEV_HOST, W.HOST, b"pit-1")
    with pytest.raises(TimeoutError):
        events(Link(port, W.DEV_HOST, b"pit-2", keys={W.HOST: k}), t, 1.0)
    assert board.forged > 0


def test_the_unkeyed_link_of_its_own_still_answers():
    t = rig()
    step(t, 1000)
    t.controller.tilt(E.RAM, "both copies bad")
    board, port = wire_host(t, None)
    got = events(host_end(port, b"tapis-events"), t)
    assert [e["c"] for e in got][-1] == "ram-error"
    from tapis.firmware.operator.recall import serial
    assert serial(board, W.HOST) == "usb"


def test_a_clear_by_a_paired_host_is_logged_with_its_serial():
    from tapis.firmware.wire import CLEAR
    t = rig()
    step(t, 1000)
    t.controller.tilt(E.RAM, "both copies bad")
    board, port = wire_host(t, t.key)
    host = host_end(port, b"pit-1", t.key)
    host.send(W.HOST, W.BUTTON, bytes((CLEAR, 0)))
    got = R.answer(host, 5.0, t.step)
    assert [(e["c"], e["w"]) for e in got] == [("clear", "host:pit-1")] and t.controller.locked == []
