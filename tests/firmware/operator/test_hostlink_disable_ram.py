"""A disable is the host's remote state, not a fault (issue 31, points 2-3): a RAM clear
clears the tilts, the meters and the journal, never the disable. It is written into the new
event log with the RAM clear, in the same step, so the table stays disabled, over a reboot
too, until the host enables it; on the CPython board and the MicroPython virtual board."""
import json
from pathlib import Path

from tapis.firmware.eventlog import log as E
from tapis.firmware.operator import hostframes as H
from tapis.firmware import wire as W
from tapis.firmware.wire import CLEAR
from tapis.firmware.eventlog.log import EventLog
from test_hostlink_ops import board
from test_tilts import KEY, clear_over_usb, frozen, play, rig


def test_a_ram_clear_keeps_the_hosts_disable_until_it_enables():
    t = rig()
    play(t, 2)
    b = board(t)
    b.connect()
    assert "disabled" in b.act("disable", "sup", "cred")
    t.controller.tilt(E.RAM, "both copies bad")
    assert sorted(t.controller.locked) == sorted([H.DISABLED, E.RAM])
    got = clear_over_usb(t, ram=True)
    assert got and b"ram-clear" in got[0]
    ram, disabled = EventLog(t.events_store, KEY, "dev").since(0)
    assert ram["c"] == E.RAM_CLEAR and ram["d"]["tilts"] == [E.RAM]  # the tilt cleared, not the disable
    assert disabled["c"] == H.DISABLED and disabled["w"] == "host:tapis-pit" and disabled["l"] == 1
    assert t.controller.locked == [H.DISABLED] and frozen(t)  # still disabled: no play
    t.boot()  # over a reboot too: the new log's open lock
    assert t.controller.locked == [H.DISABLED] and frozen(t)
    b = board(t)
    b.connect()
    assert "clear" in b.act("enable", "sup", "cred")
    assert t.controller.locked == []
    play(t, 1)  # the new game plays


def test_a_ram_clear_without_a_disable_leaves_the_table_unlocked():
    t = rig()
    play(t, 2)
    t.controller.tilt(E.RAM, "both copies bad")
    clear_over_usb(t, ram=True)
    assert [e["c"] for e in EventLog(t.events_store, KEY, "dev").since(0)] == [E.RAM_CLEAR]
    assert t.controller.locked == []


def test_a_ram_clear_keeps_the_disable_on_the_micropython_board():
    from tapis.simulator.boards.vtable import VirtualBoardTable
    from tapis.firmware.link.hello import TEST_KEY
    from tapis.firmware.offboard.memstore import MemoryStore
    from test_tilts_vboard import locked, steps, supervisor_on
    with VirtualBoardTable(3, "ecarte", unix_heap=400 * 1024) as vb:
        vb.run_deals(1)
        sup = supervisor_on(vb)
        sup.command(CLEAR, 2)  # disable
        steps(vb, 2000)
        assert locked(vb) == ["disabled"] * 2
        before = len(vb.game.log)
        sup.command(CLEAR, 1)  # a RAM clear
        steps(vb, 3000)
        assert locked(vb) == ["disabled"] * 2 and len(vb.game.log) == before  # no new game plays
        log = Path(vb.board.flash.name) / "events.bin"
        assert EventLog(MemoryStore(log.read_bytes()), TEST_KEY).locked() == [H.DISABLED]  # what a boot reads
        # (no power cycle here: the harness's CPython mirror would not follow the board into the
        # game a RAM clear begins; the CPython board's test reboots)
        sup.command(CLEAR, 3)  # enable
        steps(vb, 3000)
        assert locked(vb) == [None, None]
        entries = EventLog(MemoryStore(log.read_bytes()), TEST_KEY).since(0)
    kinds = [e["c"] for e in entries]
    assert kinds[:2] == [E.RAM_CLEAR, H.DISABLED], kinds
    assert json.dumps(entries).count("play enabled by the host") == 1
    assert [e["b"][0] for e in entries] == [1] * len(entries)  # the board's clock: the new log's boot 1
