"""A virtual MicroPython board on a pseudo-terminal: mpremote (or a person with a serial
terminal) talks to the pty as to a board's USB serial port, and the code runs in the real
MicroPython webassembly port (one long-lived Node process). Its filesystem (the port's
in-memory one) lasts as long as the board object: soft reboots keep it.

What a pty bridge needs to pass for a board (SPEC §6):
- the friendly REPL (`>>> `) and the raw REPL (Ctrl-A; code, Ctrl-D; "OK", output, EOF,
  errors, EOF, ">"), Ctrl-B back, Ctrl-C to interrupt;
- soft reboot on Ctrl-D: a fresh namespace, fresh imports of the board's own modules, the import
  path and mounts of before (main.py mounts the firmware image);
  from the friendly REPL it then runs boot.py and main.py, as a board does;
- raw-paste requests (Ctrl-E A Ctrl-A) answered with `R\\x00` (not supported), so mpremote
  falls back to the plain raw REPL;
- OSError errnos mapped from Emscripten's numbering (ENOENT is 44 there) to MicroPython's
  (POSIX: 2), so mpremote recognises "no such file" and "exists".

    with PtyBoard() as board:
        subprocess.run(["mpremote", "connect", board.path, "fs", "ls"])
"""
import os
import select
import struct
import subprocess
import tempfile
import threading
import tty

from tapis.simulator.boards import micropython
from tapis.simulator.boards.ptyserver import RUN_FILE, SERVER

BANNER = (b"MicroPython v1.27.0 on webassembly; tapis virtual board (pty)\r\n"
          b"Type \"help()\" for more information.\r\n")
RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n"


def _cooked(data):
    """What a board's USB serial sends for print(): \\n as \\r\\n."""
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


class PtyBoard:
    """A pty at .path that behaves as a MicroPython board. Use as a context manager."""

    def __init__(self):
        micropython.ensure_installed()
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo and no line discipline: a serial port
        self.path = os.ttyname(self.slave)
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(micropython.command(code=SERVER, roots=()),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err)
        self.raw = False
        self.line = b""
        self._buf = b""  # what the MicroPython process wrote and we have not used yet
        self.stop = threading.Event()
        self.transcript = bytearray()  # everything the board said, for tests and debugging
        self.reboots = 0
        self.lock = threading.RLock()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    # ---- the MicroPython process ----
    def _request(self, op, code=b""):
        self.proc.stdin.write(op + struct.pack(">I", len(code)) + code)
        self.proc.stdin.flush()

    def _read_part(self, forward):
        """The server's output up to its next \\x04 (sent on to the pty as it comes)."""
        got = b""
        while True:
            i = self._buf.find(b"\x04")
            if i >= 0:
                part, self._buf = self._buf[:i], self._buf[i + 1:]
                if forward:
                    self._send(_cooked(part))
                return got + part
            cut = self._buf.rfind(b"\n") + 1  # stream whole lines as they come
            if cut:
                part, self._buf = self._buf[:cut], self._buf[cut:]
                got += part
                if forward:
                    self._send(_cooked(part))
            data = os.read(self.proc.stdout.fileno(), 65536)
            if not data:
                raise EOFError("the MicroPython process exited")
            self._buf += data

    def execute(self, code, forward=True, framed=False):
        """Run code on the board; return (output, error text). framed: as the raw REPL
        answers, each part followed by \\x04."""
        with self.lock:  # the pty's thread and the caller's may both ask
            self._request(b"X", code if isinstance(code, bytes) else code.encode())
            out = self._read_part(forward)
            if framed:
                self._send(b"\x04")
            err = self._read_part(forward)
            if framed:
                self._send(b"\x04")
            return out, err

    def soft_reboot(self, friendly):
        with self.lock:
            self.reboots += 1
            self._request(b"R")
            self._read_part(False)
            if friendly:  # a board runs boot.py then main.py after a soft reboot in the REPL
                for name in ("boot.py", "main.py"):
                    self.execute(RUN_FILE % name)

    # ---- the pty ----
    def _send(self, data):
        if data:
            self.transcript += data
            while data:
                n = os.write(self.master, data)
                data = data[n:]

    def _loop(self):
        self._send(BANNER + b">>> ")
        try:
            while not self.stop.is_set():
                r, _, _ = select.select([self.master], [], [], 0.05)
                if not r:
                    continue
                try:
                    data = os.read(self.master, 4096)
                except OSError:
                    return
                for i in range(len(data)):
                    self._on_byte(data[i:i + 1])
        except EOFError:
            return

    def _on_byte(self, c):
        if self.raw:
            self._on_raw(c)
        else:
            self._on_friendly(c)

    def _on_raw(self, c):
        if self.line == b"\x05A" and c == b"\x01":  # a raw-paste request: not supported
            self.line = b""
            self._send(b"R\x00")
        elif c == b"\x01":  # Ctrl-A again: reset the raw REPL
            self.line = b""
            self._send(b"\r\n" + RAW_PROMPT + b">")
        elif c == b"\x02":  # Ctrl-B: back to the friendly REPL
            self.raw, self.line = False, b""
            self._send(b"\r\n" + BANNER + b">>> ")
        elif c == b"\x03":  # Ctrl-C: drop what was typed
            self.line = b""
        elif c == b"\x04":
            if not self.line:  # soft reboot, staying in the raw REPL
                self._send(b"soft reboot\r\n")
                self.soft_reboot(friendly=False)
                self._send(RAW_PROMPT + b">")
            else:
                code, self.line = self.line, b""
                self._send(b"OK")
                self.execute(code, framed=True)
                self._send(b">")
        else:
            self.line += c

    def _on_friendly(self, c):
        if c == b"\x01":
            self.raw, self.line = True, b""
            self._send(b"\r\n" + RAW_PROMPT + b">")
        elif c == b"\x02":
            self.line = b""
            self._send(b"\r\n" + BANNER + b">>> ")
        elif c == b"\x03":
            self.line = b""
            self._send(b"\r\nKeyboardInterrupt\r\n>>> ")
        elif c == b"\x04":
            self.line = b""
            self._send(b"\r\nMPY: soft reboot\r\n")
            self.soft_reboot(friendly=True)
            self._send(BANNER + b">>> ")
        elif c in (b"\r", b"\n"):
            code, self.line = self.line, b""
            self._send(b"\r\n")
            if code.strip():
                self.execute(code)
            self._send(b">>> ")
        elif c in (b"\x7f", b"\x08"):
            if self.line:
                self.line = self.line[:-1]
                self._send(b"\x08 \x08")
        else:
            self.line += c
            self._send(c)

    def close(self):
        self.stop.set()
        self.thread.join(timeout=5)
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self.err.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


if __name__ == "__main__":  # a board to poke at by hand: python -m simulator.ptyboard
    import time

    with PtyBoard() as b:
        print("virtual board on", b.path, "(Ctrl-C to stop)")
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            pass
