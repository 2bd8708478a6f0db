"""No input stops the table (issue 11.4): the inputs that used to raise out of
Controller.step are each answered with a counted, reported error, and the table plays
on; a device that reboots (a new HELLO session) is noticed and resynchronised."""
from tapis.firmware import panel as B
from tapis.firmware import wire as W
from tapis.firmware.games.ecarte import events as R
from tapis.simulator.devices import EmuConsole
from tapis.simulator.table import EmulatedTable

ELDER, DEALER = 1, 0


class Idle:
    """A player who presses nothing: the test presses for him."""

    def presses(self, view):
        return []


def press(t, seat, button, arg=0, panel=None):
    t.consoles[seat].link.send(W.PANEL + (seat if panel is None else panel), W.BUTTON, bytes((button, arg)))


def settle(t, ms=300):
    for _ in range(ms):
        t.step()


def idle_table(seed=4, **kw):
    return EmulatedTable(seed, "ecarte", players=[Idle(), Idle()], **kw)


def test_a_button_from_a_seat_the_game_does_not_have_is_counted_and_refused():
    t = idle_table()
    t.run(lambda g: g.phase == R.PROPOSE)
    press(t, 0, B.STAND, 0, panel=5)  # a panel at seat 5 of a two-seat table
    settle(t)
    assert t.controller.errors == {"seat": 1}
    assert "seat 5" in t.controller.faults[-1]
    press(t, ELDER, B.STAND)  # and the table plays on
    t.run(lambda g: g.phase == R.PLAY)


def test_recall_of_no_games_is_answered_and_counted():
    t = EmulatedTable(4, "ecarte", wires=False)
    from tapis.firmware.journal import Journal
    from tapis.firmware.memstore import MemoryStore

    t.controller.journal = Journal(MemoryStore())
    t.controller.journal.begin("ecarte", t.game)
    t.run_deals(1)
    link = t.controller.route[W.SHOE]
    sent = []
    link.send = lambda addr, ftype, payload=b"": sent.append((addr, ftype, bytes(payload)))
    t.controller._on_frame(link, W.HOST, 1, W.RECALL, b"\x00")
    assert sent == [(W.HOST, W.RECORD, bytes(4))]  # no games
    assert t.controller.errors == {"recall": 1}


def test_select_then_the_opponent_ends_the_hand_then_confirm():
    t = idle_table()
    t.run(lambda g: g.phase == R.PROPOSE)
    press(t, ELDER, B.STAND)
    t.run(lambda g: g.phase == R.PLAY)
    settle(t, 100)
    press(t, ELDER, B.SELECT, 5)  # elder picks his fifth card...
    settle(t, 100)
    press(t, DEALER, B.ABANDON)  # ...the dealer throws in the hand: a new deal
    t.run(lambda g: g.deal_no == 2)
    press(t, ELDER, B.CONFIRM)  # ...and elder confirms a card of the hand that is gone
    settle(t, 200)
    c = t.controller
    assert c.errors == {"press": 1} and "IndexError" in c.faults[-1]
    assert t.consoles[ELDER].view["msg"] == "that press no longer means anything: select again"
    assert t.game.deal_no == 2 and not [e for e in t.game.log if e[0] == "play"]  # nothing played


def test_a_console_that_reboots_gets_its_view_again_and_its_presses_are_taken():
    t = EmulatedTable(6, "ecarte")
    t.run_deals(1)
    old = t.consoles[ELDER]
    port = old.link.port
    # the console reboots: a new Link (a new session), nothing of what it showed
    new = EmuConsole(port, ELDER, old.player)
    t.consoles[ELDER] = new
    t.devices[t.devices.index(old)] = new
    t.run_deals(4)
    assert t.game.finished_deals() == 4
    assert new.view is not None and new.shows > 3  # given its view again, whole, and after
    resets = t.controller.route[W.DISPLAY + ELDER].stats(W.PANEL + ELDER)["resets"]
    assert resets == 1


def test_a_shoe_that_reboots_between_deals_is_noticed_and_the_table_goes_on():
    from tapis.firmware.rng import Seeded
    from tapis.simulator.devices import EmuShoe

    t = EmulatedTable(8, "ecarte")
    t.run_deals(2)
    t.drain()
    port = t.shoe.link.port
    t.devices[0] = t.shoe = EmuShoe(port, Seeded(99))
    t.run_deals(5)
    assert t.game.finished_deals() == 5
    assert t.controller.route[W.SHOE].stats(W.SHOE)["resets"] == 1
