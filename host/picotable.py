"""The real firmware on an emulated Raspberry Pi Pico, at the emulated table (tapis table
--board pico): `tapis flash` deploys it over the USB CDC (a pty) with the configuration of
the game, a power cycle starts main.py (manifest check, configuration, self-test, UART0 to
the shoe, UART1 to the RS-485 bus with its driver enable on GPIO6), and the host's
emulated shoe, consoles (with bots) and table display answer on the same wires as the
CPython board's (simulator/table.py), stepped in lockstep with the chip one emulated
millisecond at a time.

The board reports each (action, events) it applies on its USB console (firmware/report.py,
switched on by the file report.on); a CPython mirror of the game is fed the board's actions
and each report is checked against it (ParityError otherwise), as simulator/vboard.py does
for the webassembly board. Recorders and `until` predicates read the mirror.

    with PicoTable(7, image="RPI_PICO-v1.27.0.uf2") as t:
        t.run_deals(3)
        t.board_log, t.heap
"""
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

from tapis.firmware.report import APPLIED, FLAG, HEAP
from tapis.simulator.pico.board import EmulatedPico, PicoError
from tapis.simulator.pico.setup import cache_dir
from tapis.simulator.table import EmulatedTable, StalledTable  # noqa: F401
from tapis.simulator.vboard import ParityError

BUS_DE_GPIO = 6  # firmware/boards.py: the RS-485 transceiver's driver enable
BOOT_MS = 60_000  # emulated ms a boot may take before the game reports


class PicoBridge:
    """Stands where the firmware controller stands in EmulatedTable: the chip's UART0 and
    UART1 on the board's ends of the shoe's wire and of the bus."""

    def __init__(self, table):
        self.t = table
        (_a, self.shoe), (_b, self.bus) = table.wires
        self.faults = []

    def step(self, now_ms):
        t = self.t
        pico = t.pico
        pico.uart0.write(self.shoe.read())
        pico.uart1.write(self.bus.read())
        pico.step(1)
        for port, end in ((pico.uart0, self.shoe), (pico.uart1, self.bus)):
            data = port.read()
            if data:
                end.write(data)
        t.console(pico.usb.read())


def _kwargs(options):
    return {k: getattr(options, k) for k in options.FIELDS} if options is not None else {}


