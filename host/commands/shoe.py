# `tapis shoe`: its parser, and `tapis shoe draw`; the monitor and the emulator are
# host/shoe/monitor.py and host/shoe/emulate.py.
import json
import sys
import time

from tapis.host import args as A
from tapis.host.shoe.emulate import emulate
from tapis.host.shoe.monitor import monitor
from tapis.host.shoe.session import add_key_options, opened, table_key

DIALECTS = ("auto", "frames", "text")
DRAW = "tapis.shoe.draw/1"  # each line of `tapis shoe draw --json` (docs/schemas.md)


def register(sub):
    p = sub.add_parser("shoe", help="monitor or emulate a dealer shoe on a serial port",
                       description="Talk to a dealer shoe through a pyserial URL (a device path, a pty, "
                       "socket://host:port, loop://), in the framed protocol or the plain-text dialect "
                       "(one card code per line, ERR <code> for a fault; see docs/protocol.md).")
    sp = p.add_subparsers(dest="action", metavar="ACTION")
    sp.required = True
    m = sp.add_parser("monitor", help="decode a shoe's traffic live, with timestamps",
                      description="Decode what arrives on a port (or a capture read back), with "
                      "timestamps; at the end, what was counted: frames, cards, faults, frames sent "
                      "again (marked resent), CRC errors, resynchronisations, bytes outside any frame.")
    src = m.add_mutually_exclusive_group(required=True)
    src.add_argument("--port", type=A.port, help="pyserial URL or device path")
    src.add_argument("--from", dest="source", metavar="FILE",
                     help="decode a capture made with --capture instead of a port")
    m.add_argument("--baud", type=A.positive, default=115200, help="baud rate (default 115200)")
    m.add_argument("--dialect", choices=DIALECTS, default="auto", help="default: detect from the traffic")
    m.add_argument("--hex", action="store_true", help="also show every read's raw bytes, in hex and ASCII")
    m.add_argument("--capture", metavar="FILE", help="save every read's bytes, timed, for --from")
    m.add_argument("--count", type=A.positive, help="stop after N events (default: run until Ctrl-C)")
    m.add_argument("--duration", type=A.seconds, help="stop after this many seconds")
    m.add_argument("--json", action="store_true", help="one JSON object per event, then the summary")
    m.set_defaults(func=monitor, parser=m)
    e = sp.add_parser("emulate", help="act as a shoe on a serial port or pty")
    e.add_argument("--port", type=A.port, required=True, help="pyserial URL or device path")
    e.add_argument("--baud", type=A.positive, default=115200, help="baud rate (default 115200)")
    e.add_argument("--dialect", choices=("frames", "text"), default="frames",
                   help="frames (default): answer SHUFFLE and DRAW frames as the table's shoe; "
                   "text: stream the shuffled pack, one card per line, then ERR E")
    e.add_argument("--stream", action="store_true",
                   help="frames: deal the pack unasked, one CARD frame every --interval seconds, then "
                   "FAULT E, for a monitor or a reader to watch (a table asks with DRAW instead); "
                   "the text dialect always streams")
    e.add_argument("--decks", type=_decks, default=1, help="streaming: packs in the shoe, 1 to 8 (default 1)")
    e.add_argument("--pack", type=int, choices=(32, 36, 52), default=52,
                   help="streaming: cards in one pack (default 52)")
    e.add_argument("--seed", type=A.seed, help="seed for a reproducible shuffle (default: random, printed)")
    e.add_argument("--interval", type=A.seconds_or_zero, default=0.2,
                   help="streaming: seconds between cards (default 0.2)")
    e.add_argument("--count", type=A.positive, help="stop after delivering N cards")
    e.add_argument("--duration", type=A.seconds, help="stop after this many seconds")
    e.add_argument("--json", action="store_true", help="log what it sends and receives as JSON lines")
    add_key_options(e, "its sessions (framed, answering DRAW) are")
    e.set_defaults(func=emulate, parser=e)

    d = sp.add_parser("draw", help="ask a framed shoe for N cards, as the table's controller does")
    d.add_argument("--port", type=A.port, required=True, help="pyserial URL or device path")
    d.add_argument("--baud", type=A.positive, default=115200, help="baud rate (default 115200)")
    d.add_argument("n", type=A.positive, metavar="N", help="how many cards (1-255)")
    d.add_argument("--shuffle", type=int, choices=(32, 36, 52, 104),
                   help="have it load and shuffle a fresh pack of this size first")
    d.add_argument("--timeout", type=A.seconds, default=10.0, help="seconds to wait (default 10)")
    d.add_argument("--json", action="store_true", help="one JSON object per card or fault")
    add_key_options(d, "the shoe's sessions are")
    d.set_defaults(func=draw, parser=d)


def _decks(text):
    import argparse
    n = A.positive(text)
    if n > 8:
        raise argparse.ArgumentTypeError("a shoe holds 1 to 8 packs, got %r" % text)
    return n


def draw(args):
    """Greet the shoe, (SHUFFLE,) DRAW N, and print each card or fault until N came, the
    shoe stopped (a fault) or the time ran out (exit 1)."""
    from tapis.firmware import wire as W
    from tapis.firmware.cards import name
    from tapis.firmware.offboard.dialect import fault_line, meaning
    from tapis.firmware.link.link import Link

    if args.n > 255:
        args.parser.error("N must be 1..255 (a DRAW asks for one byte's worth), got %d" % args.n)
    if args.timeout <= 0:
        args.parser.error("--timeout must be positive, got %r" % args.timeout)
    args.duration = None
    keys = table_key(args)  # a bad key file said before the port is opened
    port = opened(args)
    try:
        link = Link(port, W.DEV_HOST, b"tapis-shoe-draw", keys=keys)
        link.own = W.SHOE  # (a paired shoe: its sessions keyed as the table keys them, bus.route_for)
        link.greet(W.SHOE, True)
        if args.shuffle:
            link.send(W.SHOE, W.SHUFFLE, bytes((args.shuffle,)))
        link.send(W.SHOE, W.DRAW, bytes((args.n,)))
        t0, got = time.monotonic(), 0
        while got < args.n:
            ms = int((time.monotonic() - t0) * 1000)
            if ms > args.timeout * 1000:
                sys.stderr.write("tapis shoe draw: %d of %d cards in %.1f s\n" % (got, args.n, args.timeout))
                return 1
            for _a, _s, ftype, payload in link.poll(ms):
                if ftype == W.CARD and len(payload) == 1:
                    got += 1
                    out = {"schema": DRAW, "type": "CARD", "card": name(payload[0]), "code": payload[0]}
                    print(json.dumps(out) if args.json else name(payload[0]), flush=True)
                elif ftype == W.FAULT:
                    out = {"schema": DRAW, "type": "FAULT", "fault": fault_line(bytes(payload)),
                           "meaning": meaning(bytes(payload))}
                    print(json.dumps(out) if args.json else "ERR %s (%s)" % (out["fault"], out["meaning"]), flush=True)
                    if payload[:1] != bytes((W.CUT,)):
                        return 0  # the shoe stopped
            time.sleep(0.001)
        link.poll(int((time.monotonic() - t0) * 1000))  # acknowledge the last
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        port.close()
