# `tapis shoe monitor`: decode what arrives on a port, or a capture read back (host/shoe/traffic.py's
# Monitor), each event stamped and printed; at the end, what was counted.
import datetime
import json
import sys

from tapis.host.shoe.session import Clock, emit, expired, opened


def _reads(args, clock):
    """(seconds since the start, bytes) of every read: live from the port, or from a capture.
    The port or the capture is opened now (a bad one exits 2 before anything is shown)."""
    from tapis.host.shoe.traffic import CaptureError, read_capture

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
    return _live(args, clock, opened(args))


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
        while not expired(args, clock):
            data = port.wait(0.05)
            if data:
                clock.at = round(clock.elapsed(), 6)  # the read's time: the capture keeps the same
                yield clock.at, data
    finally:
        port.close()


def monitor(args):
    from tapis.host.shoe.traffic import SUMMARY, Monitor, capture_header, capture_line, render_summary

    mon = Monitor(None if args.dialect == "auto" else args.dialect)
    clock = Clock()
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
                emit(args, clock, {"dialect": mon.dialect, "type": "BYTES", "hex": data.hex()})
            for ev in mon.feed(data):
                emit(args, clock, ev)
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