class PicoTable(EmulatedTable):
    def __init__(self, seed, game="ecarte", options=None, evaluator=None, players=None, on_table=None,
                 image=None, flash_path=None, log=None, **kw):
        self.image, self.flash_path, self.say = image, flash_path, log or (lambda line: None)
        self.options = options
        self.board_log = []  # the board's events, across power cycles
        self.applied = []  # the (action, events) the mirror took, in order
        self.marks = []  # len(board_log) after the setup and after each applied input
        self.inputs_lost = 0  # inputs the board took but lost with the power (taken again)
        self.resumes = []  # how many events each resumed game was rebuilt with
        self.heap = []  # (ms, alloc, free) the board reported at each deal
        self.lines_seen = []  # the board's other console lines ("tapis: firmware verified ...")
        self._line = bytearray()
        self._greeted = -1
        EmulatedTable.__init__(self, seed, game, options, None, players, on_table, **kw)
        self.mirror_options = options
        self.flash()
        self.boot()

    def _controller(self):
        self.pico = EmulatedPico(self.image, self.flash_path, gate={1: BUS_DE_GPIO})
        return PicoBridge(self)

    # ---- deploying and booting ----
    def _flash_key(self):
        from tapis.host.flash import build_image, configuration
        image = build_image(config=configuration(self.name, None, _kwargs(self.options)))
        h = hashlib.sha256(self.pico.image.read_bytes())
        h.update(self.key)  # the device key it is flashed with (the bus devices are paired with it)
        for path in sorted(image):
            h.update(path.encode() + b"\0" + image[path])
        return h.hexdigest()[:24]

    def flash(self):
        """`tapis flash --verify` over a pty to the USB CDC with this game's configuration,
        then report.on. A flash file already made for the same firmware and configuration
        is taken from the cache instead (the same bytes tapis flash would write)."""
        cached = cache_dir() / ("pico-flash-%s.bin" % self._flash_key())
        if cached.exists():  # (the runner has not started: it will load this flash)
            shutil.copyfile(cached, self.pico.flash_path)
            self.say("tapis: the flashed board from the cache (%s)" % cached.name)
            return
        path = self.pico.pty()
        try:
            with tempfile.TemporaryDirectory() as keys:
                key_file = os.path.join(keys, "table.key")  # the key the emulated devices are paired with
                with open(key_file, "w") as f:
                    f.write(self.key.hex() + "\n")
                argv = [sys.executable, "-m", "tapis", "flash", "--port", path, "--verify", "--json",
                        "--game", self.name, "--key-file", key_file]
                for k, v in sorted(_kwargs(self.options).items()):
                    argv += ["--option", "%s=%s" % (k, json.dumps(list(v) if isinstance(v, tuple) else v))]
                self.say("tapis: flashing the emulated Pico (tapis flash --verify)...")
                p = subprocess.run(argv, capture_output=True, text=True, timeout=1800,
                                   env=dict(os.environ, TAPIS_KEY_DIR=keys))
            if p.returncode:
                raise PicoError("tapis flash failed: %s" % (p.stderr.strip() or p.stdout))
            from tapis.host.flash import connect, exec_ok
            t = connect(path)
            try:
                exec_ok(t, "open(%r, 'w').close()" % FLAG)
            finally:
                t.exit_raw_repl()
                t.close()
        finally:
            self.pico.stop_pty()
        self.pico.save_flash()
        cached.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self.pico.flash_path, str(cached) + ".tmp")
        os.replace(str(cached) + ".tmp", cached)

    def boot(self, ms=BOOT_MS):
        """Power cycle the board and step until its game reports; the emulated ms it took."""
        self.pico.power_cycle()
        for _addrs, end in self.wires:
            end.inbox.clear()  # what the UARTs had buffered went with the power
            end.tx.clear()
        start = self.pico.now_ms
        while self._greeted != self.pico.boots:
            self.step()
            if self.pico.now_ms - start > ms:
                raise PicoError("the Pico's game did not start in %d ms; its console: %r"
                                % (ms, self.lines_seen[-8:]))
        return self.pico.now_ms - start

    # ---- what the board says on its USB console ----
    def console(self, data):
        self._line += data
        while b"\n" in self._line:
            i = self._line.index(b"\n")
            line = self._line[:i].decode(errors="replace").rstrip("\r")
            del self._line[:i + 1]
            if line.startswith(APPLIED):
                self._applied(*ast.literal_eval(line[len(APPLIED):]))
            elif line.startswith(HEAP):
                alloc, free = map(int, line[len(HEAP):].split())
                self.heap.append((self.pico.now_ms, alloc, free))
            else:
                self.lines_seen.append(line)
                self.say(line)

    def _applied(self, action, events):
        events = tuple(events)
        if action is None:  # the game as the board built it, at boot
            if not self.marks:
                if tuple(self.game.log) != events:
                    raise ParityError("the board began with %r, CPython with %r" % (events, self.game.log))
                self.board_log.extend(events)
                self.marks.append(len(self.board_log))
            else:
                self._resumed(events)
            self._greeted = self.pico.boots
            return
        mine = tuple(self.game.apply(action))
        if mine != events:
            raise ParityError("action %r at %d ms: the Pico gave %r, CPython %r"
                              % (action, self.pico.now_ms, events, mine))
        self.applied.append((action, events))
        self.board_log.extend(events)
        self.marks.append(len(self.board_log))

    def _resumed(self, events):
        """The board rebuilt its game from the journal, whose last events must be those of
        the game played so far, or of it without its last inputs (taken but not written
        when the power went: their devices were not acknowledged and send them again)."""
        n, done = len(events), len(self.applied)
        self.resumes.append(n)
        for k in range(done, max(-1, done - 16), -1):
            log = self.board_log[:self.marks[k]]
            if len(log) >= n and tuple(log[len(log) - n:]) == events:
                break
        else:
            raise ParityError("the board resumed into %r, not the game played so far" % (events,))
        if k < done:
            self.inputs_lost += done - k
            self.game = self.kit.new_game(self.options)
            for action, _ev in self.applied[:k]:
                self.game.apply(action)
            del self.applied[k:], self.marks[k + 1:], self.board_log[self.marks[k]:]

    def power_cycle(self):
        """Power off and on in the middle of play; the emulated ms the resume took."""
        return self.boot()

    def _stopped(self):
        """Power on, Ctrl-C main.py (before its watchdog starts): the raw REPL, as an
        operator reaches it with mpremote. The table is not running after it: boot()
        starts it."""
        from tapis.simulator.pico.repl import Repl

        pico = self.pico
        pico.power_cycle()
        repl = Repl(pico)
        start = pico.now_ms
        while b">>> " not in repl.buf:  # Ctrl-C every ms until the REPL answers
            pico.usb.write(b"\x03")
            pico.step(1)
            data = pico.usb.read()
            repl.buf += data
            repl.transcript += data
            if pico.now_ms - start > BOOT_MS:
                raise PicoError("the Pico never came to its REPL; it said %r" % bytes(repl.buf[-300:]))
        repl.sync()
        return repl

    def identity(self):
        """(device key, device id) the flashed board chains its journal under
        (firmware/main.py device()), read off the board."""
        repl = self._stopped()
        # (what firmware/main.py device() reads: importing that module would start the table)
        got, err = repl.exec_raw("import binascii, machine\nprint(open('device.key').read().strip(), "
                                 "binascii.hexlify(machine.unique_id()).decode())")
        if err or len(got.split()) != 2:
            raise PicoError("the Pico's device key and id: %r %r" % (got, err))
        key, ident = got.split()
        return bytes.fromhex(key), ident

    def put_files(self, files, chunk=2048):
        """Write {board path: bytes} on the board's filesystem, as an operator would with
        mpremote (the raw REPL). The table is not running after it: boot() starts it."""
        import binascii

        repl = self._stopped()
        for path, data in sorted(files.items()):
            chunks = ["f.write(binascii.a2b_base64(%r))" % binascii.b2a_base64(data[i:i + chunk], newline=False)
                      for i in range(0, len(data), chunk)]
            for code in ["import binascii\nf = open(%r, 'wb')" % path] + chunks + ["f.close()"]:
                _out, err = repl.exec_raw(code)
                if err:
                    raise PicoError("writing %s on the Pico: %s" % (path, err.strip()))
        got, err = repl.exec_raw("import os\nprint(sorted((p, os.stat(p)[6]) for p in %r))"
                                 % (sorted(files),))
        want = str(sorted((p, len(d)) for p, d in files.items()))
        if err or got.strip() != want:
            raise PicoError("the files on the Pico are not those written: %r %r" % (got, err))

    def close(self):
        self.pico.close()
        return 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def measure(seed=7, deals=4, cycle_in_deal=3, image=None, log=print, game="ecarte"):
    """Flash, boot, play `deals` deals with a power cycle in the middle of deal
    `cycle_in_deal` (0: none), compare with the CPython table; log and return the figures."""
    import time

    figures = {"seed": seed, "deals": deals, "game": game}
    unfed = 0
    wall = time.monotonic()
    with PicoTable(seed, game, image=image, log=log) as t:
        figures["flash_and_boot_wall_s"] = round(time.monotonic() - wall, 1)
        per_deal = []
        for n in range(1, deals + 1):
            wall, emu = time.monotonic(), t.pico.now_ms
            if n == cycle_in_deal:  # a dozen events into this deal: power off and on
                at = len(t.board_log) + 12
                t.run(lambda g: len(t.board_log) >= at)
                figures["cycled_at"] = {"event": len(t.board_log), "deals_done": t.game.finished_deals()}
                unfed = t.pico.stats()["watchdog_longest_unfed_ms"]  # (the runner's counters start again)
                figures["resume_emulated_ms"] = t.power_cycle()
                figures["resumed_with_events"] = t.resumes[-1]
            t.run_deals(n)
            per_deal.append((round(time.monotonic() - wall, 1), t.pico.now_ms - emu))
            log("deal %d: %.1f s wall, %d emulated ms" % (n, per_deal[-1][0], per_deal[-1][1]))
        # The proof: the board's events are CPython's for the inputs the board took, in the
        # order it took them (replayed on a fresh game, across the power cycle). The CPython
        # table run on its own takes them in its own order wherever two seats may act at
        # once (a king announced while the other seat plays): both games are legal, so that
        # its events are the same too is a figure, not a law.
        replay = t.kit.new_game(t.options)
        for action, _events in t.applied:
            replay.apply(action)
        ref = EmulatedTable(seed, game)
        ref.run_deals(deals)
        figures["inputs_lost_in_the_power_cycle"] = t.inputs_lost
        figures["same_events_as_cpython"] = t.board_log == list(replay.log)
        figures["same_order_as_the_cpython_table"] = t.board_log[:len(ref.game.log)] == list(ref.game.log)
        figures["events"] = len(t.board_log)
        figures["deals_played"] = t.game.finished_deals()
        figures["per_deal_wall_s_emulated_ms"] = per_deal
        figures["speed_ratio"] = round(sum(e for _w, e in per_deal) / 1000 / max(0.1, sum(w for w, _e in per_deal)), 2)
        figures["heap_at_deals"] = [(a, f) for _ms, a, f in t.heap]
        figures["runner"] = t.pico.stats()
        # the longest the firmware went without feeding its watchdog (8 s resets the board)
        figures["watchdog_longest_unfed_ms"] = max(unfed, figures["runner"]["watchdog_longest_unfed_ms"])
        figures["watchdog_resets"] = {"timed_out": t.pico.watchdog_resets[0], "forced": t.pico.watchdog_resets[1]}
        figures["console"] = list(t.lines_seen)
    log(json.dumps(figures, indent=1))
    return figures


