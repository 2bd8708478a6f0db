# tapis events: a table's event log (firmware/eventlog/log.py: power-ups, tilts, refused frames,
# supervisor actions, clears), from a file (beside a journal, host/memory/events.py: its chain
# checked under the device's key) or from a running table over its link (the supervisor's
# credential: the operator's USB), as text or as one tapis.events/2 document (--json).
import json
import sys

from tapis.firmware.eventlog.log import CLASSES
from tapis.firmware.journal.store import JournalError
from tapis.host import args as A
from tapis.host import operator_link as OL


def _class(text):
    import argparse
    if text not in CLASSES:
        raise argparse.ArgumentTypeError("no event class %r (one of %s)" % (text, ", ".join(CLASSES)))
    return text


def register(sub):
    p = sub.add_parser("events", help="show a table's event log: tilts, power-ups, clears")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--journal", metavar="PATH", help="a journal file (its event log beside it) or an event log file")
    src.add_argument("--port", type=A.port, metavar="URL", help="a table's link (pyserial URL)")
    p.add_argument("--class", dest="cls", type=_class, metavar="C", help="only the entries of class C")
    p.add_argument("--json", action="store_true", help="one tapis.events/2 document (docs/schemas/tapis.events-2.json)")
    p.add_argument("--set-clock", action="store_true",
                   help="with --port: set the board's clock to this host's time first (logged: it dates the "
                        "entries of the board's boot, as a Pico has no battery clock)")
    p.add_argument("--timeout", type=A.seconds, default=10.0, help="seconds to wait on --port (default 10)")
    OL.add_option(p)
    p.add_argument("--key-file", metavar="PATH",
                   help="the device key (default: the key store's, for the device the log names)")
    p.set_defaults(func=run, parser=p)


def run(args):
    from tapis.host.memory import events as R
    try:
        if args.port:
            from tapis.host.ports import open_port
            import time
            got = R.fetch(open_port(args.port), args.timeout, key=args.table_key,
                          clock=int(time.time()) if args.set_clock else None)
            doc = R.document(args.port, got, cls=args.cls)
        else:
            if args.set_clock:
                sys.stderr.write("tapis events: --set-clock needs --port (a running board)\n")
                return 2
            path = R.log_path(args.journal or "journal.bin")
            head, entries = R.from_file(path, args.key_file)
            if head["torn"]:
                sys.stderr.write("tapis events: warning: the log's last entry is torn (%d bytes a power loss "
                                 "cut short); read up to it\n" % head["torn"])
            doc = R.document(path, entries, head, args.cls)
    except JournalError as e:
        sys.stderr.write("tapis events: the event log is corrupt and was not read: %s\n" % e)
        return 2
    except KeyError as e:
        sys.stderr.write("tapis events: the event log is chained under a device key: %s\n" % e.args[0])
        return 2
    except (TimeoutError, OL.KeyRequired) as e:
        sys.stderr.write("tapis events: %s\n" % e)
        return 2
    except OSError as e:
        what = e.strerror if e.strerror and e.filename else e
        sys.stderr.write("tapis events: %s%s\n" % ("cannot read %s: " % e.filename if e.filename else "", what))
        return 2
    if args.json:
        print(json.dumps(doc))
        return 0
    for e in doc["entries"]:
        print(R.line(e))
    print("locked: %s" % (", ".join(doc["locked"]) or "no (no tilt open)"))
    return 0
