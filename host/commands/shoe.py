import datetime
import json
import secrets
import sys
import time

from tapis.host import args as A

DIALECTS = ("auto", "frames", "text")


def register(sub):
    p = sub.add_parser("shoe", help="monitor or emulate a dealer shoe on a serial port",
                       description="Talk to a dealer shoe through a pyserial URL (a device path, a pty, "
                       "socket://host:port, loop://), in the framed protocol or the plain-text dialect "
                       "(one card code per line, ERR <code> for a fault; see docs/protocol.md).")
    sp = p.add_subparsers(dest="action", metavar="ACTION")
    sp.required = True
    m = sp.add_parser("monitor", help="decode a shoe's traffic live, with timestamps")
    m.add_argument("--port", required=True, help="pyserial URL or device path")
    m.add_argument("--baud", type=A.positive, default=115200, help="baud rate (default 115200)")
    m.add_argument("--dialect", choices=DIALECTS, default="auto", help="default: detect from the traffic")
    m.add_argument("--count", type=A.positive, help="stop after N events (default: run until Ctrl-C)")
    m.add_argument("--duration", type=float, help="stop after this many seconds")
    m.add_argument("--json", action="store_true", help="one JSON object per event")
    m.set_defaults(func=monitor, parser=m)
    e = sp.add_parser("emulate", help="act as a shoe on a serial port or pty")
    e.add_argument("--port", required=True, help="pyserial URL or device path")
    e.add_argument("--baud", type=A.positive, default=115200, help="baud rate (default 115200)")
    e.add_argument("--dialect", choices=("frames", "text"), default="frames",
                   help="frames (default): answer SHUFFLE and DRAW frames as the table's shoe; "
                   "text: stream the shuffled pack, one card per line, then ERR E")
    e.add_argument("--decks", type=A.positive, default=1, help="text dialect: packs in the shoe (default 1)")
    e.add_argument("--pack", type=int, choices=(32, 36, 52), default=52,
                   help="text dialect: cards in one pack (default 52)")
    e.add_argument("--seed", type=A.seed, help="seed for a reproducible shuffle (default: random, printed)")
    e.add_argument("--interval", type=float, default=0.2, help="text dialect: seconds between cards")
    e.add_argument("--count", type=A.positive, help="stop after delivering N cards")
    e.add_argument("--duration", type=float, help="stop after this many seconds")
    e.add_argument("--json", action="store_true", help="log what it sends and receives as JSON lines")
    e.set_defaults(func=emulate, parser=e)

    d = sp.add_parser("draw", help="ask a framed shoe for N cards, as the table's controller does")
    d.add_argument("--port", required=True, help="pyserial URL or device path")
    d.add_argument("--baud", type=A.positive, default=115200, help="baud rate (default 115200)")
    d.add_argument("n", type=A.positive, metavar="N", help="how many cards (1-255)")
    d.add_argument("--shuffle", type=int, choices=(32, 36, 52, 104),
                   help="have it load and shuffle a fresh pack of this size first")
    d.add_argument("--timeout", type=float, default=10.0, help="seconds to wait (default 10)")
    d.add_argument("--json", action="store_true", help="one JSON object per card or fault")
    d.set_defaults(func=draw, parser=d)


def draw(args):
    """Greet the shoe, (SHUFFLE,) DRAW N, and print each card or fault until N came, the
    shoe stopped (a fault) or the time ran out (exit 1)."""
    from tapis.firmware import wire as W
    from tapis.firmware.cards import name
    from tapis.firmware.dialect import fault_line, meaning
    from tapis.firmware.link import Link

    if args.n > 255:
        args.parser.error("N must be 1..255 (a DRAW asks for one byte's worth), got %d" % args.n)
    if args.timeout <= 0:
        args.parser.error("--timeout must be positive, got %r" % args.timeout)
    args.duration = None
    port = _open(args)
    try:
        link = Link(port, W.DEV_HOST, b"tapis-shoe-draw")
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
                    out = {"type": "CARD", "card": name(payload[0]), "code": payload[0]}
                    print(json.dumps(out) if args.json else name(payload[0]), flush=True)
                elif ftype == W.FAULT:
                    out = {"type": "FAULT", "fault": fault_line(bytes(payload)), "meaning": meaning(bytes(payload))}
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


