"""The supervisor's credential (issue 12.3, SPEC §8): RECALL and the supervisor's button
are the supervisor device's (its own address and device type on the bus) or a host tool's
on a link of its own, the operator's USB; an ordinary panel's are refused and counted, the
state unchanged. The unfinished deal's inputs are never recalled. Each attack is a named
test that failed before the credential existed and passes now."""
import json

import pytest

from tapis.firmware import panel as B
from tapis.firmware import wire as W
from tapis.firmware.games import find
from tapis.firmware.journal import Journal
from tapis.firmware.link import Link
from tapis.firmware.memstore import MemoryStore
from tapis.simulator.pipes import pipe
from tapis.simulator.supervisor import EmuSupervisor
from tapis.simulator.table import EmulatedTable
from helpers import records_heard


def journaled(game="ecarte", seed=3):
    t = EmulatedTable(seed, game, journal=Journal(MemoryStore()))
    return t


def with_supervisor(t):
    """The operator's supervisor device on the table's bus."""
    sup = EmuSupervisor(t.lines[1].end("supervisor"))
    t.devices.append(sup)
    return sup


def mid_deal(t, deals=2):
    """Run `deals` deals, then into the next until the players hold their cards."""
    t.run_deals(deals)
    t.run(lambda g: g.to_act >= 0 and g.finished_deals() == deals)


def step(t, ms):
    for _ in range(ms):
        t.step()


def test_a_seats_console_asking_recall_mid_game_gets_nothing():
    """Before: RECALL was answered to any device, and a seat's console got the game's
    journal with the opponent's hand as dealt. Now it gets no RECORD at all, whether it
    asks as itself or as the host tool; each refusal is counted."""
    t = journaled()
    mid_deal(t)
    spy = t.consoles[1]
    heard = records_heard(spy)
    before = t.controller.errors.get("credentials", 0)
    for addr in (W.PANEL + 1, W.DISPLAY + 1, W.HOST):
        spy.link.send(addr, W.RECALL, bytes((3,)))
    step(t, 4000)
    assert heard == []
    assert t.controller.errors.get("credentials", 0) - before == 3
    assert any("is the supervisor's" in f for f in t.controller.faults)


def test_a_panel_cannot_press_the_supervisors_button():
    """Before: button 10 went to the game's table adapter like any other press. Now a
    panel's supervisor button is refused with a counted error and reported, the state and
    the journal unchanged."""
    t = journaled()
    mid_deal(t, 1)
    c = t.controller
    for console in t.consoles:
        console.hold = True
    step(t, 500)
    state = json.dumps(t.game.snapshot(), sort_keys=True)
    size = t.journal.size
    for s in (0, 1):
        c._on_frame(c.route[W.PANEL + s], W.PANEL + s, 1, W.BUTTON, bytes((B.SUPERVISOR, 0)))
    assert c.errors.get("credentials") == 2
    assert json.dumps(t.game.snapshot(), sort_keys=True) == state
    assert t.journal.size == size
    assert any("not of this table's panels" in f for f in c.faults)


def test_the_supervisor_recalls_but_not_the_unfinished_deal():
    """The supervisor device (its own address and type on the bus) is answered; of the
    game in play it gets the deals finished, never the deal in play: no card the players
    hold now is in what it recalls."""
    t = journaled()
    sup = with_supervisor(t)
    mid_deal(t)
    for console in t.consoles:
        console.hold = True  # the players hold still while the supervisor recalls
    held = set(t.game.hands[0]) | set(t.game.hands[1])
    sup.recall(2)
    end = t.now + 20000
    while sup.games is None and t.now < end:
        t.step()
    assert set(t.game.hands[0]) | set(t.game.hands[1]) == held
    assert sup.games, t.controller.faults
    g = sup.games[-1]
    assert not g["done"] and g["withheld"] > 0
    whole = json.loads(json.dumps(t.journal.open()[-1]))
    k = len(g["inputs"])
    assert g["inputs"] == whole["inputs"][:k]  # the deals finished, as journaled
    assert k + g["withheld"] == len(whole["inputs"])
    assert any(e[0] == "deal" for e in g["inputs"][-1][1])  # cut where the deal in play began
    dealt_now = {a[2] for a, _e, _f in whole["inputs"][k:] if a[0] == "shoe"}
    assert held <= dealt_now  # every card held now came in the inputs withheld
    assert not any(e[0] == "deal" for _a, events, _f in whole["inputs"][k:] for e in events)
    assert t.controller.errors.get("credentials", 0) == 0


