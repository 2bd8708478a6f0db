# tapis recall: the journal's past games, from a journal file (host/memory/journal.py: the chain
# and its head checked) or from a running table over its link (RECALL/RECORD frames,
# docs/protocol.md), readably or as JSON (host/memory/games.py): the deal records of
# docs/records.md, the schema tapis table --json prints.
import json
import sys
import time

from tapis.host import args as A
from tapis.host import operator_link as OL
from tapis.firmware import wire as W
from tapis.firmware.journal.store import JournalError
from tapis.host.memory.journal import check_head, from_journal
from tapis.host.memory.games import deal_records, text


def register(sub):
    p = sub.add_parser("recall", help="show the last games of a table's journal")
    p.add_argument("--last", type=_positive, default=10, metavar="N",
                   help="how many games (default 10: all the journal keeps)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--journal", metavar="PATH", help="a journal file (copied from a board)")
    src.add_argument("--port", type=A.port, metavar="URL", help="a table's link (pyserial URL)")
    p.add_argument("--timeout", type=A.seconds, default=10.0, help="seconds to wait on --port (default 10)")
    OL.add_option(p)
    p.add_argument("--json", action="store_true",
                   help="one deal record per line (docs/records.md: the schema tapis table --json prints)")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no notes, only the games and errors")
    p.add_argument("--verify", action="store_true",
                   help="check the journal file's chain under the device's key, and that it still reaches the "
                   "last head verified for that device (remembered beside the key); exit 2 naming the first "
                   "bad record")
    p.add_argument("--key-file", metavar="PATH",
                   help="the device key (default: the key store's, for the device the journal names)")
    p.set_defaults(func=run, parser=p)


def _positive(text):
    import argparse
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("--last wants a whole number, got %r" % (text,))
    if not 1 <= n <= 255:
        raise argparse.ArgumentTypeError("--last must be 1..255, got %r" % (text,))
    return n


def fetch(port, last, step=None, timeout=10.0, advance=None, key=None):
    """Ask a table for its last games over `port` (read()/write()); `step()` lets an
    in-process table run between polls; `advance(done, total)` hears of each game's record as
    it completes. Returns the games as dicts."""
    from tapis.host.operator_link import open_link
    link = open_link(port, b"tapis-recall", key, timeout)
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
            if advance:
                advance(sum(1 for c in chunks.values() if len(c) == next(iter(c.values()))[0]), n)
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


def _note(args, text):
    if not args.quiet:
        sys.stderr.write("tapis recall: %s\n" % text)


def run(args):
    chain = {} if args.verify else None
    try:
        if args.verify and args.port:
            sys.stderr.write("tapis recall: --verify checks a journal file (export a board's with "
                             "tapis board journal --port URL --out PATH)\n")
            return 2
        if args.port:
            from tapis.host.ports import open_port
            from tapis.host.progress import progress

            port = open_port(args.port)
            with progress(args.last, "games", quiet=args.quiet) as step:
                seen = [0]

                def advance(done, total):
                    if done > seen[0]:
                        step(done - seen[0], total=total)
                        seen[0] = done

                games = fetch(port, args.last, timeout=args.timeout, advance=advance, key=args.table_key)
            source = "the table on %s" % args.port
        else:
            path = args.journal or "journal.bin"
            with open(path, "rb") as f:
                data = f.read()
            games = from_journal(data, args.last, lambda n: _note(
                args, "warning: the journal's last record is torn (%d bytes a power loss cut short); "
                      "read up to it" % n), args.key_file, chain)
            source = path
            if chain is not None:
                ok, verdict = check_head(chain, args.key_file)
                if not ok:
                    sys.stderr.write("tapis recall: the journal fails verification: %s\n" % verdict)
                    return 2
                sys.stderr.write("tapis recall: %s\n" % verdict)  # what --verify asked, even --quiet
    except JournalError as e:
        sys.stderr.write("tapis recall: the journal %s: %s\n" % (
            "fails verification" if chain is not None else "is corrupt and was not read", e))
        return 2
    except KeyError as e:  # a keyed journal, and no key for its device
        sys.stderr.write("tapis recall: the journal is chained under a device key: %s\n" % e.args[0])
        return 2
    except (TimeoutError, OL.KeyRequired) as e:
        sys.stderr.write("tapis recall: %s\n" % e)
        return 2
    except OSError as e:  # a journal that cannot be read, a port that cannot be opened
        what = e.strerror if e.strerror and e.filename else e
        hint = "" if args.journal or args.port else " (name a journal with --journal PATH, or a table with --port URL)"
        sys.stderr.write("tapis recall: %s%s%s\n" % ("cannot read %s: " % e.filename if e.filename else "", what, hint))
        return 2
    if not games:
        _note(args, "no games in %s (an empty journal)" % source)
        return 0
    if args.json:
        for r in deal_records(games):
            print(json.dumps(r))
    else:
        from tapis.host.table.watch import print_lines
        utf8 = (getattr(sys.stdout, "encoding", "") or "").lower().replace("-", "") == "utf8"
        print_lines([text(games, utf8)])
    return 0
