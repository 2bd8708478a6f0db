import datetime
import json
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
    m = sp.add_parser("monitor", help="decode a shoe's traffic live, with timestamps",
                      description="Decode what arrives on a port (or a capture read back), with "
                      "timestamps; at the end, what was counted: frames, cards, faults, frames sent "
                      "again (marked resent), CRC errors, resynchronisations, bytes outside any frame.")
    src = m.add_mutually_exclusive_group(required=True)
    src.add_argument("--port", help="pyserial URL or device path")
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
    e.add_argument("--port", required=True, help="pyserial URL or device path")
    e.add_argument("--baud", type=A.positive, default=115200, help="baud rate (default 115200)")
    e.add_argument("--dialect", choices=("frames", "text"), default="frames",
                   help="frames (default): answer SHUFFLE and DRAW frames as the table's shoe; "
                   "text: stream the shuffled pack, one card per line, then ERR E")
    e.add_argument("--stream", action="store_true",
                   help="frames: deal the pack unasked, one CARD frame every --interval seconds, then "
                   "FAULT E, for a monitor or a reader to watch (a table asks with DRAW instead); "
                   "the text dialect always streams")
    e.add_argument("--decks", type=A.positive, default=1, help="streaming: packs in the shoe (default 1)")
    e.add_argument("--pack", type=int, choices=(32, 36, 52), default=52,
                   help="streaming: cards in one pack (default 52)")
    e.add_argument("--seed", type=A.seed, help="seed for a reproducible shuffle (default: random, printed)")
    e.add_argument("--interval", type=A.seconds_or_zero, default=0.2,
                   help="streaming: seconds between cards (default 0.2)")
    e.add_argument("--count", type=A.positive, help="stop after delivering N cards")
    e.add_argument("--duration", type=A.seconds, help="stop after this many seconds")
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

    try:
        return open_port(args.port, args.baud)
    except PortError as e:
        args.parser.error(str(e))


class _Clock:
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
    from tapis.host.shoe import render
    return render(ev)


def _emit(args, clock, ev, prefix=""):
    from tapis.host.shoe import EVENT

    clock.stamp(ev)
    if args.json:
        print(json.dumps(dict(ev, schema=EVENT)), flush=True)
    else:
        print(clock.line(ev, prefix), flush=True)


def _expired(args, clock):
    return args.duration is not None and clock.elapsed() >= args.duration


def _reads(args, clock):
    """(seconds since the start, bytes) of every read: live from the port, or from a capture.
    The port or the capture is opened now (a bad one exits 2 before anything is shown)."""
    from tapis.host.shoe import CaptureError, read_capture

    if args.source is not None:
        try:
            with open(args.source, encoding="utf-8") as f:
                header, chunks = read_capture(f)
        except (OSError, UnicodeDecodeError, CaptureError) as e:
            args.parser.error("--from %s: %s" % (args.source, e))
        try:
            clock.start = datetime.datetime.fromisoformat(header["time"])
        except (KeyError, TypeError, ValueError):
            pass
        return _replay(args, clock, header, chunks)
    return _live(args, clock, _open(args))


def _replay(args, clock, header, chunks):
    sys.stderr.write("reading the capture %s (of %s, %s dialect)\n"
                     % (args.source, header.get("port"), args.dialect))
    for t, data in chunks:
        if args.duration is not None and t >= args.duration:
            return
        clock.at = t
        yield t, data


def _live(args, clock, port):
    sys.stderr.write("monitoring %s (%s dialect); Ctrl-C to stop\n" % (args.port, args.dialect))
    sys.stderr.flush()
    try:
        while not _expired(args, clock):
            data = port.wait(0.05)
            if data:
                clock.at = round(clock.elapsed(), 6)  # the read's time: the capture keeps the same
                yield clock.at, data
    finally:
        port.close()


