# What the shoe tool's actions share (host/commands/shoe.py, host/shoe/monitor.py,
# host/shoe/emulate.py): the port opened (a bad one exits 2), the clock that stamps each event,
# an event printed as a line or as JSON.
import datetime
import json
import time


def opened(args):
    """The port of --port at --baud; one that cannot be opened exits 2 (the parser's error)."""
    from tapis.host.ports import PortError, open_port

    try:
        return open_port(args.port, args.baud)
    except PortError as e:
        args.parser.error(str(e))


class Clock:
    """Stamps events with the wall-clock time and the seconds since the start; `at` replays
    a capture's times."""

    def __init__(self, start=None):
        self.t0 = time.monotonic()
        self.start = start or datetime.datetime.now().astimezone()
        self.at = None  # seconds since the start, when replaying a capture

    def elapsed(self):
        return time.monotonic() - self.t0

    def stamp(self, ev):
        t = self.elapsed() if self.at is None else self.at
        ev["time"] = (self.start + datetime.timedelta(seconds=t)).isoformat(timespec="milliseconds")
        ev["t"] = round(t, 3)
        return ev

    def line(self, ev, prefix=""):
        return "%s +%9.3fs  %s%s" % (ev["time"][11:23], ev["t"], prefix, _render(ev))


def _render(ev):
    from tapis.host.shoe.traffic import render
    return render(ev)


def emit(args, clock, ev, prefix=""):
    from tapis.host.shoe.traffic import EVENT

    clock.stamp(ev)
    if args.json:
        print(json.dumps(dict(ev, schema=EVENT)), flush=True)
    else:
        print(clock.line(ev, prefix), flush=True)


def expired(args, clock):
    return args.duration is not None and clock.elapsed() >= args.duration


def table_key(args):
    """The table's device key the shoe's sessions are keyed with: --key-file's (hex), else the
    emulated table's (hello.TEST_KEY); None with --unpaired (a shoe that cannot pair, in clear)."""
    if getattr(args, "unpaired", False):
        return None
    if getattr(args, "key_file", None) is not None:
        from tapis.host.errors import FlashError
        from tapis.host.keys import load_key
        try:
            return load_key(None, args.key_file)
        except (FlashError, OSError, ValueError) as e:
            args.parser.error(str(e))
    from tapis.firmware.link.hello import TEST_KEY
    return TEST_KEY


def add_key_options(p, who):
    """--key-file and --unpaired, for `tapis shoe emulate` and `draw`."""
    p.add_argument("--key-file", metavar="PATH", help="the table's device key file (hex): %s keyed with "
                   "it, as `tapis pair` pairs a shoe (default: the emulated table's key)" % who)
    p.add_argument("--unpaired", action="store_true", help="frames in clear, no session: a shoe that "
                   "cannot pair (a keyed table refuses it)")
