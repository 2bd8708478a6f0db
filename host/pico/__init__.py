# The real firmware on the emulated Pico: flashed, at the emulated table, measured, its boot timed by phase.
