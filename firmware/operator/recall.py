# The supervisor's frames: RECALL from the supervisor device or from tapis recall on the
# operator's USB link, and the supervisor device's commands (commands.py); the
# credential checked first (SPEC §8). Out of the board's heap until one comes:
# handler.py loads it for that and unloads it after.

from .. import wire as W
from ..games.rules import DEAL_END, NEW_DEAL



def withheld(game, flags):
    """An unfinished game (a played.group game, as JSON data) with its unfinished deal's
    inputs left out: the hands in play, the cards drawn and discarded are no one's to
    recall (SPEC §8). A deal over (club's settled, piquet's ended) is recalled at once, not
    when the next begins: the meters counted it already (a pit checks them against the
    records). `flags`: the game's EVENTS. Returns how many inputs were left out."""
    ins = game["inputs"]
    keep = 0  # none: the game's first deal (it began with the game) is the unfinished one
    for i, (_a, events, _f) in enumerate(ins):
        for e in events:
            if flags.get(e[0], 0) & (NEW_DEAL | DEAL_END):
                keep = i + 1
    n = len(ins) - keep
    del ins[keep:]
    game["withheld"] = n
    return n


def credential(ctrl, link, addr):
    """The supervisor's credential: the supervisor device's address on the bus (or on the
    link routed to it), or a host tool on a link of its own, the operator's USB (never the
    bus, where any player's device may speak). Pairing makes an address unforgeable."""
    r = ctrl.route
    if addr == W.SUPERVISOR:
        return link is r.get(addr, ctrl.bus) and link is not None
    return addr == W.HOST and r.get(addr) is link and link is not ctrl.bus


def serial(link, addr):
    """Who: the serial the device gave in its HELLO (its address if it gave none); "usb"
    for a host tool on an unkeyed operator's link (a paired host: "host:" + its serial,
    which its key is derived for: hostlink.py)."""
    p = link.peers.get(addr)
    if addr == W.HOST:
        info = p.info if p is not None and link.keys is not None and link.own == W.HOST else None
        return "host:" + info[1].decode() if info and info[1] else "usb"
    info = p.info if p is not None else None
    return info[1].decode() if info and info[1] else "0x%02x" % addr


def on_frame(ctrl, link, addr, ftype, payload, seq=None):
    """supervisor.frame: a RECALL, or any frame from the supervisor's address; a command
    handed to commands.py (loaded for it, unloaded after) with who gave it."""
    if not credential(ctrl, link, addr):  # a seat's console, or anything else: no answer
        return ctrl.error("credentials", "0x%02x: frame 0x%02x is the supervisor's" % (addr, ftype))
    if ftype == W.RECALL and len(payload) == 1:
        return answer(ctrl, link, addr, payload[0])
    if ftype == W.DEALS and len(payload) == 5:
        return deals(ctrl, link, addr, payload[0] << 24 | payload[1] << 16 | payload[2] << 8 | payload[3], payload[4])
    if ftype == W.SUBSCRIBE and len(payload) == 1 or \
            ftype == W.BUTTON and len(payload) == 2 and payload[0] == W.CLEAR and payload[1] in (2, 3):
        from .hostframes import on_frame as host  # the host interface's (disable, enable, deals)
        host(ctrl, link, addr, ftype, payload, serial(link, addr))
        from ..compat import unload
        return unload("operator.hostframes", "operator.clears", "eventlog.log", "eventlog.walk", "table.tilts", "eventlog")
    if ftype == W.EVENTS and len(payload) == 4 or ftype == W.BUTTON and len(payload) == 2 and payload[0] == W.CLEAR:
        from .clears import on_frame as clears  # the event log, a clear (tapis events, tapis clear)
        clears(ctrl, link, addr, ftype, payload, serial(link, addr))
        from ..compat import unload
        return unload("operator.clears", "eventlog.log", "eventlog.walk", "table.tilts", "meters.tally", "meters.layout", "eventlog")
    if ftype == W.METERS:
        return meters(ctrl, link, addr)
    if ftype == W.VERIFY and len(payload) == 16:
        return verify(ctrl, link, addr, bytes(payload))
    if ftype == W.TIME and len(payload) == 4:
        return clock(ctrl, link, addr, payload[0] << 24 | payload[1] << 16 | payload[2] << 8 | payload[3])
    if ftype == W.BUTTON and len(payload) == 2 or ftype == W.SUPERVISE and len(payload) % 2:
        from .commands import command
        command(ctrl, serial(link, addr), addr, ftype, payload, seq)
        from ..compat import unload
        return unload("operator.commands", "games.snapshot")
    ctrl.error("malformed", "the supervisor's frame 0x%02x, %d bytes" % (ftype, len(payload)))


