"""The MicroPython REPL of an emulated Pico over its USB CDC, in lockstep (emulated time):
the friendly REPL (`>>> `) and the raw REPL (Ctrl-A; code, Ctrl-D; "OK", output, \\x04,
error, \\x04, ">"), as mpremote speaks it. Timeouts are in emulated milliseconds, so a test
that passes does so whatever the machine's speed.

    repl = Repl(pico)
    repl.ready()
    out, err = repl.exec_raw("import sys; print(sys.implementation._machine)")
"""
from tapis.simulator.pico.board import PicoError

RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n>"


class Repl:
    def __init__(self, pico, port=None):
        self.pico = pico
        self.port = port or pico.usb
        self.buf = bytearray()  # what the board said and no read_until took yet
        self.transcript = bytearray()  # everything it said
        self.raw_boot = None  # the boot (pico.boots) in which we entered the raw REPL

    def read_until(self, marker, ms=10_000):
        """Step until `marker` comes; return what came up to and with it."""
        def seen():
            data = self.port.read()
            self.buf += data
            self.transcript += data
            return marker in self.buf

        if not seen() and not self.pico.run_for(ms, until=seen):
            raise PicoError("the Pico did not say %r in %d emulated ms; it said %r"
                            % (marker, ms, bytes(self.buf[-300:])))
        end = self.buf.index(marker) + len(marker)
        got, self.buf = bytes(self.buf[:end]), self.buf[end:]
        return got

    def ready(self, ms=30_000):
        """Wait for the friendly REPL after a (re)boot: Enter until a prompt answers.
        Returns the emulated ms it took."""
        start = self.pico.now_ms
        self.port.write(b"\r")
        self.read_until(b">>> ", ms)
        self.sync(ms)
        return self.pico.now_ms - start

    def sync(self, ms=10_000):
        """Skip whatever the board still had to say: ask for a sum, wait for its answer."""
        self.port.write(b"print(40000 + 2345)\r")
        self.read_until(b"42345\r\n>>> ", ms)

    def line(self, code, ms=10_000):
        """Type one line at the friendly REPL; return what it printed (without the echo)."""
        self.port.write(code.encode() + b"\r")
        got = self.read_until(b">>> ", ms)
        echo = code.encode() + b"\r\n"
        return got[len(echo):-4].decode() if got.startswith(echo) else got[:-4].decode()

    def raw(self, ms=10_000):
        """Enter the raw REPL (Ctrl-C first, as mpremote does)."""
        self.port.write(b"\r\x03\x03\x01")
        self.read_until(RAW_BANNER, ms)
        self.raw_boot = self.pico.boots

    def exec_raw(self, code, ms=30_000):
        """Run code in the raw REPL; (stdout, the error text or ''). Enters it if needed."""
        self.start_raw(code, ms)
        return self.finish_raw(ms)

    def start_raw(self, code, ms=30_000):
        """Send code to the raw REPL and return once it runs (its output is for finish_raw)."""
        if self.raw_boot != self.pico.boots:
            self.raw()
        self.port.write(code.encode() + b"\x04")
        self.read_until(b"OK", ms)

    def finish_raw(self, ms=30_000):
        """(stdout, error text) of the code start_raw sent, once it ends."""
        out = self.read_until(b"\x04", ms)[:-1]
        err = self.read_until(b"\x04", ms)[:-1]
        self.read_until(b">", ms)
        return out.decode(errors="replace"), err.decode(errors="replace")

    def friendly(self, ms=10_000):
        """Leave the raw REPL (Ctrl-B)."""
        self.port.write(b"\x02")
        self.read_until(b">>> ", ms)
        self.raw_boot = None