def full_journal(seed=7, game="ecarte", options=None, done=None, key=None, device=""):
    """A full journal as the CPython board leaves it (firmware.boot.build over a memory
    store, the emulated devices, the bots): the KEEP completed games the journal keeps
    (or `done`) and the unfinished one, played to its last input (the longest resume),
    chained under `key` for `device` (a board's: it refuses any other chain).
    (journal bytes, the CPython game's event log then)."""
    from tapis.firmware.journal import KEEP, Journal
    from tapis.firmware.memstore import MemoryStore

    done = KEEP if done is None else done
    store = MemoryStore()
    t = EmulatedTable(seed, game, options, journal=Journal(store, key=key, device=device))
    j = t.journal
    last = None
    while j.number <= done + 1:
        size = store.size()
        t.step()
        if j.number == done + 1 and store.size() != size:  # not the input that ends the game
            last = bytes(store.data), list(t.game.log)
    return last


def resumed_game(data, key=None, device=""):
    """The game a board rebuilds from journal bytes (firmware.boot.resume, on CPython)."""
    from tapis.firmware.boot import resume
    from tapis.firmware.journal import Journal
    from tapis.firmware.memstore import MemoryStore
    from tapis.firmware.resume import load

    j = Journal(MemoryStore(data), key=key, device=device)
    load(j, False)
    return resume(j)[0]


