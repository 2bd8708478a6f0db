# The emulated table: shoe, panels and displays on in-memory links, bots behind the
# panels, the table simulator, and the virtual board (firmware under real MicroPython).
