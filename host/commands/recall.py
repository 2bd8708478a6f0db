# tapis recall: the journal's past games, from a journal file or from a running table
# over its link (RECALL/RECORD frames, docs/protocol.md), readably or as JSON: the deal
# records of docs/records.md, the schema tapis table --json prints. A keyed journal (its
# records chained under the device's key, docs/protocol.md "Journal records") is checked
# under the key the host keeps for the device it names (host/flash.py's key store);
# --verify also checks that it still reaches the last head verified for that device,
# remembered beside the key (<device>.head), so a journal cut short is found.
import json
import sys
import time

from tapis.host import args as A
from tapis.firmware import wire as W
from tapis.firmware.games import find
from tapis.firmware.link import Link
from tapis.firmware.played import group
from tapis.firmware.reader import parse
from tapis.firmware.record import JournalError


def register(sub):
    p = sub.add_parser("recall", help="show the last games of a table's journal")
    p.add_argument("--last", type=_positive, default=10, metavar="N",
                   help="how many games (default 10: all the journal keeps)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--journal", metavar="PATH", help="a journal file (copied from a board)")
    src.add_argument("--port", metavar="URL", help="a table's link (pyserial URL)")
    p.add_argument("--timeout", type=A.seconds, default=10.0, help="seconds to wait on --port (default 10)")
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


def from_journal(data, last, torn=None, key_file=None, chain=None):
    """The last `last` games of journal bytes (JournalError if it is corrupt); `torn(n)` is told
    of the n bytes of a record a power loss cut short at the end (the journal reads on without).
    A keyed journal is checked under its device's key (key_file, else the key store's); chain:
    a dict that hears what the chain is (verify)."""
    if data[:1] == b"\x4c":
        info = chained(data, key_file)
        recs, cut = info.pop("records"), info["torn"]
        if chain is not None:
            chain.update(info)
    else:
        if chain is not None:
            raise JournalError("the journal is not chained (records of the unkeyed format): it cannot be verified")
        recs, _offs, cut = parse(data)
    if cut and torn:
        torn(cut)
    games = group(recs)
    return games[max(0, len(games) - last):]


def chained(data, key_file=None):
    """A keyed journal's records checked from its head under the key of the device the head
    names: {"records", "device", "tags" (each record's tag in hex, the head's first), "games"
    (the game each record is in, None for the head), "torn"}. JournalError names the first bad
    record (numbered from the head, 0); KeyError if the host has no key for the device."""
    from tapis.firmware.journal import Journal
    from tapis.firmware.memstore import MemoryStore
    from tapis.firmware.reader import records
    from tapis.host.flash import FlashError, load_key

    n = (data[1] << 8 | data[2]) if len(data) > 3 else 0
    try:
        device = str(json.loads(data[4:4 + n])["d"])
    except (ValueError, KeyError, TypeError):
        raise JournalError("journal corrupt at record 0 (byte 0): its head is not readable")
    try:
        key = load_key(device, key_file)
    except FlashError as e:
        raise KeyError(str(e))
    j = Journal(MemoryStore(data), key=key, device=device)
    recs, offs, torn = [], [0], 0
    for off, rec in records(j.store, chain=j):
        if rec is None:
            torn = len(data) - off
            break
        recs.append(rec)
        offs.append(off)
    ends = offs[1:] + [len(data) - torn]
    games, g = [None], None
    for r in recs:
        g = r["n"] if r["k"] == "b" else g
        games.append(g)
    return {"records": recs, "device": device, "tags": [data[e - 8:e].hex() for e in ends], "games": games,
            "torn": torn}


def head_path(device, key_file=None):
    from tapis.host.flash import key_path
    return key_path(device, key_file).with_suffix(".head")


def check_head(chain, key_file=None):
    """(ok, text): does the chain still reach the last head verified for its device (its last
    record's tag, and the game that record was in)? Compaction drops whole games only: a head in
    a game the journal still holds must be in it. On ok the head moves on to the chain's last."""
    path = head_path(chain["device"], key_file)
    tags, games = chain["tags"], chain["games"]
    last = len(tags) - 1
    first = next((g for g in games if g is not None), None)
    try:
        was = json.loads(path.read_text())
        t, g = str(was["t"]), was["g"]
    except FileNotFoundError:
        t = g = None
    except (ValueError, KeyError, TypeError):
        return False, "%s is not a head this tool wrote: remove it to start afresh" % path
    note = ""
    if t is not None:
        if t in tags:
            note = ", reaching the head verified before (record %d)" % tags.index(t)
        elif g is not None and first is not None and first > g:
            note = ", compacted past the head verified before (game %d)" % g
        else:
            return False, ("the journal no longer reaches the head verified before (its last record then, in game "
                           "%s; the journal ends at record %d): truncated or rolled back" % (g, last))
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.write_text(json.dumps({"t": tags[last], "g": games[last]}) + "\n")
    return True, ("journal verified: records 0..%d chain under device %s's key%s; head now record %d"
                  % (last, chain["device"], note, last))


def deal_records(games):
    """The journal's games as deal records (docs/records.md), oldest first: every deal
    completed in them, then the one in progress (`"complete": false`). Each carries
    `journal`: the journal game it belongs to and the deals the journal voided in it."""
    from tapis.firmware.played import tuples
    from tapis.simulator import kits

    out, recorder, was, last_info = [], None, None, None
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


def fetch(port, last, step=None, timeout=10.0, advance=None):
    """Ask a table for its last games over `port` (read()/write()); `step()` lets an
    in-process table run between polls; `advance(done, total)` hears of each game's record as
    it completes. Returns the games as dicts."""
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


def text(games, symbols=True):
    """The games as `tapis table` tells them (the game's renderer, as a watcher of the
    whole log: every hand dealt, every exchange with its cards), under a line per game."""
    from tapis.simulator import kits
    out = []
    for g in games:
        state = "completed" if g["done"] else "unfinished"
        out.append("game %d: %s, %s, %d inputs" % (g["number"], kits.find(g["game"]).TITLE, state,
                                                   len(g["inputs"])))
        renderer = kits.find(g["game"]).Renderer(out.append, None, symbols, watcher=True)
        if g["state"] is not None:
            renderer.opening(g["state"])
        renderer.feed(g["events"])
        for _a, evs, _f in g["inputs"]:
            renderer.feed(evs)
        renderer.flush()
        for v in g["voided"]:
            out.append("  VOID: %s" % v["why"])
        out.extend("  " + supervised(r) for r in g.get("supervised", ()))
    return "\n".join(out)


def supervised(r):
    """A line for one of the journal's "s" records: what the supervisor or the operator
    did, and who (firmware/recall.py, firmware/boot.py)."""
    if r.get("do") == "recall":
        return "RECALL by %s: %d games" % (r.get("who"), r.get("n", 0))
    if r.get("do") == "config":
        return "CONFIGURATION %s, signed %s: %s" % (r.get("g"), r.get("who"), r.get("why", ""))
    return "SUPERVISOR %s: %s" % (r.get("who"), r.get("do"))


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

                games = fetch(port, args.last, timeout=args.timeout, advance=advance)
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
    except TimeoutError as e:
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
        from tapis.host.watch import print_lines
        utf8 = (getattr(sys.stdout, "encoding", "") or "").lower().replace("-", "") == "utf8"
        print_lines([text(games, utf8)])
    return 0
