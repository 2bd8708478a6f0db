# tapis pair: provision a panel, display or framed shoe with its keys for one table
# (docs/security.md, "Device identity"). The device, on a serial port of its own (not the
# bus; the shoe on its own cable, unplugged from the table), says its type
# and serial; its key for each address it will speak on is derived from the table's device
# key (the host's key store, as `tapis flash` made it), so the board derives the same keys
# and keeps no table of them. The keys travel only on that port.
import json
import sys
import time

from tapis.firmware import wire as W
from tapis.firmware.link.frames import Decoder, encode
from tapis.firmware.link.hello import pair_key
from tapis.firmware.offboard.device import PAIR
from tapis.host import args as A

NAMES = {W.DEV_CONSOLE: "console", W.DEV_DISPLAY: "display", W.DEV_SHOE: "shoe"}


def register(sub):
    p = sub.add_parser("pair", help="pair a panel, display or framed shoe with a table: provision its keys")
    p.add_argument("--port", type=A.port, required=True, metavar="URL", help="the device's own serial port (pyserial URL)")
    key = p.add_mutually_exclusive_group(required=True)
    key.add_argument("--board", metavar="ID", help="the table's board id (its key in the host's key store, "
                                                   "as tapis flash made it)")
    key.add_argument("--key-file", metavar="PATH", help="the table's device key file (hex)")
    p.add_argument("--seat", type=_seat, help="the seat a console sits at (0..7); a display without it "
                                              "is the table display")
    p.add_argument("--timeout", type=A.seconds, default=5.0, help="seconds to wait for the device (default 5)")
    p.add_argument("--json", action="store_true", help="what was paired, as JSON")
    p.set_defaults(func=run, parser=p)


def _seat(text):
    import argparse
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("--seat wants a seat number 0..7, got %r" % (text,)) from None
    if not 0 <= n < W.SEATS:
        raise argparse.ArgumentTypeError("--seat must be 0..7, got %r" % (text,))
    return n


def addresses(dtype, seat):
    """The addresses a device of this type speaks on, at `seat` (None: the table display)."""
    if dtype == W.DEV_CONSOLE:
        if seat is None:
            raise ValueError("this device is a console: say its seat with --seat")
        return (W.PANEL + seat, W.DISPLAY + seat)
    if dtype == W.DEV_DISPLAY:
        return (W.TABLE_DISPLAY,) if seat is None else (W.DISPLAY + seat,)
    if dtype == W.DEV_SHOE:  # the shoe's sessions on its own cable (issue 29.1)
        return (W.SHOE,)
    raise ValueError("device type %d is not a panel, a display or a shoe: nothing to pair" % dtype)


def ask(port, payload, timeout):
    """Send a PAIR frame; the device's answer (type, serial). TimeoutError when none comes."""
    port.write(encode(W.HOST, 1, PAIR, payload))
    frames, end = Decoder(), time.monotonic() + timeout
    while time.monotonic() < end:
        for _a, _s, ftype, answer in frames.feed(port.read() or b""):
            if ftype == PAIR and answer:
                return answer[0], bytes(answer[1:])
        time.sleep(0.01)
    raise TimeoutError("no answer from a device on %s in %g s: is it a panel, display or shoe, on its "
                       "own port and powered?" % (port.url if hasattr(port, "url") else "the port", timeout))


def run(args):
    from tapis.host.errors import FlashError
    from tapis.host.keys import load_key
    from tapis.host.ports import PortError, open_port
    try:
        device_key = load_key(args.board, args.key_file)
        with open_port(args.port) as port:
            dtype, serial = ask(port, b"", args.timeout)
            addrs = addresses(dtype, args.seat)
            payload = b"".join(bytes((a,)) + pair_key(device_key, dtype, a, serial) for a in addrs)
            ask(port, payload, args.timeout)
    except (FlashError, PortError, TimeoutError, ValueError, OSError) as e:
        sys.stderr.write("tapis pair: %s\n" % e)
        return 2
    out = {"schema": "tapis.pair/1", "port": args.port, "type": NAMES.get(dtype, dtype),
           "serial": serial.decode("ascii", "replace"), "addresses": ["0x%02x" % a for a in addrs]}
    if args.json:
        print(json.dumps(out))
    else:
        print("paired %s %s on %s: addresses %s" % (out["type"], out["serial"], args.port, ", ".join(out["addresses"])))
    return 0