def answer(self, link, addr, last):
    """Answer RECALL [n], each of the last n
    games as JSON, in RECORD frames of [game index, games, chunk index, chunks] + up to
    RECORD_CHUNK bytes; the unfinished deal's inputs withheld."""
    if last == 0:
        self.error("recall", "device 0x%02x asked for the last 0 games" % addr)
    games = _games(self, last)
    who = serial(link, addr)
    if self.journal is not None:  # who recalled, and how much (tapis recall shows it)
        self.journal.write({"k": "s", "do": "recall", "who": who, "n": len(games)})
    self.event("supervisor", "recall of %d games" % len(games), who)
    self.recalled = self.now  # the displays say so (outgoing.mode_of)
    _send(self, link, addr, games)


def _games(ctrl, last):
    """The journal's last games (played.recent: their inputs left in flash), the
    unfinished deal's inputs withheld."""
    from ..journal.played import recent
    games = recent(ctrl.journal, last) if ctrl.journal is not None and last > 0 else []
    if games and not games[-1]["done"]:
        withheld(games[-1], ctrl.game.EVENTS)
    return games


def _send(ctrl, link, addr, games):
    """The games in RECORD frames of [game index, games, chunk index, chunks] + up to
    RECORD_CHUNK bytes of its JSON, streamed (Delivery.stream: each made as the window has
    room, between the table's steps); [0, 0, 0, 0]: none."""
    if not games:
        return link.send(addr, W.RECORD, bytes((0, 0, 0, 0)))
    link.stream(addr, _frames(games, ctrl.journal))


def _frames(games, journal):
    """The frames of _send, played.chunks's, each made when it is sent; the watchdog fed
    after each (store.FileStore.feed, main.py's: a game's frames took the emulated Pico
    4.7 s over its USB). The games' inputs are read from flash as they go: if the journal
    compacted meanwhile (its records moved), the answer ends as none, [0, 0, 0, 0], and the
    host asks again."""
    from ..journal.played import chunks
    from ..journal.store import FileStore
    feed, starts = FileStore.feed, journal.starts if journal is not None else None

    def moved():  # the journal compacted (writer.compact: the inputs' offsets moved), or was
        # walked again (played.recent, another answer's): each makes a new list of its games' starts
        return journal is not None and journal.starts is not starts

    for i, g in enumerate(games):
        n, parts = chunks(g, W.RECORD_CHUNK) if not moved() else (1, iter(()))
        for k in range(n):
            part = None if moved() else next(parts, None)
            if part is None:  # (or the text came out shorter than counted)
                yield W.RECORD, bytes((0, 0, 0, 0))
                return
            yield W.RECORD, bytes((i, len(games), k, n)) + part
            if feed is not None:
                feed()


def deals(ctrl, link, addr, since, n):
    """DEALS [since: 4 bytes, n] (the host interface, docs/protocol.md): the last n games
    as RECALL gives them (the deal in play withheld) when a deal after `since` is over,
    else none. Not logged: a finished deal is no secret, and a pit asks after every one. The
    host asks one more game each time until the first deal it has not is in them (a deal
    record carries its deal's number: host/pit/boardlink.py)."""
    over = ctrl.game.finished_deals() > since
    _send(ctrl, link, addr, _games(ctrl, n) if over else [])


