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


# ---- issue 12.1: device identity on the bus -------------------------------------------------
# A spliced console (seat FORGER's) speaks, in its own turns on the bus, frames addressed as
# another seat's panel or display. It has none of the other devices' pairing keys, so what it
# sends carries no MAC of theirs; the sequence number it gives them is the one a listener
# on the bus predicts from the victim's last frame. Each attack runs on the CPython board
# and on the firmware under real MicroPython (the webassembly virtual board).
import pytest

from tapis.firmware import panel as B
from tapis.firmware.frames import Decoder, encode

BOARDS = ("cpython", "micropython")
LIMIT_MS = 120000


def table(board, seed, game="ecarte", options=None):
    if board == "micropython":
        from tapis.simulator.vboard import VirtualBoardTable
        return VirtualBoardTable(seed, game, options=options)
    return EmulatedTable(seed, game, options=options)


def close(t):
    if hasattr(t, "close"):
        t.close()


def next_seq(t, victim):
    """The SEQ the victim's panel sends next: its last one on the bus, plus one."""
    p = t.consoles[victim].link.peers.get(W.PANEL + victim)
    return ((p.seq if p is not None else 0) + 1) & 255


def splice(t, forger, frame):
    """The forger's console puts a raw frame on the bus in its next turn."""
    t.consoles[forger].link.held.append(frame)


def play(t, deals, hook=None):
    while t.game.finished_deals() < deals:
        if hook is not None:
            hook(t)
        t.step()
        assert t.now < LIMIT_MS, "the table stalled"
    t.mark = len(t.game.log)  # the events of those deals


def mine(t, seat):
    """What the game did of or for one seat in the deals played: its presses and its cards."""
    return [e for e in t.game.log[:t.mark] if e[1] == seat]


def refused_shown(t):
    """The refused frames the table display shows (the controller's fault)."""
    view = t.devices[-1].view or {}
    return view.get("refused", 0)


def clean(board, seed, game="ecarte", options=None, deals=3, hook=None):
    t = table(board, seed, game, options)
    try:
        play(t, deals, hook)
        return t.game.log[:], {s: mine(t, s) for s in range(t.table.SEATS)}
    finally:
        close(t)


def forged_presses(board, seed, game, options, forger, victim, presses, when, deals=3, times=1):
    """Run a table whose seat `forger` sends `presses` as seat `victim` when `when(t)`, up to
    `times` times; returns the victim's events, the clean run's, and what the table showed."""
    _log, want = clean(board, seed, game, options, deals)
    t = table(board, seed, game, options)
    sent = []

    def hook(t):
        if len(sent) < times and when(t) and not t.consoles[forger].link.held:
            seq = next_seq(t, victim)
            for i, (button, arg) in enumerate(presses):
                splice(t, forger, encode(W.PANEL + victim, (seq + i) & 255, W.BUTTON, bytes((button, arg))))
            sent.append(t.now)
    try:
        play(t, deals, hook)
        for _ in range(300):  # the display's next burst shows the count
            t.step()
        return mine(t, victim), want[victim], refused_shown(t), sent
    finally:
        close(t)


@pytest.mark.parametrize("board", BOARDS)
def test_a_seat_cannot_forge_the_opponents_abandon(board):
    """Before: seat 1's console sent ABANDON as seat 0's panel and seat 1 scored the point
    (+2 with the vole). Now it carries no MAC under seat 0's session: refused, counted, shown."""
    def when(t):
        return t.game.to_act == 0 and t.game.PHASE_NAMES[t.game.phase] == "play"
    got, want, shown, sent = forged_presses(board, 2, "ecarte", None, 1, 0, [(B.ABANDON, 0)], when, 3, 3)
    assert len(sent) == 3
    assert not [e for e in got if e[0] == "abandon"]
    assert got == want  # seat 0 played its own game, untouched
    assert shown >= 3


@pytest.mark.parametrize("board", BOARDS)
def test_a_punter_cannot_stake_another_punters_money(board):
    """Club écarté: punter 2's console sent BET+ 15 and CONFIRM as punter 1's panel while
    punter 1 was to stake (15 units of punter 1's money). Now refused, counted, shown."""
    from tapis.firmware.games import club
    opts = club.Options()

    def when(t):
        return t.game.to_act == 1 and t.game.PHASE_NAMES[t.game.phase] == "stake"
    got, want, shown, sent = forged_presses(board, 5, "club", opts, 2, 1,
                                            [(B.BET_PLUS, 15), (B.CONFIRM, 0)], when, 3, 2)
    assert len(sent) == 2
    assert got == want
    assert not [e for e in got if e[0] == "stake" and e[2][1] == 15 and e not in want]
    assert shown >= 4


@pytest.mark.parametrize("board", BOARDS)
def test_a_seat_cannot_move_a_gallery_seats_bet(board):
    """Écarté with a gallery: seat 1's console sent BET+ twenty times as the gallery seat's
    panel (its bet moved to 20 units against its owner). Now refused, counted, shown."""
    from tapis.firmware.games import ecarte
    opts = ecarte.Options(gallery=1)
    got, want, shown, sent = forged_presses(board, 4, "ecarte", opts, 1, 2, [(B.BET_PLUS, 0)] * 20,
                                            lambda t: t.now > 200, 2, 1)
    assert len(sent) == 1
    assert got == want and not [e for e in got if e[0] == "bet" and e[2][1] >= 20]
    assert shown >= 20
