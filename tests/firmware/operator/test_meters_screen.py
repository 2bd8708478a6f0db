"""The supervisor's meters screen (issue 30.7): the supervisor device asks (BUTTON [SCREEN, 0],
firmware/operator/commands.py) and the table display is sent a view of the meters, its mode line
"meters", shown until the supervisor asks again or play resumes; a console's ask is refused
and counted. The meters shown are those `tapis meters` computes (tally.held, as METERS
answers): totals of what public events moved, nothing of a hand in play. Before this, the
table display had no meters screen: SCREEN was no supervisor command (refused, counted)."""
import pytest

from tapis.firmware.games import panel as B
from tapis.firmware import wire as W
from tapis.firmware.journal.writer import Journal
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.meters.holder import Meters
from tapis.firmware.operator.commands import SCREEN
from tapis.firmware.meters.tally import held
from tapis.host.memory.meters import SEAT, as_dict
from tapis.simulator.table.devices import EmuConsole, EmuDisplay
from tapis.simulator.kits.show import meters_lines
from tapis.simulator.table.emulated import EmulatedTable
from test_supervisor import mid_deal, step, with_supervisor


def metered(game="ecarte", seed=3):
    """An emulated table whose journal keeps meters (their copies in memory), with the
    operator's supervisor device on its bus."""
    j = Journal(MemoryStore())
    j.meters = Meters(MemoryStore(), MemoryStore())
    t = EmulatedTable(seed, game, journal=j)
    return t, with_supervisor(t)


def board_of(t):
    """The table display (the one display that is no console)."""
    return next(d for d in t.devices if isinstance(d, EmuDisplay) and not isinstance(d, EmuConsole))


def hold(t, on=True):
    """The players' hands off (or back on) their panels: play waits on a seat."""
    for c in t.consoles:
        c.hold = on
    if not on:  # a held player has not acted on the view it holds: it does now
        for c in t.consoles:
            for button, arg in c.player.presses(c.view) if c.view is not None else ():
                c.link.send(W.PANEL + c.seat, W.BUTTON, bytes((button, arg)))


def as_tapis_meters(t):
    """The meters `tapis meters` gives for the table's journal (tapis.meters/1)."""
    j = t.controller.journal
    j.flush()
    return as_dict(held(j.meters, j))


def shown(board):
    v = board.view or {}
    return v.get("mode"), v.get("meters")


def same(screen, d):
    for k in ("deals", "games", "voids", "power_ups", "overrides", "house"):
        assert screen[k] == d[k], k
    assert screen["tilts"] == d["tilts"]
    assert [dict(zip(SEAT, r)) for r in screen["seats"]] == [
        dict((k, s[k]) for k in SEAT) for s in d["seats"]]


@pytest.mark.parametrize("game", ["ecarte", "club"])
def test_the_supervisor_shows_the_meters_on_the_table_display_until_asked_again_or_play_resumes(game):
    t, sup = metered(game)
    board = board_of(t)
    mid_deal(t, 2)  # two deals settled, the third dealt: a seat to act
    hold(t)
    step(t, 1500)  # what was due is shown; the table waits on a seat
    assert shown(board) == (None, None)
    sup.command(SCREEN)
    step(t, 1500)
    mode, screen = shown(board)
    assert mode == "meters"
    want = as_tapis_meters(t)
    same(screen, want)
    assert want["deals"] >= 3
    assert game == "ecarte" or any(s["wagered"] for s in want["seats"]) and "bank" in screen
    lines = meters_lines(screen)
    assert lines[0].startswith("METERS  deals %d  games %d" % (want["deals"], want["games"]))
    assert len([ln for ln in lines if ln.startswith("seat ")]) == t.controller.table.SEATS
    step(t, 3000)  # shown while the table waits
    assert shown(board) == ("meters", screen)
    sup.command(SCREEN)  # asked again: gone
    step(t, 1500)
    assert shown(board) == (None, None)
    sup.command(SCREEN)
    step(t, 1500)
    assert shown(board)[0] == "meters"
    deals = t.controller.game.finished_deals()
    hold(t, False)  # play resumes: the screen closes with the display's next events
    t.run(lambda g: g.finished_deals() > deals)
    step(t, 1500)
    assert shown(board) == (None, None)


def test_a_consoles_ask_for_the_meters_screen_is_refused_and_counted():
    """A seat's console asks as the supervisor's button on its own (paired, sealed) panel
    address, and as the supervisor's address on the shoe's wire: neither is the
    credential. Each refusal counted; the table display shows no meters."""
    t, sup = metered()
    board = board_of(t)
    mid_deal(t, 1)
    hold(t)
    step(t, 1000)
    c = t.controller
    before = c.errors.get("credentials", 0)
    for s, console in enumerate(t.consoles):
        console.link.send(W.PANEL + s, W.BUTTON, bytes((B.SUPERVISOR, SCREEN)))
    c.on_frame(c.route[W.SHOE], W.SUPERVISOR, 1, W.BUTTON, bytes((SCREEN, 0)))  # on the shoe's UART
    step(t, 2000)
    assert c.errors.get("credentials", 0) - before == len(t.consoles) + 1
    assert shown(board) == (None, None) and getattr(c, "screen", None) is None
    sup.command(SCREEN)  # the supervisor's own is taken
    step(t, 1500)
    assert shown(board)[0] == "meters"


def test_on_the_micropython_virtual_board_the_screen_shows_within_the_heap_budget():
    """The same on the MicroPython virtual board (webassembly, the heap measured at every
    step): the supervisor's ask shows the meters, asked again they go; the high-water
    stays under the Pico's budget (the screen's work loaded for the moment: supervise.py,
    tally.py, unloaded after)."""
    from tapis.simulator.table.supervisor import EmuSupervisor
    from tapis.simulator.boards.vtable import VirtualBoardTable
    from test_vboard import HEAP_BUDGET
    with VirtualBoardTable(3, "ecarte", heap=True) as vb:
        vb.run_deals(1)
        board = board_of(vb)
        sup = EmuSupervisor(vb.lines[1].end("supervisor"))
        vb.devices.append(sup)
        vb.run(lambda g: g.finished_deals() == 1 and g.to_act >= 0)
        hold(vb)
        step(vb, 1500)
        sup.command(SCREEN)
        step(vb, 1500)
        mode, screen = shown(board)
        assert mode == "meters", (mode, vb.board_log()[-5:] if hasattr(vb, "board_log") else None)
        assert screen["deals"] >= 1 and len(screen["seats"]) == 2
        sup.command(SCREEN)
        step(vb, 1500)
        assert shown(board) == (None, None)
        hw = vb.close()
    assert 0 < hw <= HEAP_BUDGET, hw
    print("meters screen on the virtual board: heap high-water %d bytes" % hw)