def test_recall_from_the_host_tool_on_the_bus_is_refused_but_on_its_own_link_answered():
    """tapis recall on the operator's USB link (a link of its own) is the credential; the
    same frame on the shared bus, where any player's device can send it, is not."""
    t = journaled()
    mid_deal(t, 1)
    bus_end = t.lines[1].end("spliced")
    host = Link(bus_end, W.DEV_HOST, b"tapis-recall")
    host.send(W.HOST, W.RECALL, bytes((1,)))
    got = []
    for _ in range(3000):
        t.step()
        got.extend(f for f in host.poll(t.now) if f[2] == W.RECORD)
    assert got == [] and t.controller.errors.get("credentials", 0) >= 1
    ctrl_end, host_end = pipe()
    link = Link(ctrl_end)
    t.controller.route[W.HOST] = link
    t.controller.links.append(link)
    usb = Link(host_end, W.DEV_HOST, b"tapis-recall")
    usb.send(W.HOST, W.RECALL, bytes((1,)))
    for _ in range(3000):
        t.step()
        got.extend(f for f in usb.poll(t.now) if f[2] == W.RECORD)
    assert got and got[0][3][1] == 1  # one game, answered


@pytest.mark.parametrize("game", ["ecarte", "piquet"])
def test_the_supervisor_voids_the_deal_in_play_and_the_journal_says_who(game, tmp_path):
    """Voiding a deal is the supervisor's: the deal in play is void, its dealer deals it
    again from a fresh pack, and the journal's void record names the supervisor's serial
    (tapis recall shows it in the game's "voided")."""
    from tapis.firmware.supervise import VOID
    t = journaled(game)
    sup = with_supervisor(t)
    mid_deal(t, 2)
    scores = list(t.game.scores)  # as the deal began: its points (piquet's declarations) go with it
    play = find(game).Rules.PHASE_NAMES.index("play")
    t.run(lambda g: g.finished_deals() == 2 and g.phase == play)  # players have acted in it
    g0 = t.controller.game
    deal, dealer = g0.deal_no, g0.dealer
    for console in t.consoles:
        console.hold = True
    sup.link.send(W.SUPERVISOR, W.BUTTON, bytes((VOID, 0)))
    end = t.now + 5000
    while t.controller.game is g0 and t.now < end:
        t.step()
    g = t.game = t.controller.game
    assert g is not g0, t.controller.faults
    assert (g.deal_no, g.dealer, list(g.scores)) == (deal, dealer, scores)
    assert any("voided by the supervisor EMU-SUPERVISOR" in f for f in t.controller.faults)
    game = t.journal.open()[-1]
    assert [v["why"] for v in game["voided"]] == ["voided by the supervisor EMU-SUPERVISOR"]
    assert game["voided"][0]["inputs"]  # the deal's inputs, voided
    for keep_log in (False, True):  # a board resumes from the void as the table stands
        from tapis.firmware.boot import resume
        again = Journal(MemoryStore(bytes(t.journal.store.read())))
        again.open(False, keep_log)
        assert resume(again, keep_log)[0].snapshot() == g.snapshot()
    if game == "ecarte":  # tapis recall names who voided it
        import os
        import subprocess
        import sys
        path = str(tmp_path / "journal.bin")
        with open(path, "wb") as f:
            f.write(bytes(t.journal.store.read()))
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        r = subprocess.run([sys.executable, "-m", "tapis", "recall", "--journal", path, "--last", "1"],
                           cwd=root, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert "VOID: voided by the supervisor EMU-SUPERVISOR" in r.stdout
    for console in t.consoles:
        console.hold = False
    t.run_deals(deal)  # the deal is dealt again and played out
    assert t.controller.errors.get("input", 0) == 0, t.controller.faults


def test_a_panel_cannot_void_a_deal():
    """A panel's frame can carry a supervisor's command only as the supervisor's
    address on the shoe's wire, or from its own: neither is the credential."""
    from tapis.firmware.supervise import VOID
    t = journaled()
    mid_deal(t, 1)
    c = t.controller
    g0 = c.game
    shoe = c.route[W.SHOE]
    c._on_frame(shoe, W.SUPERVISOR, 1, W.BUTTON, bytes((VOID, 0)))  # on the shoe's UART
    c._on_frame(c.route[W.PANEL], W.PANEL, 1, W.BUTTON, bytes((B.SUPERVISOR, VOID)))
    assert c.game is g0 and c.errors.get("credentials") == 2
    assert t.journal.open()[-1]["voided"] == []


def test_tapis_play_voids_a_deal_with_the_operators_supervisor_device():
    """tapis play: the operator's key sends the supervisor device's VOID on a link of its
    own; the deal in play is dealt again and the game plays on."""
    from tapis.host.play.seats import Paced
    from tapis.host.play.table import PlayTable
    from tapis.simulator.kits.ecarte import Bot
    t = PlayTable(2, "ecarte", 0, bots=lambda s: Bot(), pause_s=0)
    t.consoles[0].player = Paced(Bot(), 0)  # a bot at the person's seat too

    def until(done, most=200000):
        while not done() and t.now < most:
            t.advance(100, done)
        assert done()
    until(lambda: t.game.finished_deals() == 1 and t.game.to_act >= 0)
    g0 = t.controller.game
    t.void()
    until(lambda: t.controller.game is not g0)
    assert t.game is t.controller.game
    assert "voided by the supervisor EMU-SUPERVISOR" in t.controller.faults
    until(lambda: t.game.finished_deals() == 3)
