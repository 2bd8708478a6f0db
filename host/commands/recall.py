# tapis recall: the journal's past games, from a journal file or from a running table
# over its link (RECALL/RECORD frames, docs/protocol.md), readably or as JSON: the deal
# records of docs/records.md, the schema tapis table --json prints. A journal with no
# games says so and exits 1; an incomplete last record (a power loss) is warned of.
import json
import sys
import time

from tapis.firmware import wire as W
from tapis.firmware.cards import is_card, name
from tapis.firmware.link import Link
from tapis.firmware.games import find
from tapis.firmware.reader import group, parse
from tapis.firmware.journal import JournalError
from tapis.firmware.rules import CARDS


def register(sub):
    p = sub.add_parser("recall", help="show the last games of a table's journal")
    p.add_argument("--last", type=_positive, default=10, metavar="N",
                   help="how many games (default 10: all the journal keeps)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--journal", metavar="PATH", help="a journal file (copied from a board)")
    src.add_argument("--port", metavar="URL", help="a table's link (pyserial URL)")
    p.add_argument("--timeout", type=_seconds, default=10.0, help="seconds to wait on --port (default 10)")
    p.add_argument("--json", action="store_true",
                   help="one deal record per line (docs/records.md: the schema tapis table --json prints)")
    p.set_defaults(func=run, parser=p)


def _seconds(text):
    import argparse
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("--timeout wants a number of seconds, got %r" % (text,))
    if not 0 < t < float("inf"):
        raise argparse.ArgumentTypeError("--timeout must be a positive number of seconds, got %r" % (text,))
    return t


def _positive(text):
    import argparse
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("--last wants a whole number, got %r" % (text,))
    if not 1 <= n <= 255:
        raise argparse.ArgumentTypeError("--last must be 1..255, got %r" % (text,))
    return n


def from_journal(data, last):
    """The last `last` games of journal bytes (JournalError if it is corrupt)."""
    return read_journal(data, last)[0]


def read_journal(data, last):
    """(the last `last` games of journal bytes, bytes of an incomplete last record: what a
    power loss during a write leaves, not read). JournalError if it is corrupt."""
    recs, _offsets, torn = parse(data)
    games = group(recs)
    return games[max(0, len(games) - last):], torn


def deal_records(games):
    """The journal's games as deal records (docs/records.md), oldest first: every deal
    completed in them, then the one in progress (`"complete": false`). Each carries
    `journal`: the journal game it belongs to and the deals the journal voided in it."""
    from tapis.firmware.reader import tuples
    from tapis.simulator import kits

    out, recorder, was = [], None, None
    for g in games:
        kit = kits.find(g["game"])
        options = find(g["game"]).Options.restore(g["options"])
        info = {"game": g["number"], "voids": [v["why"] for v in g["voided"]]}
        if recorder is None or g["state"] is None or (g["game"], g["options"]) != was:
            if recorder is not None:  # a new session: the last one's deal in progress
                _add(out, recorder.partial(), last_info)
            recorder = kit.Recorder(None, options)
            if g["state"] is not None:
                recorder.resume(g["state"])
            else:
                recorder.feed([tuples(e) for e in g["events"]])
        was, last_info = (g["game"], g["options"]), info
        for _action, events, _from in g["inputs"]:
            for r in recorder.feed([tuples(e) for e in events]):
                _add(out, r, info)
    if recorder is not None:
        _add(out, recorder.partial(), last_info)
    return out


def _add(out, record, info):
    if record is not None:
        record["journal"] = info
        out.append(record)


def fetch(port, last, step=None, timeout=10.0):
    """Ask a table for its last games over `port` (read()/write()); `step()` lets an
    in-process table run between polls. Returns the games as dicts."""
    link = Link(port, W.DEV_HOST, b"tapis-recall")
    link.send(W.HOST, W.RECALL, bytes((last,)))
    chunks, total = {}, None
    deadline = time.monotonic() + timeout
    ms = 0
    while time.monotonic() < deadline:
        ms += 1
        for _a, _s, ftype, payload in link.poll(ms):
            if ftype != W.RECORD or len(payload) < 4:
                continue
            i, n, k, kn = payload[0], payload[1], payload[2], payload[3]
            if n == 0:
                return []
            total = n
            chunks.setdefault(i, {})[k] = (kn, bytes(payload[4:]))
        if total is not None and len(chunks) == total and all(
                len(c) == next(iter(c.values()))[0] for c in chunks.values()):
            link.poll(ms + 1)  # acknowledge the last ones
            return [json.loads(b"".join(c[k][1] for k in sorted(c)))
                    for _i, c in sorted(chunks.items())]
        if step is not None:
            step()
        else:
            time.sleep(0.001)
    raise TimeoutError("no complete answer from the table in %.1f s" % timeout)


def _value(v, cards):
    """An event's value in words; `cards`: the game declares every int in it a card."""
    if v is None:
        return ""
    if isinstance(v, (list, tuple)):
        return " ".join(_value(x, cards) for x in v)
    if cards and isinstance(v, int) and not isinstance(v, bool) and is_card(v):
        return name(v)
    return str(v)


def text(games):
    out = []
    for g in games:
        state = "completed" if g["done"] else "unfinished"
        out.append("game %d: %s, %s, %d inputs" % (g["number"], g["game"], state,
                                                   len(g["inputs"])))
        events = list(g["events"])
        for _a, evs, _f in g["inputs"]:
            events.extend(evs)
        declared = find(g["game"]).Rules.EVENTS
        for kind, seat, value in events:
            who = "table" if seat == -1 else "seat %d" % seat
            out.append(("  %-10s %-7s %s" % (kind, who, _value(value, declared.get(kind, 0) & CARDS))).rstrip())
        for v in g["voided"]:
            out.append("  VOID: %s" % v["why"])
    return "\n".join(out)


def run(args):
    torn = 0
    try:
        if args.port:
            from tapis.host.ports import open_port
            where = "the table on " + args.port
            games = fetch(open_port(args.port), args.last, timeout=args.timeout)
        else:
            path = where = args.journal or "journal.bin"
            with open(path, "rb") as f:
                games, torn = read_journal(f.read(), args.last)
    except JournalError as e:
        sys.stderr.write("tapis recall: the journal is corrupt and was not read: %s\n" % e)
        return 2
    except (OSError, TimeoutError) as e:
        sys.stderr.write("tapis recall: %s\n" % e)
        return 2
    if torn:  # what a power loss during a write leaves; the board drops it at boot
        sys.stderr.write("tapis recall: warning: %s ends in an incomplete record (%d bytes, a "
                         "write the power cut), not read\n" % (where, torn))
    if not games:  # nothing to show is not what the user asked for: say so, exit 1
        sys.stderr.write("tapis recall: %s holds no games\n" % where)
        return 1
    if args.json:
        for r in deal_records(games):
            print(json.dumps(r))
    else:
        print(text(games))
    return 0