def measure_resume(seed=7, game="ecarte", image=None, log=print, flash_path=None, done=None):
    """The emulated ms from power-on to the table playing (the board's game reported on
    its console, firmware/report.py) on the emulated Pico flashed for `game`: with a fresh
    journal, and resuming from a full one (full_journal) put on its filesystem as
    /journal.bin (done: its completed games, KEEP if None). The resumed game must be the
    CPython one (PicoTable checks its events)."""
    import time

    from tapis.firmware.boards import JOURNAL

    from tapis.firmware.journal import Journal
    from tapis.firmware.memstore import MemoryStore
    from tapis.firmware.reader import parse
    from tapis.firmware.resume import load

    with PicoTable(seed, game, image=image, log=log, flash_path=flash_path) as t:
        figures = {"game": game, "seed": seed, "fresh_ms": t.boot()}
        key, ident = t.identity()
        wall = time.monotonic()
        data, events = full_journal(seed, game, done=done, key=key, device=ident)
        recs = parse(data, Journal(MemoryStore(), key=key, device=ident))[0]
        board = Journal(MemoryStore(data), key=key, device=ident)
        load(board, False, keep_log=False)  # what the board will parse and replay of it
        figures.update({"journal_bytes": len(data), "records": len(recs),
                        "games": sum(r["k"] == "b" for r in recs), "done": sum(r["k"] == "e" for r in recs),
                        "last_game_inputs": sum(r["k"] == "i" for r in recs[max(
                            k for k, r in enumerate(recs) if r["k"] == "b"):]),
                        "inputs_replayed": len(board.last["inputs"]),
                        "make_journal_wall_s": round(time.monotonic() - wall, 1)})
        wall = time.monotonic()
        t.put_files({JOURNAL: data})
        figures["put_wall_s"] = round(time.monotonic() - wall, 1)
        # the mirror: the game played so far is the CPython one that wrote the journal
        t.game, t.board_log, t.applied, t.marks = resumed_game(data, key, ident), events, [], [len(events)]
        wall = time.monotonic()
        figures["resume_ms"] = t.boot()
        figures["resume_wall_s"] = round(time.monotonic() - wall, 1)
        figures["resumed_with_events"] = t.resumes[-1]
        figures["console"] = [c for c in t.lines_seen if "refused" in c or "crash" in c]
    log(json.dumps(figures))
    return figures


if __name__ == "__main__":  # python -m tapis.host.picotable [SEED [DEALS]]; the image in $TAPIS_PICO_IMAGE
    measure(*(int(a) for a in sys.argv[1:3]))