def _open(args):
    from tapis.host.ports import PortError, open_port

    if args.duration is not None and args.duration <= 0:
        args.parser.error("--duration must be positive, got %r" % args.duration)
    try:
        return open_port(args.port, args.baud)
    except PortError as e:
        args.parser.error(str(e))


class _Clock:
    def __init__(self):
        self.t0 = time.monotonic()

    def stamp(self, ev):
        now = datetime.datetime.now().astimezone()
        ev["time"] = now.isoformat(timespec="milliseconds")
        ev["t"] = round(time.monotonic() - self.t0, 3)
        return ev

    def line(self, ev, prefix=""):
        return "%s +%9.3fs  %s%s" % (ev["time"][11:23], ev["t"], prefix, _render(ev))


def _render(ev):
    from tapis.host.shoe import render
    return render(ev)


def _emit(args, clock, ev, prefix=""):
    clock.stamp(ev)
    if args.json:
        print(json.dumps(ev), flush=True)
    else:
        print(clock.line(ev, prefix), flush=True)


def _expired(args, clock):
    return args.duration is not None and time.monotonic() - clock.t0 >= args.duration


def monitor(args):
    from tapis.host.shoe import Monitor

    port = _open(args)
    mon = Monitor(None if args.dialect == "auto" else args.dialect)
    clock = _Clock()
    seen = 0
    sys.stderr.write("monitoring %s (%s dialect); Ctrl-C to stop\n" % (args.port, args.dialect))
    sys.stderr.flush()
    try:
        while not _expired(args, clock):
            data = port.wait(0.05)
            if not data:
                continue
            for ev in mon.feed(data):
                _emit(args, clock, ev)
                seen += 1
                if args.count and seen >= args.count:
                    return 0
    except KeyboardInterrupt:
        return 0
    finally:
        port.close()
    return 0


class _Tap:
    """A Port that logs what goes through it, decoded, as the monitor would show it."""

    def __init__(self, port, args, clock):
        from tapis.host.shoe import Monitor

        self.port, self.args, self.clock = port, args, clock
        self.rx, self.tx = Monitor("frames"), Monitor("frames")
        self.cards = 0  # distinct cards delivered
        self.recent = []  # (type, seq) of the last data frames sent, to tell resends

    def read(self):
        data = self.port.wait(0.001)
        for ev in self.rx.feed(data) if data else ():
            _emit(self.args, self.clock, dict(ev, direction="in"), "<- ")
        return data

    def write(self, data):
        for ev in self.tx.feed(data):
            if ev["type"] in ("CARD", "FAULT"):
                key = (ev["type"], ev["seq"])
                if key in self.recent:  # the Link sends it again: not a new card
                    ev["resent"] = True
                else:
                    self.recent.append(key)
                    del self.recent[:-128]
                    self.cards += ev["type"] == "CARD"
            _emit(self.args, self.clock, dict(ev, direction="out"), "-> ")
        return self.port.write(data)


def emulate(args):
    from tapis.firmware.rng import Seeded
    from tapis.firmware.dialect import card_line
    from tapis.host.shoe import text_pack

    seed = args.seed if args.seed is not None else secrets.randbelow(2 ** 32)
    port = _open(args)
    clock = _Clock()
    sys.stderr.write("emulating a shoe on %s (%s dialect, seed %d); Ctrl-C to stop\n"
                     % (args.port, args.dialect, seed))
    sys.stderr.flush()
    rng = Seeded(seed)
    try:
        if args.dialect == "text":
            for i, c in enumerate(text_pack(args.pack, args.decks, rng)):
                if (args.count and i >= args.count) or _expired(args, clock):
                    return 0
                port.write(card_line(c))
                _emit(args, clock, {"dialect": "text", "type": "CARD", "card": card_line(c).decode().strip(),
                                    "direction": "out"}, "-> ")
                if args.interval > 0:
                    time.sleep(args.interval)
            port.write(b"ERR E\n")
            _emit(args, clock, {"dialect": "text", "type": "FAULT", "fault": "E", "meaning": "shoe empty",
                                "direction": "out"}, "-> ")
            return 0
        from tapis.simulator.devices import EmuShoe

        tap = _Tap(port, args, clock)
        shoe = EmuShoe(tap, rng)
        now = 0
        while not _expired(args, clock) and not (args.count and tap.cards >= args.count):
            now = int((time.monotonic() - clock.t0) * 1000)
            shoe.step(now)
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        port.close()
