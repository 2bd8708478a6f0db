"""Attacks on the table through its own emulated devices (issue 12, SPEC §8): each is a
named test that failed before its defence and passes after it."""
from tapis.firmware import wire as W
from tapis.firmware.rules import CHANCE
from tapis.simulator.table import EmulatedTable

DEALT = ("card", "turn", "draw", "cut")  # the events that name a card the shoe dealt


def dealt_cards(game):
    return [e[2] for e in game.log if e[0] in DEALT]


class Forger:
    """Seat `seat`'s console, spliced: on its turns on the bus it also sends CARD frames
    addressed as the shoe, a card the shoe has not dealt each time the board awaits cards."""

    def __init__(self, table, seat):
        self.t, self.link = table, table.consoles[seat].link
        self.sent = []

    def step(self):
        t = self.t
        c = t.controller
        if c.awaiting and t.game.to_act == CHANCE and len(self.sent) < 40:
            seen = set(dealt_cards(t.game)) | set(self.sent)
            fresh = [v for v in t.shoe.pack if v not in seen]
            if fresh:
                self.link.send(W.SHOE, W.CARD, bytes((fresh[0],)))
                self.sent.append(fresh[0])


def test_a_console_on_the_bus_cannot_deal_cards_as_the_shoe():
    """Before: the controller trusted a frame's address whatever wire it came on, and the
    cards a player's console sent as the shoe went into the hands (112 of 112 in 30
    exchanges). Now an address is bound to its wire: each is refused and counted."""
    t = EmulatedTable(3, "ecarte")
    delivered = []
    deliver = t.shoe.deliver

    def spy():
        if t.shoe.dealt < len(t.shoe.pack):
            delivered.append(t.shoe.pack[t.shoe.dealt])
        deliver()
    t.shoe.deliver = spy
    forger = Forger(t, 1)
    while t.game.finished_deals() < 3:
        forger.step()
        t.step()
        assert t.now < 120000
    assert len(forger.sent) >= 10
    took = dealt_cards(t.game)
    assert took == delivered[:len(took)]  # every card the rules took, the shoe dealt, in order
    assert t.controller.errors.get("wire", 0) >= len(forger.sent) // 2
    assert any("not its wire" in f for f in t.controller.faults)
