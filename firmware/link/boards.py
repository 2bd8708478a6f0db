# Which UARTs, pins and baud rates each supported board uses (docs/hardware.md shows the
# wiring). Pure data plus the small Port wrapper over machine.UART; main.py builds them.
# The links over them (route_for, rto_ms, MAX_IN) are bus.py's: the virtual board has
# them but no UARTs.
from .bus import MAX_IN, route_for, rto_ms  # noqa: F401  (the links: any board, the virtual one too)
from ..compat import const

JOURNAL = "/journal.bin"
EVENTS = "/events.bin"  # the event log beside it (events.py)
CONFIG = "/config.json"  # what this table plays: written and signed by tapis flash
RX_BUFFER = const(1024)  # each UART's receive buffer: 89 ms of bytes at 115200
_BAUD = const(115200)

# name -> links: (addresses, UART id, tx pin, rx pin, RS-485 driver-enable pin or None, baud);
# "door": the door switch's input pin, pulled up: the switch closes it to ground while the
# door is shut, so an open door and a cut wire both read 1 (tilts.py reads it at safe points);
# "counter": the I2C (id, SDA pin, SCL pin) of the ATECC608 whose counter the flash cannot
# roll back (counter.py)
BOARDS = {
    # Raspberry Pi Pico (RP2040): two UARTs. UART0 on GP0/GP1 to the shoe (RS-232 level
    # shifter or TTL), UART1 on GP4/GP5 to the RS-485 bus of panels and displays, whose
    # transceiver's DE/RE is driven by GP6; the door switch on GP7; the ATECC608 on I2C0,
    # SDA GP8, SCL GP9.
    "rp2": {"shoe": (0, 0, 1, None, _BAUD), "bus": (1, 4, 5, 6, _BAUD), "led": 25, "door": 7, "counter": (0, 8, 9)},
    # ESP32: UART0 is the USB console; UART1 on GPIO4/5 to the shoe, UART2 on GPIO17/16
    # to the RS-485 bus with DE/RE on GPIO18; the door switch on GPIO19; the ATECC608 on
    # I2C0, SDA GPIO21, SCL GPIO22.
    "esp32": {"shoe": (1, 4, 5, None, _BAUD), "bus": (2, 17, 16, 18, _BAUD), "led": 2, "door": 19,
              "counter": (0, 21, 22)},
}


class UARTPort:
    """A Port (read() -> bytes, write(b)) over a machine.UART; with `de`, a Pin driving
    an RS-485 transceiver's driver enable around each write."""

    def __init__(self, uart, de=None):
        self.uart, self.de = uart, de
        if de is not None:
            de.value(0)

    def read(self):
        data = self.uart.read()
        return data if data else b""

    def write(self, data):
        de = self.de
        if de is not None:
            de.value(1)
        n = self.uart.write(data)
        if de is not None:
            self.uart.flush()  # wait until the last stop bit left, then release the bus
            de.value(0)
        return n
