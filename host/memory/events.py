# A table's event log on the host (tapis events, tapis clear): from a file (beside a journal
# a board or `tapis table --journal` wrote, firmware/eventlog/log.py's format), its chain checked
# under the key the host keeps for the device its head names; or from a running table over
# its link (EVENTS/RECORD frames, firmware/operator/clears.py), page by page. Entries come out as
# the tapis.events/2 schema's (docs/schemas/tapis.events-2.json): each with the board's own
# clock (its boot and the ms since that power-up) and, where a TIME the supervisor or a host
# sent in that boot dates it, its wall time.
import json
import os
import re
import time

from tapis.firmware import wire as W
from tapis.firmware.operator.clears import PAGE
from tapis.firmware.eventlog.log import EventLog, beside
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.journal.store import JournalError

SCHEMA = "tapis.events/2"
_SET = re.compile(r"clock set: (\d+) UTC seconds")  # firmware/operator/recall.py clock's entry


def log_path(path):
    """The event log for a path: the log beside a journal, or the path itself if it is one."""
    near = beside(path)
    return near if os.path.exists(near) else path


def from_file(path, key_file=None):
    """(the log's head: device, unit, the open tilts; its entries) of an event log file.
    JournalError if it is not one or its chain is broken; KeyError if the host has no key
    for the device it names."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[0] not in (0x4B, 0x4C):
        raise JournalError("%s is not an event log (nor a journal beside one)" % path)
    n = data[1] << 8 | data[2]
    try:
        head = json.loads(data[4:4 + n])
        device = str(head["d"])
        if head.get("k") != "h" or "u" not in head:
            raise ValueError
    except (ValueError, KeyError, TypeError):
        raise JournalError("%s is not an event log: its head is not readable" % path)
    key = None
    if data[0] == 0x4C:
        from tapis.host.errors import FlashError
        from tapis.host.keys import load_key
        try:
            key = load_key(device, key_file)
        except FlashError as e:
            raise KeyError(str(e))
    log = EventLog(MemoryStore(data), key, device)
    return {"device": device, "clock": log.unit, "locked": log.locked(), "torn": log.torn}, log.since(0)


def fetch(port, timeout=10.0, step=None, since=0, key=None, clock=None):
    """Every entry after `since` from a table over `port`, PAGE at a time (the supervisor's
    credential: the operator's link); clock: UTC seconds the board's clock is set to first
    (TIME, firmware/operator/recall.py: logged, it dates the entries of the board's boot). TimeoutError
    if it does not answer."""
    from tapis.host.operator_link import open_link
    link = open_link(port, b"tapis-events", key, timeout)
    if clock is not None:
        link.send(W.HOST, W.TIME, int(clock).to_bytes(4, "big"))
    out, ms = [], [0]
    while True:
        link.send(W.HOST, W.EVENTS, since.to_bytes(4, "big"))
        got = answer(link, timeout, step, ms)
        out += got
        if len(got) < PAGE:
            return out
        since = got[-1]["n"]


def answer(link, timeout, step=None, ms=None):
    """The entries of one answer (RECORD frames [i, n, k, kn] + JSON chunks)."""
    chunks, total = {}, None
    ms = ms if ms is not None else [0]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ms[0] += 1
        for _a, _s, ftype, payload in link.poll(ms[0]):
            if ftype != W.RECORD or len(payload) < 4:
                continue
            i, n, k, kn = payload[0], payload[1], payload[2], payload[3]
            if n == 0:
                link.poll(ms[0] + 1)
                return []
            total = n
            chunks.setdefault(i, {})[k] = (kn, bytes(payload[4:]))
        if total is not None and len(chunks) == total and all(
                len(c) == next(iter(c.values()))[0] for c in chunks.values()):
            link.poll(ms[0] + 1)  # acknowledge the last ones
            return [json.loads(b"".join(c[k][1] for k in sorted(c))) for _i, c in sorted(chunks.items())]
        if step is not None:
            step()
        else:
            time.sleep(0.001)
    raise TimeoutError("no complete answer from the table in %.1f s" % timeout)


def dates(entries):
    """{boot: (UTC seconds, ms)}: each boot's last TIME entry (firmware/operator/recall.py clock)."""
    out = {}
    for e in entries:
        m = _SET.match(e.get("d", "")) if e.get("c") == "supervisor" and isinstance(e.get("d"), str) else None
        if m and e.get("b"):
            out[e["b"][0]] = (int(m.group(1)), e["b"][1])
    return out


def entry(e, dated=None, clock=None):
    """An entry as tapis.events/2 has it; dated: dates(), for its wall time; clock: the
    log's unit (its "when" from a board's own seconds)."""
    from tapis.host.memory import words

    boot, ms = e["b"] if e.get("b") else (None, None)
    ref = (dated or {}).get(boot)
    out = {"seq": e["n"], "time": e["t"], "boot": boot, "ms": ms,
           "wall": ref[0] + (ms - ref[1]) // 1000 if ref is not None else None,
           "class": e["c"], "detail": e.get("d", ""), "who": e.get("w"),
           "locks": bool(e.get("l")), "cleared_by": e.get("cleared")}
    out["when"] = words.when(out, clock)
    out["text"] = words.text(out["class"], out["detail"])
    if "x" in e:
        out["clears"] = list(e["x"])
    if "r" in e:  # a run of one fault repeated (firmware/eventlog/repeats.py): this entry is all of it
        out["repeats"] = {"count": e["r"], "first": e["f"], "first_seq": e["m"]}
    return out


def document(source, entries, head=None, cls=None):
    """The tapis.events/2 document: the entries (of class cls), the log's open tilts."""
    head = head or {}
    dated = dates(entries)
    if "locked" not in head:  # over the link: the open tilts from the entries
        head = dict(head, locked=[e["c"] for e in entries if e.get("l") and not e.get("cleared")])
    return {"schema": SCHEMA, "source": source, "device": head.get("device"), "clock": head.get("clock"),
            "locked": head["locked"], "entries": [entry(e, dated, head.get("clock")) for e in entries if cls is None or e["c"] == cls]}


def line(e):
    """An entry as text: its local date-time (clock not set: none), its board clock (boot, ms
    since that power-up), its class and what happened in words (host/memory/words.py)."""
    when = e["when"][:19].replace("T", " ") if e.get("when") else "(clock not set)"
    board = "boot %s +%d ms" % (e["boot"], e["ms"]) if e.get("boot") is not None else "-"
    s = "#%-5d %-19s  %-20s %-16s %s" % (e["seq"], when, board, e["class"], e["text"])
    if e.get("repeats"):
        s += "  (%d times, the first at %s as #%d)" % (e["repeats"]["count"], e["repeats"]["first"], e["repeats"]["first_seq"])
    if e["who"]:
        s += "  (by %s)" % e["who"]
    if e["locks"]:
        s += "  [locks: %s]" % ("cleared by %s" % e["cleared_by"] if e["cleared_by"] else "open")
    return s
