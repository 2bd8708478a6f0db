# One Port (issue 43.5): a serial line's end as the firmware's Link sees it (firmware/link/link.py;
# on a board, firmware/link/boards.py's UARTPort and firmware/operator/usb.py's USBPort, which
# import nothing of the host's). read() gives what has arrived, b"" when nothing has, and never
# blocks; write(data) takes bytes and says how many it took; close() lets go of what the end
# holds. Every end the host wires a table with is one: the in-memory pipes (table/pipes.py), the
# wires at a baud rate (table/wires.py), the emulated Pico's serial lines (pico/board.py), the
# host's serial ports by pyserial URL (host/ports.py), its pty (host/table/hostport.py) and the
# shoe tool's tap (host/shoe/emulate.py).


class Port:
    def read(self):
        """What has arrived since the last read, b"" when nothing has; never blocks."""
        raise NotImplementedError

    def write(self, data):
        """Bytes out; how many the end took."""
        raise NotImplementedError

    def close(self):
        """Let go of what the end holds (an end in memory holds nothing)."""