def monitor(args):
    from tapis.host.shoe import SUMMARY, Monitor, capture_header, capture_line, render_summary

    mon = Monitor(None if args.dialect == "auto" else args.dialect)
    clock = _Clock()
    reads = _reads(args, clock)
    capture = None
    if args.capture is not None:
        try:
            capture = open(args.capture, "w", encoding="utf-8")
        except OSError as e:
            args.parser.error("--capture %s: %s" % (args.capture, e.strerror or e))
        capture.write(capture_header(args.port or args.source, args.baud, clock.start.isoformat()))
    seen = 0
    try:
        for t, data in reads:
            if capture is not None:
                capture.write(capture_line(t, data))
                capture.flush()
            if args.hex:
                _emit(args, clock, {"dialect": mon.dialect, "type": "BYTES", "hex": data.hex()})
            for ev in mon.feed(data):
                _emit(args, clock, ev)
                seen += 1
                if args.count and seen >= args.count:
                    return 0
        return 0
    finally:  # also on Ctrl-C (then the command exits 130): what was counted, and the capture kept
        if capture is not None:
            capture.close()
        summary = mon.summary()
        if args.json:
            print(json.dumps(dict(summary, schema=SUMMARY, type="SUMMARY")), flush=True)
        else:
            sys.stderr.write(render_summary(summary) + "\n")


class _Tap:
    """A Port that logs what goes through it, decoded, as the monitor would show it (a frame
    the link sends again is marked resent)."""

    def __init__(self, port, args, clock):
        from tapis.host.shoe import Monitor

        self.port, self.args, self.clock = port, args, clock
        self.rx, self.tx = Monitor("frames"), Monitor("frames")

    @property
    def cards(self):
        """Cards delivered (each once, whatever the resends)."""
        return self.tx.counts["cards"]

    def read(self):
        data = self.port.wait(0.001)
        for ev in self.rx.feed(data) if data else ():
            _emit(self.args, self.clock, dict(ev, direction="in"), "<- ")
        return data

    def write(self, data):
        for ev in self.tx.feed(data):
            _emit(self.args, self.clock, dict(ev, direction="out"), "-> ")
        return self.port.write(data)


def _stream(args, port, clock, rng):
    """Deal the shuffled pack unasked, one card every --interval seconds, then the empty
    shoe's fault: as text lines, or as frames from the shoe's address (sequence 1, 2, ...)."""
    from tapis.firmware import frames as F
    from tapis.firmware import wire as W
    from tapis.firmware.dialect import card_line
    from tapis.host.shoe import text_pack

    tap = _Tap(port, args, clock)
    tap.tx.dialect = args.dialect
    text = args.dialect == "text"

    def card(c, seq):
        return card_line(c) if text else F.encode(W.SHOE, seq & 255, W.CARD, bytes((c,)))

    def empty(seq):
        return b"ERR E\n" if text else F.encode(W.SHOE, seq & 255, W.FAULT, bytes((W.EMPTY,)))

    seq = 0
    for c in text_pack(args.pack, args.decks, rng):
        if (args.count and tap.cards >= args.count) or _expired(args, clock):
            return 0
        seq += 1
        tap.write(card(c, seq))
        if args.interval > 0:
            time.sleep(args.interval)
    tap.write(empty(seq + 1))
    return 0


def emulate(args):
    from tapis.firmware.rng import Seeded

    seed = args.seed if args.seed is not None else A.new_seed()
    port = _open(args)
    clock = _Clock()
    streaming = args.stream or args.dialect == "text"
    sys.stderr.write("emulating a shoe on %s (%s dialect%s, seed %d); Ctrl-C to stop\n"
                     % (args.port, args.dialect, ", dealing unasked" if streaming else "", seed))
    sys.stderr.flush()
    rng = Seeded(seed)
    try:
        if streaming:
            return _stream(args, port, clock, rng)
        from tapis.simulator.devices import EmuShoe

        tap = _Tap(port, args, clock)
        shoe = EmuShoe(tap, rng)
        while not _expired(args, clock) and not (args.count and tap.cards >= args.count):
            shoe.step(int(clock.elapsed() * 1000))
        return 0
    finally:
        port.close()
