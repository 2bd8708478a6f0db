"""Serial ports on the host, by pyserial URL: a device path (/dev/ttyUSB0, COM3, a pty such
as /dev/pts/4), socket://host:port, loop://, rfc2217://... A Port has the read()/write()
interface of the firmware's Link (firmware/link.py): read() returns what has arrived,
b"" when nothing has, and never blocks."""
import serial

DEFAULT_BAUD = 115200


class PortError(OSError):
    pass


class Port:
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
    return Port(ser)
