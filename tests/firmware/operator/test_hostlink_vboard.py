"""The host interface's operations on the MicroPython virtual board (the unix port: its
journal and event log are files that outlive a power cycle), asked by the supervisor's device
on the bus (the same frames as the operator's link; the credential its paired address):
none after the last deal over, disable kept over a power cycle
and a tilt clear, enable."""
import json

from tapis.firmware import wire as W
from tapis.firmware.wire import CLEAR
from tapis.simulator.boards.vtable import VirtualBoardTable
from test_tilts_vboard import locked, steps, supervisor_on


def ask(vb, sup, ftype, payload, ms=3000):
    sup.chunks, sup.total, sup.games = {}, None, None
    sup.link.send(W.SUPERVISOR, ftype, payload)
    for _ in range(ms):
        vb.step()
        if sup.games is not None:
            return sup.games
    raise AssertionError("no answer to 0x%02x" % ftype)


def test_deals_disable_and_enable_on_the_micropython_board():
    with VirtualBoardTable(3, "ecarte", unix_heap=400 * 1024) as vb:
        vb.run_deals(2)
        sup = supervisor_on(vb)
        done = vb.game.finished_deals()
        # DEALS since 0: the game, its JSON made a chunk at a time (played.chunks: the whole
        # game held parsed ran this port's 400 KB out before)
        (game,) = ask(vb, sup, W.DEALS, bytes(4) + b"\x01")
        assert game["game"] == "ecarte" and len(game["inputs"]) > 0
        assert ask(vb, sup, W.DEALS, (done + 50).to_bytes(4, "big") + b"\x01") == []  # none after
        sup.command(CLEAR, 2)  # disable
        steps(vb, 2000)
        assert locked(vb) == ["disabled"] * 2
        before = len(vb.game.log)
        steps(vb, 3000)
        assert len(vb.game.log) == before  # play stopped
        sup.command(CLEAR, 0)  # a tilt clear leaves it disabled
        steps(vb, 1500)
        assert locked(vb) == ["disabled"] * 2
        vb.power_cycle()
        steps(vb, 3000)
        assert locked(vb) == ["disabled"] * 2 and len(vb.game.log) == before
        sup.command(CLEAR, 3)  # enable (its session begun again after the board's power cycle:
        steps(vb, 3000)  # what it sent before that was refused, the communication tilt shown a while)
        assert locked(vb) == [None, None]
        vb.run_deals(vb.game.finished_deals() + 1)  # play goes on
        entries = ask(vb, sup, W.EVENTS, bytes(4))
    kinds = [(e["c"], e.get("w")) for e in entries]
    assert ("disabled", "EMU-SUPERVISOR") in kinds
    assert json.dumps(entries).count("play enabled by the host") == 1
