# The board's entry (Raspberry Pi Pico or ESP32; started by the main.py that `tapis flash`
# writes, once the signed manifest checks). It reads what the table plays from the signed
# configuration, runs the self-test, and only when that passes opens the UARTs (the shoe's
# link, and the RS-485 bus of which the controller is the master), builds the table from
# the journal (resuming an unfinished game) and runs the controller loop on
# time.ticks_ms() under the hardware watchdog.
#
# Nothing stops the table: an exception, a MemoryError or an OSError is printed on the USB
# console and the board resets, to resume from the journal; a full filesystem first has
# the journal compacted; what cannot be mended (a bad configuration, a failed self-test, a
# corrupt journal, a filesystem still full) is refused on the displays, the console and
# the LED. The controller is the same code as on the host.
#
# A configuration with "host_link": "usb" puts the operator's link (the host interface,
# keyed with the device key) on the USB, where the console was (usb.py, loaded only
# then): from the moment the table's links open, the console is closed and Ctrl-C does
# nothing; what is printed after goes out between the link's frames, which the host finds
# by their start byte and CRC.
import sys
import time

from machine import UART, Pin

from ..link import boards
from ..link.bus import BusMaster
from ..journal.writer import Journal
from ..link.link import Link
from ..journal.store import FileStore, JournalError

_WDT_MS = 8000  # the watchdog resets a board whose loop stalls this long (rp2: at most 8388)
_ENOSPC = 28
_CRASHES = "/crashes"  # resets in a row without a deal finished: after _MAX_CRASHES, refuse
_MAX_CRASHES = 5


def board_name():
    return "esp32" if sys.platform == "esp32" else "rp2"


def halt(led, why, route=None, events=None):
    """Refuse to run: say why on the USB console, on the displays when the links are up,
    and blink the LED, forever (feeding the watchdog if one runs). The event log's held
    power-up entry is written first (EventLog.log hold: a boot that halts never plays)."""
    if events is not None:
        events.write()
    for line in why:
        print("tapis: " + line)
    shown = []
    links = []
    if route is not None:
        from ..link.drivers import Display
        for a in route:
            if route[a] not in links:
                links.append(route[a])
            if 0x40 <= a <= 0x4F:  # the seat displays and the table display
                shown.append(Display(route[a], a))
    now = 0
    while True:
        led.toggle()
        for d in shown:
            d.show({"refused": why})
        for link in links:
            link.poll(now)
        if _wdt is not None:
            _wdt.feed()
        time.sleep_ms(200)
        now += 200


def open_uart(spec):
    uid, tx, rx, de, baud = spec
    uart = UART(uid, baudrate=baud, tx=Pin(tx), rx=Pin(rx), rxbuf=boards.RX_BUFFER)
    return boards.UARTPort(uart, Pin(de, Pin.OUT) if de is not None else None), baud


def crashes(add):
    """How many resets in a row came from a crash (add: one more; False: clear; None: read)."""
    n = 0
    try:
        with open(_CRASHES) as f:
            n = int(f.read() or 0)
    except (OSError, ValueError):
        pass
    if add is None:
        return n
    n = n + 1 if add else 0
    try:
        if n:
            with open(_CRASHES, "w") as f:
                f.write(str(n))
        else:
            import os
            os.remove(_CRASHES)
    except OSError:
        pass
    return n


_wdt = None


def watchdog():
    global _wdt
    try:
        from machine import WDT
        _wdt = WDT(timeout=_WDT_MS)
    except (ImportError, ValueError, OSError):
        _wdt = None
    return _wdt


