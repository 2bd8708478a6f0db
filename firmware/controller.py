# The table loop: poll the links, turn frames into rule actions, keep the shoe
# supplied, refresh the displays. Only this layer touches ports and time, and it
# constructs no device: it is handed Links routed by device address.
from firmware import protocol as P
from firmware.devices import Display, Shoe
from firmware.rules import CHANCE, IllegalAction

_RESEND_MS = 2000  # ask the shoe again if a requested card has not come by then


class Controller:
    def __init__(self, table, route):
        """table: a game's table adapter (firmware/tables), with .game, .SEATS, press(),
        view(), public(event) and cards_due(); route: {device address: Link}."""
        self.table = table
        self.game = table.game
        self.links = []
        for link in route.values():
            if link not in self.links:
                self.links.append(link)
        self.shoe = Shoe(route[P.SHOE])
        self.seats = [Display(route[P.DISPLAY + s], P.DISPLAY + s) for s in range(table.SEATS)]
        self.board = Display(route[P.TABLE_DISPLAY], P.TABLE_DISPLAY)
        self.awaiting = 0  # cards asked of the shoe and not yet delivered
        self.asked_ms = 0
        self.shown = 0  # events already sent to the table display
        self.faults = []

    def step(self, now_ms):
        for link in self.links:
            for addr, _seq, ftype, payload in link.poll():
                self._on_frame(addr, ftype, payload)
        self._feed_shoe(now_ms)
        self._refresh()

    def _on_frame(self, addr, ftype, payload):
        if addr == P.SHOE and ftype == P.CARD and len(payload) == 1:
            if self.awaiting <= 0:
                self.faults.append("shoe delivered a card nobody asked for")
                return
            self.awaiting -= 1
            try:
                self.game.apply(("shoe", CHANCE, payload[0]))
            except IllegalAction as e:
                self.faults.append(str(e))
            if self.awaiting and self.table.cards_due()[1]:
                self.awaiting = 0  # the deal was voided: the rest of that request is not wanted
        elif P.PANEL <= addr < P.PANEL + 8 and ftype == P.BUTTON and len(payload) == 2:
            self._on_button(addr - P.PANEL, payload[0], payload[1])
        elif ftype == P.FAULT:
            self.faults.append("device 0x%02x fault %r" % (addr, bytes(payload)))
            if addr == P.SHOE:
                self._on_shoe_fault(bytes(payload))

    def _on_shoe_fault(self, code):
        """The table adapter turns a shoe fault into a rules action (or None)."""
        self.awaiting = 0  # the shoe stopped: ask again for what is still due
        try:
            action = self.table.shoe_fault(code)
            if action is not None:
                self.game.apply(action)
        except IllegalAction as e:
            self.faults.append(str(e))

    def _on_button(self, seat, button, arg):
        t = self.table
        try:
            action = t.press(seat, button, arg)
            if action is not None:
                self.game.apply(action)
                t.done(seat)
        except IllegalAction as e:
            t.refuse(seat, str(e))

    def _feed_shoe(self, now_ms):
        if self.game.to_act != CHANCE:
            return
        if self.awaiting and now_ms - self.asked_ms < _RESEND_MS:
            return
        n, pack = self.table.cards_due()
        if pack:
            self.shoe.shuffle(pack)
        self.shoe.draw(n)
        self.awaiting, self.asked_ms = n, now_ms

    def _refresh(self):
        for s, d in enumerate(self.seats):
            d.show(self.table.view(s))
        log = self.game.log
        if self.shown < len(log):
            self.board.show({"events": [self.table.public(e) for e in log[self.shown:]]})
            self.shown = len(log)
