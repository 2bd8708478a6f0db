"""An emulated Raspberry Pi Pico: the official MicroPython image on rp2040js (npm), driven
from here in lockstep (README.md in this folder): setup (what it needs, one clear error
each), runner (the Node process and its envelope), board (EmulatedPico, a runner with the
chip's serial lines), pty (its USB CDC on a pseudo-terminal), repl (the REPL over USB). The
flashed firmware at the emulated table is host/pico/table.py."""
