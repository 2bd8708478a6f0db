# The table loop: poll the links, turn frames into rule actions, keep the shoe
# supplied, refresh the displays. Only this layer touches ports and time, and it
# constructs no device: it is handed Links routed by device address.
from . import wire as W
from .devices import Display, Shoe
from .rules import CHANCE, IllegalAction

_RESEND_MS = 2000  # ask the shoe again if a requested card has not come by then
_CHECK_MS = 50  # how often the device health is looked at
_EVENTS_PER_FRAME = 8  # table-display events per SHOW frame: a burst must fit a frame


class Controller:
    def __init__(self, table, route, journal=None, resumed=False, keep_log=True):
        """table: a game's table adapter (firmware/games/<name>/table.py), with .game,
        .SEATS, press(), view(), shoe_fault(), done() and refuse(); route: {device
        address: Link};
        journal: a firmware.journal.Journal that records every input applied (or None);
        resumed: the game was rebuilt from the journal after a reset, so cards the shoe
        had in flight are still welcome before the controller asks it again;
        keep_log: keep the game's whole event log in memory (the host reads it). A board
        passes False: the journal keeps the events, and the log is cut once they are shown,
        so a session of any length fits the heap."""
        self.keep_log = keep_log
        self.sent = 0  # events sent to the table display since boot: numbers its frames
        self.table = table
        self.game = table.game
        self.route = route
        self.journal = journal
        self.resuming = resumed
        self.voided = False  # resumed into a voided deal: cards still in flight are not its
        self.links = []
        for link in route.values():
            if link not in self.links:
                self.links.append(link)
        route[W.SHOE].greet(W.SHOE, True)  # a DRAW is kept through a death, never re-asked
        for s in range(table.SEATS):
            route[W.DISPLAY + s].greet(W.DISPLAY + s)
        route[W.TABLE_DISPLAY].greet(W.TABLE_DISPLAY)
        self.shoe = Shoe(route[W.SHOE])
        self.seats = [Display(route[W.DISPLAY + s], W.DISPLAY + s) for s in range(table.SEATS)]
        self.board = Display(route[W.TABLE_DISPLAY], W.TABLE_DISPLAY)
        self.awaiting = 0  # cards asked of the shoe and not yet delivered
        self.asked_ms = 0
        self.shown = 0  # events already sent to the table display
        if resumed:  # the table display shows what happened last, not the replayed game
            self.shown = max(0, len(self.game.log) - 8)
        self.faults = []
        self.down = {}  # device address greeted -> True while it is dead or refused
        for a in [W.SHOE, W.TABLE_DISPLAY] + [W.DISPLAY + s for s in range(table.SEATS)]:
            self.down[a] = False
        self.reask = False
        self.checked = 0

    def step(self, now_ms):
        for link in self.links:
            for addr, seq, ftype, payload in link.poll(now_ms):
                self._on_frame(link, addr, seq, ftype, payload)
        self._feed_shoe(now_ms)
        self._refresh()
        if now_ms - self.checked >= _CHECK_MS:
            self.checked = now_ms
            self._check()

    def _apply(self, action, addr, seq):
        events = self.game.apply(action)
        if self.journal is not None:
            self.journal.record(action, events, addr, seq)
        return events

    def health(self):
        """{device address: its link's error counters and HELLO}."""
        return {a: self.route[a].stats(a) for a in self.route}

    def _check(self):
        for a in self.down:
            link = self.route[a]
            bad = link.refused(a) or ("device 0x%02x is dead: no answer" % a if not link.alive(a) else None)
            if bad and not self.down.get(a):
                self.faults.append(bad)
            if a != W.SHOE and link.lost(a):  # back: what it missed is sent again
                for d in self.seats + [self.board]:
                    if d.addr == a:
                        d.last = None
            self.down[a] = bool(bad)

    def _on_frame(self, link, addr, seq, ftype, payload):
        if addr == W.SHOE and ftype == W.CARD and len(payload) == 1:
            if self.resuming and self.voided:
                self.faults.append("a card of the voided deal came in flight: set aside")
                return
            if self.awaiting <= 0 and not (self.resuming and self.game.to_act == CHANCE):
                self.faults.append("shoe delivered a card nobody asked for")
                return
            if self.awaiting > 0:
                self.awaiting -= 1
            try:
                self._apply(("shoe", CHANCE, payload[0]), addr, seq)
            except IllegalAction as e:
                self.faults.append(str(e))
            if self.awaiting and self.game.cards_due()[1]:
                self.awaiting = 0  # the deal was voided: the rest of that request is not wanted
        elif W.PANEL <= addr < W.PANEL + 8 and ftype == W.BUTTON and len(payload) == 2:
            self._on_button(addr - W.PANEL, payload[0], payload[1], addr, seq)
        elif ftype == W.FAULT:
            self.faults.append("device 0x%02x fault %r" % (addr, bytes(payload)))
            if addr == W.SHOE:
                self._on_shoe_fault(bytes(payload), seq)
        elif ftype == W.RECALL and len(payload) == 1:
            self._recall(link, addr, payload[0])

    def _recall(self, link, addr, last):
        """Answer RECALL [n]: each of the last n games as JSON, in RECORD frames of
        [game index, games, chunk index, chunks] + up to RECORD_CHUNK bytes."""
        games = self.journal.games(last) if self.journal is not None else []
        if not games:
            link.send(addr, W.RECORD, bytes((0, 0, 0, 0)))
        for i, g in enumerate(games):
            n = (len(g) + W.RECORD_CHUNK - 1) // W.RECORD_CHUNK
            for k in range(n):
                link.send(addr, W.RECORD, bytes((i, len(games), k, n)) +
                          g[k * W.RECORD_CHUNK:(k + 1) * W.RECORD_CHUNK])

    def _on_shoe_fault(self, code, seq):
        """The table adapter turns a shoe fault into a rules action (or None)."""
        self.awaiting = 0  # the shoe stopped: ask again for what is still due
        try:
            action = self.table.shoe_fault(code)
            if action is not None:
                self._apply(action, W.SHOE, seq)
        except IllegalAction as e:
            self.faults.append(str(e))

    def _on_button(self, seat, button, arg, addr, seq):
        t = self.table
        try:
            action = t.press(seat, button, arg)
            if action is not None:
                self._apply(action, addr, seq)
                t.done(seat)
        except IllegalAction as e:
            t.refuse(seat, str(e))

    def _feed_shoe(self, now_ms):
        if self.game.to_act != CHANCE:
            return
        link = self.route[W.SHOE]
        ready = link.ready(W.SHOE)
        if link.lost(W.SHOE):
            # the shoe was reset: what was queued for it is gone (a death keeps it). Seen
            # here, not in _check, so that no DRAW goes out between its return and the
            # re-ask (asking twice over-draws).
            self.reask = True  # once its cards in flight are in
        if self.reask and ready:
            self.reask, self.awaiting = False, 0
        if self.awaiting:
            # asked and not all come: wait, unless the shoe has been silent that long (a
            # live shoe is heard at least at each heartbeat, and the link delivers the DRAW)
            quiet = now_ms - link.heard(W.SHOE)
            if now_ms - self.asked_ms < _RESEND_MS or quiet < _RESEND_MS:
                return
        if not ready:
            return  # not greeted yet, dead, or cards it had in flight still coming
        self.resuming = self.voided = False
        n, pack = self.game.cards_due()
        if pack:
            self.shoe.shuffle(pack)
        self.shoe.draw(n)
        self.awaiting, self.asked_ms = n, now_ms

    def _refresh(self):
        for s, d in enumerate(self.seats):
            d.show(self.table.view(s))
        log = self.game.log
        while self.shown < len(log):
            chunk = log[self.shown:self.shown + _EVENTS_PER_FRAME]
            # "n" numbers the events, so that two equal bursts are still two frames
            self.board.show({"n": self.sent, "events": [self.game.public(e) for e in chunk]})
            self.shown += len(chunk)
            self.sent += len(chunk)
        if not self.keep_log and self.shown:
            del log[:self.shown]
            self.shown = 0