def meters(ctrl, link, addr):
    """Answer METERS: the meters as their copies and the journal say (tally.held: the
    copies checked, brought up to the journal's end in memory), one METERED frame of a
    copy's bytes; empty without meters."""
    j = ctrl.journal
    if j is None or j.meters is None:
        return link.send(addr, W.METERED, b"")
    m = j.meters
    j.flush()
    from ..meters.tally import held, pack
    link.send(addr, W.METERED, pack(m.key, held(m, j)))
    from ..compat import unload
    unload("meters.tally", "meters.layout")


def verify(ctrl, link, addr, seed):
    """VERIFY [seed]: CHECKED [0] + HMAC-SHA256(seed, every byte the board runs) ([2]: an
    emulated board's, over the files it runs, having no manifest: Controller.runs)
    (swcheck.py, loaded for it: the files its manifest lists, then on a product image the
    image's own bytes, xip.py's) + the device's id + 0x00 + its monotonic counter in words
    (link/counter.said), or [1] + why when the board cannot say
    what it runs; the result, with who asked and the seed, to the event log
    (a failure tilts), once for one request (swcheck.seeded: a repeat is answered again)."""
    from ..compat import unload
    from ..verify.swcheck import answer, image, seeded
    hexed = "".join("%02x" % b for b in seed)
    root = ctrl.root
    try:
        more, how = (), b"\0"
        if ctrl.runs is not None:  # the CPython board of tapis table: no manifest, the files it runs
            mac, how = ctrl.runs(seed), b"\2"
        else:
            if image(root) is not None:  # a product image: its frozen code is most of what it runs
                from ..verify import xip
                from ..journal.store import FileStore  # the watchdog's feed (main.py), between the pieces
                more = (lambda h: xip.feed(h, xip.PIECE, FileStore.feed),)
            mac = answer(seed, root, more)
        j = ctrl.journal  # the device's id after the answer: the host finds what it flashed there
        # and the board's monotonic counter read now, or that it has none (link/counter.NONE,
        # said here: neither the driver's 2.4 KB loaded for it, nor a name resident on every board)
        said = "no monotonic counter"
        if ctrl.counter is not None:
            from ..link.counter import said as read
            said = read(ctrl.counter)
        link.send(addr, W.CHECKED, how + mac + (j.device.encode() if j is not None else b"") + b"\0" + said.encode())
        seeded(ctrl, "seeded check by %s: seed %s, answered %s" % (
            serial(link, addr), hexed, "".join("%02x" % b for b in mac)))
    except (OSError, ValueError, KeyError, TypeError, ImportError, AttributeError) as e:
        why = "no signed manifest or image to say what the board runs (%r)" % (e,)
        link.send(addr, W.CHECKED, b"\1" + why.encode()[:200])
        seeded(ctrl, "seeded check by %s failed: seed %s: %s" % (serial(link, addr), hexed, why), True)
    unload("verify.swcheck", "verify.xip", "eventlog.log", "eventlog", "verify")


def clock(ctrl, link, addr, secs):
    """TIME [UTC seconds: 4 bytes] (the supervisor device, or a host tool on the operator's
    link: the credential): the board's RTC set to it where it has one (a Pico's is not kept
    across a power-off), logged with what the board read before and who set it. That
    entry's board clock ("b": boot, ms since its power-up) dates every entry of its boot
    (events.py; tapis events shows their "wall" time). No answer but the link's ACK."""
    import time
    was = int(time.time())
    try:
        import machine
        t = time.gmtime(secs - (946684800 if time.gmtime(0)[0] == 2000 else 0))  # (a port's epoch of 2000)
        machine.RTC().datetime((t[0], t[1], t[2], t[6], t[3], t[4], t[5], 0))
    except (ImportError, AttributeError, OSError, ValueError, TypeError, OverflowError):
        pass  # no RTC to set: a host's table, the unix port (their time is the host's)
    ctrl.event("supervisor", "clock set: %d UTC seconds (the board read %d)" % (secs, was), serial(link, addr))
