# tapis meters: a table's accounting meters (firmware/meters/holder.py, docs/protocol.md "Meters"),
# offline from a journal file and the two copies beside it (a simulated table's, or a
# board's copied off: journal.bin, journal.meters.a, journal.meters.b), checked under the
# device's key and brought up to the journal's end; or live from a table over its link
# (METERS, the supervisor's credential: the operator's own link). --json: tapis.meters/1.
import json
import os
import sys
import time

from tapis.firmware import wire as W
from tapis.firmware.journal.store import JournalError
from tapis.host import args as A
from tapis.host import operator_link as OL


def register(sub):
    from tapis.host.memory.meters import LEGEND
    p = sub.add_parser("meters", help="show a table's accounting meters",
                       description="A table's accounting meters, checked under its device key. What each "
                       "counts: " + "; ".join(LEGEND) + ". docs/protocol.md \"Meters\" names the journal "
                       "records each sums.")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--journal", metavar="PATH", help="a journal file, its meters beside it "
                     "(PATH.meters.a and .b, journal.bin: journal.meters.a and .b)")
    src.add_argument("--port", type=A.port, metavar="URL", help="a table's link (pyserial URL)")
    p.add_argument("--timeout", type=A.seconds, default=10.0, help="seconds to wait on --port (default 10)")
    OL.add_option(p)
    p.add_argument("--key-file", metavar="PATH",
                   help="the device key (default: the key store's, for the device the journal names)")
    p.add_argument("--json", action="store_true", help="one object, schema tapis.meters/1")
    p.set_defaults(func=run, parser=p)


def from_journal(path, key_file=None, note=None):
    """The meters of the journal at `path` and its copies (as a Tally); note(text) hears of
    a copy rebuilt or missing. JournalError, KeyError (no key), MeterError (both bad)."""
    from tapis.firmware.journal.writer import Journal
    from tapis.firmware.offboard.memstore import MemoryStore
    from tapis.firmware.meters.holder import Meters
    from tapis.firmware.meters.tally import beside, held
    from tapis.host.memory.journal import chained

    with open(path, "rb") as f:
        data = f.read()
    key, torn = None, 0
    if data[:1] == b"\x4c":  # keyed: its chain checked under the device's key
        from tapis.host.keys import load_key
        info = chained(data, key_file)
        key, torn = load_key(info["device"], key_file), info["torn"]
    elif data:
        from tapis.firmware.offboard.memstore import parse
        torn = parse(data)[2]
    if len(data) == torn and not any(os.path.exists(c) for c in beside(path)):
        raise ValueError("%s holds no record and has no meters beside it (%s): not a table's journal"
                         % (path, " or ".join(os.path.basename(c) for c in beside(path))))
    j = Journal(MemoryStore(data[:len(data) - torn]))
    j.size = len(data) - torn
    m = Meters(*beside(path), key=key, on_event=lambda cls, detail: note and note(detail))
    return held(m, j)


def fetch(port, step=None, timeout=10.0, key=None):
    """Ask a table for its meters over `port`; `step()` lets an in-process table run
    between polls. A Tally, or None: the table keeps no meters."""
    from tapis.firmware.meters.tally import parse
    from tapis.host.operator_link import open_link

    link = open_link(port, b"tapis-meters", key, timeout)
    link.send(W.HOST, W.METERS, b"")
    deadline = time.monotonic() + timeout
    ms = 0
    while time.monotonic() < deadline:
        ms += 1
        for _a, _s, ftype, payload in link.poll(ms):
            if ftype == W.METERED:
                link.poll(ms + 1)  # acknowledge it
                if not payload:
                    return None
                t = parse(bytes(payload))
                if t is None:
                    raise ValueError("the table's METERED frame is not a meters copy (%d bytes)" % len(payload))
                return t
        if step is not None:
            step()
        else:
            time.sleep(0.001)
    raise TimeoutError("no answer from the table in %.1f s" % timeout)


def run(args):
    from tapis.host.memory.meters import as_dict, text

    def fail(why):
        sys.stderr.write("tapis meters: %s\n" % why)
        return 2

    try:
        if args.port is not None:
            from tapis.host.ports import open_port
            t = fetch(open_port(args.port), timeout=args.timeout, key=args.table_key)
            if t is None:
                return fail("the table on %s keeps no meters" % args.port)
        else:
            t = from_journal(args.journal, args.key_file, lambda d: sys.stderr.write("tapis meters: note: %s\n" % d))
    except JournalError as e:  # (MeterError is JournalError: a RAM error says so)
        return fail(("the meters are refused: %s" if str(e).startswith("ram error") else "the journal is corrupt: %s") % e)
    except KeyError as e:
        return fail("the journal is chained under a device key: %s" % e.args[0])
    except (TimeoutError, OL.KeyRequired, ValueError) as e:
        return fail(e)
    except OSError as e:
        what = e.strerror if e.strerror and e.filename else e
        return fail("%s%s" % ("cannot read %s: " % e.filename if e.filename else "", what))
    d = as_dict(t)
    if args.json:
        print(json.dumps(d))
    else:
        print("\n".join(text(d, legend=True)))
    return 0
