# The recalled games as `tapis recall` prints them (host/commands/recall.py): deal records
# (docs/records.md, the schema tapis table --json prints), or told as `tapis table` tells them.
from tapis.firmware.games import find


def deal_records(games):
    """The journal's games as deal records (docs/records.md), oldest first: every deal
    completed in them, then the one in progress (`"complete": false`). Each carries
    `journal`: the journal game it belongs to and the deals the journal voided in it."""
    from tapis.firmware.journal.played import tuples
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
    did, and who (firmware/operator/recall.py, firmware/boot/build.py)."""
    if r.get("do") == "recall":
        return "RECALL by %s: %d games" % (r.get("who"), r.get("n", 0))
    if r.get("do") == "config":
        return "CONFIGURATION %s, signed %s: %s" % (r.get("g"), r.get("who"), r.get("why", ""))
    return "SUPERVISOR %s: %s" % (r.get("who"), r.get("do"))
