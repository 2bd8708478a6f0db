"""Serial ports on the host, by pyserial URL: a device path (/dev/ttyUSB0, COM3, a pty such
as /dev/pts/4), socket://host:port, loop://, rfc2217://... A SerialPort is a Port (simulator/port.py), the read()/write()
interface of the firmware's Link (firmware/link/link.py): read() returns what has arrived,
b"" when nothing has, and never blocks."""
import serial

from tapis.simulator.port import Port

DEFAULT_BAUD = 115200


class PortError(OSError):
    pass


class SerialPort(Port):
    """A Port on a pyserial URL."""

    def __init__(self, ser):
        self.ser = ser

    def read(self):
        n = self.ser.in_waiting
        return self.ser.read(n) if n else b""

    def wait(self, timeout):
        """Block up to timeout seconds for data; return what came (b"" if nothing)."""
        self.ser.timeout = timeout
        first = self.ser.read(1)
        return first + self.read() if first else b""

    def write(self, data):
        n = self.ser.write(bytes(data))
        self.ser.flush()
        return n

    def close(self):
        self.ser.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open_port(url, baudrate=DEFAULT_BAUD):
    """A Port on any pyserial URL; PortError says which URL failed and why."""
    try:
        ser = serial.serial_for_url(url, baudrate=baudrate, timeout=0)
    except (serial.SerialException, ValueError, OSError) as e:
        raise PortError("cannot open %r: %s" % (url, e)) from None
    return SerialPort(ser)


# ---- finding a board -------------------------------------------------------------------------
# USB ids (vendor, product; None: any product) of the boards tapis flashes, as MicroPython's
# own USB stacks announce them, then of the USB-to-serial bridges that ESP32 boards carry
# (which a shoe on a USB adapter may carry too: `--port auto` takes one only when it is alone).
BOARDS = {(0x2E8A, None): "Raspberry Pi RP2 board (Pico)", (0xF055, None): "MicroPython board",
          (0x303A, None): "Espressif board (ESP32, native USB)"}
BRIDGES = {(0x10C4, 0xEA60): "CP210x USB-serial (ESP32 boards)", (0x1A86, 0x7523): "CH340 USB-serial",
           (0x1A86, 0x55D4): "CH9102 USB-serial (ESP32 boards)", (0x0403, 0x6001): "FTDI USB-serial",
           (0x0403, 0x6015): "FTDI USB-serial"}
AUTO = "auto"


def _kind(vid, pid):
    for table, kind in ((BOARDS, "board"), (BRIDGES, "bridge")):
        for (v, p), what in table.items():
            if vid == v and p in (None, pid):
                return kind, what
    return (None, None) if vid is None else ("usb", None)


def serial_ports():
    """Every serial port pyserial's list_ports sees, as dicts, sorted by device, with what
    tapis makes of it: `board` (a MicroPython board's kind, or a bridge's, or None)."""
    from serial.tools import list_ports

    found = []
    for p in sorted(list_ports.comports(), key=lambda p: p.device):
        kind, what = _kind(p.vid, p.pid)
        found.append({"device": p.device, "description": p.description if p.description != "n/a" else None,
                      "vid": p.vid, "pid": p.pid, "serial_number": p.serial_number,
                      "manufacturer": p.manufacturer, "product": p.product, "kind": kind, "board": what})
    return found


def find_board(ports=None):
    """The one port `--port auto` means: the MicroPython board if there is exactly one, else
    the one USB-serial bridge; PortError listing the candidates otherwise."""
    ports = serial_ports() if ports is None else ports
    for kind in ("board", "bridge"):
        hits = [p for p in ports if p["kind"] == kind]
        if len(hits) == 1:
            return hits[0]["device"]
        if len(hits) > 1:
            raise PortError("--port auto: %d boards are plugged in (%s): name one with --port"
                            % (len(hits), ", ".join(p["device"] for p in hits)))
    raise PortError("--port auto: no MicroPython board is plugged in (`tapis ports` lists the "
                    "serial ports); name one with --port")


def resolve(url):
    """`url` itself, or for 'auto' the board's port (find_board)."""
    return find_board() if url == AUTO else url