def main():
    cfg = boards.BOARDS[board_name()]
    led = Pin(cfg["led"], Pin.OUT)
    from . import build as boot, config, selftest  # boot-only: unloaded once the table is built

    try:
        game, options = config.load(boards.CONFIG)
        with open(boards.CONFIG, "rb") as f:
            raw = f.read()
        policy, plain, usb = config.tilts(raw), config.text_shoe(raw), config.host_link(raw)
    except (config.ConfigError, OSError, ValueError) as e:
        halt(led, ["configuration refused: %s" % e])
        return
    game = str(game)
    store = FileStore(boards.JOURNAL)
    from .powerup import compacted, device, make_room, open_events  # boot-only: boot.unload frees it
    key, ident = device()  # the journal is chained under it; the bus devices are paired with it
    if key is None:  # without it the journal would be unkeyed and the bus open: anyone could edit or speak
        halt(led, ["no device key (device.key): the journal cannot be chained nor the devices paired",
                   "the table refuses to run: flash it again with tapis flash"])
    from ..meters.holder import Meters  # beside the journal (tally.beside), committed after it
    meters = Meters("/journal.meters.a", "/journal.meters.b", key=key)
    full, dropped = make_room(store, key, ident, meters)
    from ..link.counter import on_board  # the counter the flash cannot roll back (docs/security.md)
    counter, said = on_board(cfg["counter"])
    del on_board
    if counter is None:  # none to read: its code out of the heap before the table is built
        from ..compat import unload
        unload("link.counter")
    meters.counter = counter  # type: ignore  (Meters.counter: None or a Counter, bound into the commits: custody.py)
    events = open_events(FileStore(boards.EVENTS), key, ident, crashes(None), quick=True, counter=said)
    if dropped:
        compacted(events, dropped)
    if full:
        halt(led, [full, "the table refuses to run: copy journal.bin off and remove it"], None, events)
    # before any UART is opened; the journal is checked as it is read (boot.build: its
    # last game's chain from the seal before it, the game it resumes parsed in full; the
    # segments before once playing, below), with the displays up to say why when it is refused
    failed = selftest.run(None, game)
    if failed:
        halt(led, ["self-test failed: " + f for f in failed] +
             ["the table refuses to run; a corrupt journal can be moved away to start afresh"], None, events)
    shoe, baud = open_uart(cfg["shoe"])
    bus, _baud = open_uart(cfg["bus"])
    rto = boards.rto_ms(baud)
    route = boards.route_for(Link(shoe, rto_ms=rto, max_in=boards.MAX_IN),
                             BusMaster(bus, baud, rto_ms=rto, max_in=boards.MAX_IN, keys=key), text_shoe=plain)
    if usb:  # the host interface on the USB: the console closes here (usb.py)
        from ..operator.usb import open_link
        from ..wire import HOST
        route[HOST] = open_link(key, rto)
    try:
        journal = Journal(store, held=True, key=key, device=ident)
        journal.meters = meters  # type: ignore  (Journal.meters: None or a Meters)
        ctrl = boot.build(route, journal, game, options, keep_log=False, signed=config.signer() or "unsigned",
                          events=events, defer=True)
        ctrl.counter = counter  # type: ignore  (Controller.counter: None or a Counter)
    except JournalError as e:
        if "journal-failure" not in events.locked():  # (once: the halt reboots into it again)
            events.log("journal-failure", "journal refused: %s" % e, None, True)
        # a broken chain: the table does not play and nothing clears it; the operator
        # copies the journal off, then moves it aside (tapis board journal --move-aside)
        halt(led, ["journal refused: %s" % e, "the table refuses to play: export the journal, then "
                   "move it aside (tapis board journal --port URL --move-aside)"], route, events)
        return
    every = config.check_ms(boards.CONFIG)  # the periodic software check (swcheck.py)
    unchecked = events.unchecked  # the event log opened from its last seal: the rest checked once playing
    settle = True  # and its power-up written then (powerup.deferred)
    rest = journal.rest  # the journal's segments before its last game: hashed once playing (resume.Rest)
    del events
    boot.unload()
    from ..compat import unload
    unload("boot.config")
    del boot, selftest, config
    from . import report
    report.install(ctrl.game)  # off unless /report.on exists: the game's inputs on the USB console
    from ..table.watch import Watch
    door = Pin(cfg["door"], Pin.IN, Pin.PULL_UP)
    ctrl.watch = Watch(lambda now: door.value(), *policy)
    wdt = watchdog()
    # the journal and the event log (a FileStore each) feed it through a long copy (compaction)
    FileStore.feed = wdt.feed if wdt is not None else None  # type: ignore
    now = 0
    last = time.ticks_ms()
    steady = False
    check, since, pin = None, 0, None
    if every:  # the manifest the boot check verified, as the periodic checks compare it
        from ..verify.swcheck import pinned
        pin = pinned()
        unload("verify.swcheck", "verify")
    while True:
        t = time.ticks_ms()
        now += time.ticks_diff(t, last)  # a clock that does not wrap
        last = t
        ctrl.step(now)
        if settle:  # (the boot's resume is over: issue 30's 2 s)
            from .powerup import deferred
            deferred(ctrl, key, ident, unchecked)
            unload("boot.powerup", "eventlog.log", "eventlog.walk", "eventlog.opening", "eventlog")
            settle = False
        if rest is not None:  # a piece a turn; a break locks the table
            try:
                if rest.step():
                    rest = None
            except JournalError as e:
                rest = None
                from ..eventlog.log import JOURNAL
                ctrl.tilt(JOURNAL, "journal refused once playing: %s" % e)
        if every and now - since >= every:  # a piece of the check a turn, between deals
            from ..verify.swcheck import tick
            check = tick(ctrl, check, pin)
            if check is False:
                check, since = None, now
                unload("verify.swcheck", "verify.xip", "verify")
        if not steady and now > 60000:  # a minute up: the crashes before were not in a row
            steady = True
            crashes(False)
        if wdt is not None:
            wdt.feed()
        time.sleep_ms(1)


def run():
    """main(), and whatever escapes it reboots the board into the journal's resume."""
    try:
        main()
    except Exception as e:  # MemoryError and OSError included: nothing leaves the table dead
        try:
            sys.print_exception(e)  # type: ignore
        except AttributeError:
            pass
        n = crashes(True)
        led = Pin(boards.BOARDS[board_name()]["led"], Pin.OUT)
        if isinstance(e, OSError) and e.args and e.args[0] == _ENOSPC:
            print("tapis: the filesystem is full: the journal is compacted at the next boot")
        if n >= _MAX_CRASHES:
            halt(led, ["crashed %d times in a row (%r): the table refuses to run" % (n, e)])
        print("tapis: crashed (%r): resetting to resume from the journal" % (e,))
        import machine
        machine.reset()


run()
