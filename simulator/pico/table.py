"""The real firmware on an emulated Raspberry Pi Pico, at the emulated table: `tapis flash`
deploys it over the USB CDC (a pty), a power cycle starts main.py (manifest check, self-test,
UART0 to the shoe, UART1 to the RS-485 bus with its driver enable on GPIO6), and the host's
emulated shoe, seat consoles (with bots) and table display answer on those wires, stepped in
lockstep with the chip, one emulated millisecond at a time.

The board reports each (action, events) it applies on its USB console (firmware/report.py,
switched on by the file report.on); a CPython mirror of the game is fed the board's actions
and every step checks that the board's events are the mirror's (ParityError otherwise), as
simulator/vboard.py does for the webassembly board.

    with PicoTable(seed=7) as t:
        t.flash()
        t.boot()
        t.run_deals(3)
        t.board_log, t.heap
"""
import ast
import json
import os
import subprocess
import sys

from firmware import protocol as P
from firmware.rng import Seeded
from firmware.report import APPLIED, FLAG, HEAP
from simulator.devices import EmuConsole, EmuDisplay, EmuShoe
from simulator.games import GAMES
from simulator.pico_board import EmulatedPico, PicoError
from simulator.pipes import pipe
from simulator.vboard import ParityError

STALL_MS = 5000  # emulated ms without a new event before the run is declared stuck
BUS_DE_GPIO = 6  # firmware/boards.py: the RS-485 transceiver's driver enable


