# The board's entry (Raspberry Pi Pico or ESP32; copied to the board as main.py by
# `tapis flash`). It runs the self-test, and only when that passes opens the UARTs,
# builds the table from the journal (resuming an unfinished game) and runs the
# controller loop on time.ticks_ms(). The controller is the same code as on the host.
import sys
import time

from machine import UART, Pin

from . import boards
from .link import Link
from .journal import Journal, JournalError
from .store import FileStore

GAME = "ecarte"  # the game this table plays (the journal's, when it resumes one)


def board_name():
    return "esp32" if sys.platform == "esp32" else "rp2"


def halt(led, why):
    """Refuse to run: say why on the USB console and blink the LED, forever."""
    for line in why:
        print("tapis: " + line)
    while True:
        led.toggle()
        time.sleep_ms(200)


def open_link(spec):
    uid, tx, rx, de, baud = spec
    uart = UART(uid, baudrate=baud, tx=Pin(tx), rx=Pin(rx))
    port = boards.UARTPort(uart, Pin(de, Pin.OUT) if de is not None else None)
    return Link(port, rto_ms=boards.rto_ms(baud))


def main():
    cfg = boards.BOARDS[board_name()]
    led = Pin(cfg["led"], Pin.OUT)
    from . import boot, selftest  # boot-only: unloaded once the table is built

    store = FileStore(boards.JOURNAL)
    failed = selftest.run(store, GAME)  # before any UART is opened
    if failed:
        halt(led, ["self-test failed: " + f for f in failed] +
             ["the table refuses to run; a corrupt journal can be moved away to start afresh"])
    route = boards.route_for(open_link(cfg["shoe"]), open_link(cfg["bus"]))
    try:
        ctrl = boot.build(route, Journal(store), GAME, keep_log=False)
    except JournalError as e:
        halt(led, ["journal refused: %s" % e])
        return
    boot.unload()
    del boot, selftest
    now = 0
    last = time.ticks_ms()
    while True:
        t = time.ticks_ms()
        now += time.ticks_diff(t, last)  # a clock that does not wrap
        last = t
        ctrl.step(now)
        time.sleep_ms(1)


main()
