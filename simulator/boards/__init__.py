# The virtual boards: the firmware compiled and run under real MicroPython (webassembly, unix port, a pty board).