class PicoTable:
    def __init__(self, seed, image=None, flash_path=None, game="ecarte", players=None, **pico):
        self.kit = GAMES[game]
        self.game = self.kit.new_game(None)  # the CPython mirror (the board plays the defaults)
        seats = self.kit.Table(self.game).SEATS
        players = players or [self.kit.Bot() for _ in range(seats)]
        self.shoe_end, dev = pipe()
        self.devices = [EmuShoe(dev, Seeded(seed))]
        self.bus_ends = []  # [(addresses, host-side end)] of the devices on the bus
        self.consoles = []
        for s in range(seats):
            end, dev = pipe()
            self.bus_ends.append(((P.PANEL + s, P.DISPLAY + s), end))
            self.consoles.append(EmuConsole(dev, s, players[s]))
        end, dev = pipe()
        self.bus_ends.append(((P.TABLE_DISPLAY,), end))
        self.devices += self.consoles + [EmuDisplay(dev)]
        self.by_addr = {a: end for addrs, end in self.bus_ends for a in addrs}
        self.pico = EmulatedPico(image, flash_path, gate={1: BUS_DE_GPIO}, **pico)
        self.decoder = P.Decoder()
        self.board_log = []  # the board's events, across power cycles
        self.applied = []  # the (action, events) the mirror took, in order
        self.marks = []  # len(board_log) after the setup and after each applied input
        self.inputs_lost = 0  # inputs the board took but lost with the power (taken again)
        self.resumes = []  # how many events each resumed game was rebuilt with, from the journal
        self.heap = []  # (ms, alloc, free) the board reported at each deal
        self.console = []  # the board's other console lines ("tapis: firmware verified ...")
        self.faults = []  # bus frames addressed to nobody
        self._line = bytearray()
        self._greeted = -1  # the boot whose (None, log) report was checked

    # ---- deploying and booting ----
    def flash(self, env=None):
        """`tapis flash --verify` over a pty to the USB CDC, then report.on; {result}."""
        path = self.pico.pty()
        try:
            p = subprocess.run([sys.executable, "-m", "host.cli", "flash", "--port", path, "--verify",
                                "--json"], capture_output=True, text=True, timeout=900,
                               env=env or dict(os.environ))
            if p.returncode:
                raise PicoError("tapis flash failed: %s" % (p.stderr.strip() or p.stdout))
            from host.flash import connect, exec_ok

            t = connect(path)
            try:
                exec_ok(t, "open(%r, 'w').close()" % FLAG)
            finally:
                t.exit_raw_repl()
                t.close()
        finally:
            self.pico.stop_pty()
        return json.loads(p.stdout)

    def boot(self, ms=30_000):
        """Power cycle the board and step until its game reports; the emulated ms it took."""
        self.pico.power_cycle()
        for _addrs, end in [((P.SHOE,), self.shoe_end)] + self.bus_ends:
            end.inbox.clear()  # what the UARTs had buffered went with the power
        start = self.pico.now_ms
        self.run(lambda g: self._greeted == self.pico.boots, limit_ms=ms, stall_ms=ms)
        return self.pico.now_ms - start

    # ---- lockstep ----
    def step(self):
        pico = self.pico
        pico.uart0.write(self.shoe_end.read())
        pico.uart1.write(b"".join(end.read() for _addrs, end in self.bus_ends))
        pico.step(1)
        self.shoe_end.write(pico.uart0.read())  # the shoe has its UART to itself
        for addr, seq, ftype, payload in self.decoder.feed(pico.uart1.read()):
            end = self.by_addr.get(addr)
            if end is None:
                self.faults.append("frame for unknown address 0x%02x" % addr)
            else:
                end.write(P.encode(addr, seq, ftype, payload))
        self._console(pico.usb.read())
        for d in self.devices:
            d.step(pico.now_ms)

    def _console(self, data):
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
                self.console.append(line)

    def _applied(self, action, events):
        events = tuple(events)
        if action is None:  # the game as the board built it, at boot
            if not self.marks:  # a new game: its setup must be the mirror's
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
        the game played so far, or of it without the last inputs: one the board took but
        had not journaled when the power went (its device was not acknowledged, so it will
        send it again). Then the mirror forgets those inputs too."""
        n, done = len(events), len(self.applied)
        self.resumes.append(n)
        for k in range(done, max(-1, done - 8), -1):
            log = self.board_log[:self.marks[k]]
            if len(log) >= n and tuple(log[len(log) - n:]) == events:
                break
        else:
            raise ParityError("the board resumed into %r, not the game played so far" % (events,))
        if k < done:
            self.inputs_lost += done - k
            self.game = self.kit.new_game(None)
            for action, ev in self.applied[:k]:
                self.game.apply(action)
            del self.applied[k:], self.marks[k + 1:], self.board_log[self.marks[k]:]

    def run(self, until, limit_ms=None, stall_ms=STALL_MS):
        """Step until until(mirror game) is true; StalledTable-like PicoError if nothing
        happens for stall_ms (or limit_ms passes)."""
        start, seen, quiet_since = self.pico.now_ms, len(self.board_log), self.pico.now_ms
        while not until(self.game):
            self.step()
            now = self.pico.now_ms
            if len(self.board_log) != seen:
                seen, quiet_since = len(self.board_log), now
            elif now - quiet_since > stall_ms or (limit_ms and now - start > limit_ms):
                raise PicoError("no progress on the Pico for %d ms; its console: %r; faults %r"
                                % (now - quiet_since, self.console[-8:], self.faults[-4:]))

    def run_deals(self, n):
        self.run(lambda g: self.kit.finished_deals(g) >= n)

    def close(self):
        self.pico.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def measure(seed=7, deals=4, cycle_in_deal=3, image=None, log=print, env=None):
    """Flash, boot, play `deals` écarté deals with a power cycle in the middle of deal
    `cycle_in_deal`, compare with the CPython table; log and return the figures."""
    import tempfile
    import time

    from simulator.table import EmulatedTable

    figures = {"seed": seed, "deals": deals}
    with tempfile.TemporaryDirectory() as keys, PicoTable(seed, image) as t:
        wall = time.monotonic()
        t.flash(env=env or dict(os.environ, TAPIS_KEY_DIR=keys))
        figures["flash_wall_s"] = round(time.monotonic() - wall, 1)
        wall, emu = time.monotonic(), t.pico.now_ms
        figures["boot_emulated_ms"] = t.boot()
        figures["boot_wall_s"] = round(time.monotonic() - wall, 1)
        per_deal = []
        for n in range(1, deals + 1):
            wall, emu = time.monotonic(), t.pico.now_ms
            if n == cycle_in_deal:  # a dozen events into this deal: power off and on
                at = len(t.board_log) + 12
                t.run(lambda g: len(t.board_log) >= at)
                figures["cycled_at"] = {"event": len(t.board_log), "deals_done": t.kit.finished_deals(t.game)}
                figures["resume_emulated_ms"] = t.boot()
                figures["resumed_with_events"] = t.resumes[-1]
            t.run_deals(n)
            per_deal.append((round(time.monotonic() - wall, 1), t.pico.now_ms - emu))
            log("deal %d: %.1f s wall, %d emulated ms" % (n, per_deal[-1][0], per_deal[-1][1]))
        ref = EmulatedTable(seed)
        ref.run_deals(deals)
        figures["inputs_lost_in_the_power_cycle"] = t.inputs_lost
        figures["same_events_as_cpython"] = t.board_log[:len(ref.game.log)] == list(ref.game.log)
        figures["events"] = len(ref.game.log)
        figures["per_deal_wall_s_emulated_ms"] = per_deal
        figures["speed_ratio"] = round(sum(e for _w, e in per_deal) / 1000 / sum(w for w, _e in per_deal), 2)
        figures["heap_at_deals"] = [(a, f) for _ms, a, f in t.heap]
        figures["runner"] = t.pico.stats()
        figures["console"] = t.console
    log(json.dumps(figures, indent=1))
    return figures


if __name__ == "__main__":  # python -m simulator.pico_table [SEED [DEALS]]; the image in $TAPIS_PICO_IMAGE
    measure(*(int(a) for a in sys.argv[1:3]))
