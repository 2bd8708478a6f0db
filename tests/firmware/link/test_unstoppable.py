"""No input stops the table (issue 11.4): the inputs that used to raise out of
Controller.step are each answered with a counted, reported error, and the table plays
on; a device that reboots (a new HELLO session) is noticed and resynchronised."""
from tapis.firmware.games import panel as B
from tapis.firmware import wire as W
from tapis.firmware.games.ecarte import events as R
from tapis.simulator.table.devices import EmuConsole
from tapis.simulator.table.emulated import EmulatedTable

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
    from tapis.firmware.link.hello import TEST_KEY, pair_key
    link = t.consoles[0].link  # a panel paired for seat 5 (else refused unheard: forged)
    link.keys[W.PANEL + 5] = pair_key(TEST_KEY, W.DEV_CONSOLE, W.PANEL + 5, link.serial)
    link.addrs += (W.PANEL + 5,)
    press(t, 0, B.STAND, 0, panel=5)  # a panel at seat 5 of a two-seat table
    settle(t, 600)
    assert t.controller.errors == {"seat": 1}
    assert "seat 5" in t.controller.faults[-1]
    press(t, ELDER, B.STAND)  # and the table plays on
    t.run(lambda g: g.phase == R.PLAY)


def test_recall_of_no_games_is_answered_and_counted():
    t = EmulatedTable(4, "ecarte", wires=False)
    from tapis.firmware.journal.writer import Journal
    from tapis.firmware.offboard.memstore import MemoryStore

    t.controller.journal = Journal(MemoryStore())
    t.controller.journal.begin("ecarte", t.game)
    t.run_deals(1)
    link = t.controller.route[W.SHOE]
    t.controller.route[W.HOST] = link  # the host tool on a link of its own (the credential)
    sent = []
    link.send = lambda addr, ftype, payload=b"": sent.append((addr, ftype, bytes(payload)))
    t.controller.on_frame(link, W.HOST, 1, W.RECALL, b"\x00")
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
    t.run(lambda g: g.phase == R.PROPOSE)  # (the deal passes: seat 0 is elder now)
    press(t, DEALER, B.STAND)
    t.run(lambda g: g.phase == R.PLAY)
    press(t, DEALER, B.SELECT, 1)
    press(t, DEALER, B.CONFIRM)  # seat 0 leads
    me = t.table.position(ELDER)
    t.run(lambda g: g.to_act == me)
    hand = list(t.game.hands[me])
    press(t, ELDER, B.CONFIRM)  # ...and he confirms the place he selected in the hand that is gone
    settle(t, 200)
    # the selection went with its hand: his CONFIRM plays nothing and says why, where it
    # used to play the fifth card of the new hand
    assert t.controller.errors == {} and t.game.to_act == me
    assert [e[1] for e in t.game.log if e[0] == "play"] == [1 - me]
    assert sorted(t.game.hands[me]) == sorted(hand)
    assert t.consoles[ELDER].view["msg"] == "select one card to play, then CONFIRM"


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
    from tapis.firmware.offboard.rng import Seeded
    from tapis.simulator.table.devices import EmuShoe

    t = EmulatedTable(8, "ecarte")
    t.run_deals(2)
    t.drain()
    port = t.shoe.link.port
    t.devices[0] = t.shoe = EmuShoe(port, Seeded(99))
    t.run_deals(5)
    assert t.game.finished_deals() == 5
    assert t.controller.route[W.SHOE].stats(W.SHOE)["resets"] == 1


# ---- the decoder's work per byte received is bounded -------------------------------------
from hypothesis import given, settings, strategies as st  # noqa: E402

from tapis.firmware.link import boards  # noqa: E402
from tapis.firmware.link import frames as F  # noqa: E402


def crafted(max_payload, n):
    """A stream built to make a naive decoder CRC a long frame at every byte: frame starts
    that each announce the longest payload the link takes, none of them ever whole."""
    head = bytes((F.SOF, 0x21, 1, W.BUTTON, max_payload >> 8, max_payload & 255))
    return (head * (n // len(head) + 1))[:n]


def test_a_crafted_byte_stream_costs_a_bounded_crc_work_per_byte():
    """It was about 1,100 bytes of CRC a byte received (8 KB took 7.75 s under
    MicroPython); now each place a frame might start is tried once, when whole."""
    for mx in (boards.MAX_IN, F.MAX_PAYLOAD):
        data = crafted(mx, 8192)
        d = F.Decoder(mx)
        for i in range(0, len(data), 7):  # as a UART hands it over, a few bytes at a time
            assert d.feed(data[i:i + 7]) == []
        assert d.crc_bytes <= 2 * (mx + 8) * len(data)
        if mx == boards.MAX_IN:  # the board's links: a dozen bytes of CRC a byte, at worst
            assert d.crc_bytes / len(data) < 12
    good = b"".join(F.encode(0x21, i & 255, W.BUTTON, b"\x05\x03") for i in range(500))
    d = F.Decoder(boards.MAX_IN)
    assert len(d.feed(good)) == 500 and d.crc_bytes <= len(good)  # genuine frames: once each


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=40), st.just(b"\xa5"), st.just(crafted(64, 30)),
                          st.integers(0, 255).map(lambda s: F.encode(0x21, s, W.BUTTON, b"\x01\x02"))),
                max_size=40), st.integers(1, 16))
def test_any_stream_costs_a_bounded_crc_work_and_genuine_frames_after_it_still_arrive(parts, chunk):
    data = b"".join(parts)
    tail = F.encode(0x40, 7, W.SHOW, b"ok")
    d = F.Decoder(boards.MAX_IN)
    got = []
    stream = data + bytes(boards.MAX_IN + 8) + tail  # a quiet line, then a genuine frame
    for i in range(0, len(stream), chunk):
        got += d.feed(stream[i:i + chunk])
    assert d.crc_bytes <= 2 * (boards.MAX_IN + 8) * len(stream)
    assert got and got[-1] == (0x40, 7, W.SHOW, b"ok")


def test_the_faults_kept_are_the_latest_32_whatever_their_kind():
    """Every kind of fault appends to the controller's list (a shoe's FAULT frames did
    not go through the trimmed path: club's list grew by 133 over 600 deals)."""
    t = EmulatedTable(4, "club", wires=False)
    c = t.controller
    link = c.route[W.SHOE]
    for i in range(100):
        c.on_frame(link, W.SHOE, i, W.FAULT, b"J")  # a jam, reported
    settle(t, 100)
    assert 0 < len(c.faults) <= 32 and "fault" in c.faults[-1]
