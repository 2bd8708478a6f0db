"""An emulated Raspberry Pi Pico: the official MicroPython image on rp2040js (npm), driven
from here in lockstep (README.md in this folder): setup (what it needs, one clear error
each), board (EmulatedPico), pty (its USB CDC on a pseudo-terminal), repl (the REPL over
USB), table (the flashed firmware at the emulated table)."""
