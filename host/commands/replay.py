# tapis replay RECORD: re-derive each deal from its record alone (docs/records.md) and
# say whether it matches: the rules replay the record's inputs from where it says the
# deal began, and the deal is recorded again (simulator/kits/replay.py).
import json
import sys

from tapis.simulator.kits.replay import BadRecord, audit, check


def register(sub):
    p = sub.add_parser("replay", help="re-derive deals from their records and say whether they match")
    p.add_argument("record", metavar="RECORD",
                   help="a file of deal records (one JSON object a line, as tapis table --json and "
                        "tapis recall --json print them, or one object), or - for stdin")
    p.add_argument("--json", action="store_true", help="one JSON object per record")
    p.set_defaults(func=run, parser=p)


def read(text, where):
    """The records of a file's text: one object, or one a line (BadRecord saying where)."""
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        return [whole]
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except ValueError as e:
            raise BadRecord("%s line %d is not JSON (%s)" % (where, n, e))
        try:
            check(out[-1])
        except BadRecord as e:
            raise BadRecord("%s line %d: %s" % (where, n, e))
    if not out:
        raise BadRecord("%s holds no deal record" % where)
    return out


def _line(a):
    head = "%s deal %s: " % (a["game"], a["deal"])
    if a["matches"]:
        return head + "matches"
    if a["why"]:
        return head + "does not match: " + a["why"]
    return head + "does not match: " + "; ".join(
        "%s recorded %s, re-derived %s" % (d["key"], json.dumps(d["recorded"]), json.dumps(d["rederived"]))
        for d in a["differences"])


def run(args):
    where = "stdin" if args.record == "-" else args.record
    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            with open(args.record, encoding="utf-8") as f:
                text = f.read()
        records = read(text, where)
        for r in records:
            check(r)
        results = [audit(r) for r in records]
    except OSError as e:
        sys.stderr.write("tapis replay: cannot read %s: %s\n" % (where, e.strerror or e))
        return 2
    except UnicodeDecodeError:
        sys.stderr.write("tapis replay: %s is not text\n" % where)
        return 2
    except BadRecord as e:
        sys.stderr.write("tapis replay: %s\n" % e)
        return 2
    for a in results:
        print(json.dumps(dict(a, schema="tapis.replay/1")) if args.json else _line(a))
    bad = sum(1 for a in results if not a["matches"])
    if not args.json:
        print("%d record%s: %s" % (len(results), "" if len(results) == 1 else "s",
                                    "all match" if not bad else "%d do%s not match" % (bad, "es" if bad == 1 else "")))
    return 1 if bad else 0
