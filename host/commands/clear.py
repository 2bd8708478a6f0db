# tapis clear: the supervisor clears a table's open tilts over its link (the credential:
# the operator's USB, as tapis recall), or with --ram a RAM clear: meters, journal and event
# log together, the new log's first entry the old meters' values (firmware/operator/clears.py).
# Asks first (--yes does not); the table answers with the clear's own entry.
import json
import sys

from tapis.host import args as A
from tapis.host import operator_link as OL


def register(sub):
    p = sub.add_parser("clear", help="clear a table's tilts (the supervisor's), or a RAM clear with --ram")
    p.add_argument("--port", type=A.port, metavar="URL", required=True, help="the table's link (pyserial URL): the operator's USB")
    p.add_argument("--ram", action="store_true",
                   help="a RAM clear: the meters, the journal (every game) and the event log, together")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.add_argument("--json", action="store_true", help="the answer as one tapis.events/2 document")
    p.add_argument("--timeout", type=A.seconds, default=10.0, help="seconds to wait for the answer (default 10)")
    OL.add_option(p)
    p.set_defaults(func=run, parser=p)


def send_clear(port, ram, timeout=10.0, step=None, key=None):
    """Ask the table on `port` to clear; the entries it answers with (the clear's, or none)."""
    from tapis.firmware import wire as W
    from tapis.firmware.wire import CLEAR
    from tapis.host.memory.events import answer
    from tapis.host.operator_link import open_link
    link = open_link(port, b"tapis-clear", key, timeout)
    link.send(W.HOST, W.BUTTON, bytes((CLEAR, 1 if ram else 0)))
    return answer(link, timeout, step)


def run(args):
    from tapis.host.memory.events import document, line
    what = ("a RAM clear of %s: its meters, its journal (every game) and its event log" if args.ram
            else "clear the open tilts of %s") % args.port
    if not args.yes and not sys.stdin.isatty():
        sys.stderr.write("tapis clear: %s needs a confirmation: give --yes (there is no terminal to ask on)\n" % what)
        return 2
    if not args.yes:
        sys.stderr.write("tapis clear: %s? [y/N] " % what)
        sys.stderr.flush()
        reply = sys.stdin.readline().strip().lower()
        if reply not in ("y", "yes"):
            sys.stderr.write("tapis clear: nothing cleared\n")
            return 1
    try:
        from tapis.host.ports import open_port
        got = send_clear(open_port(args.port), args.ram, args.timeout, key=args.table_key)
    except OL.KeyRequired as e:
        sys.stderr.write("tapis clear: %s\n" % e)
        return 2
    except TimeoutError as e:
        sys.stderr.write("tapis clear: %s (the table answers the operator's link only)\n" % e)
        return 2
    except OSError as e:
        sys.stderr.write("tapis clear: cannot open %s: %s\n" % (args.port, e.strerror or e))
        return 2
    doc = document(args.port, got)
    if args.json:
        print(json.dumps(doc))
    elif not got:
        print("nothing to clear: no tilt is open")
    else:
        for e in doc["entries"]:
            print(line(e))
    return 0
