"""The shoe's line as trusted as the bus (issue 29.1), every game: a listener on the shoe's
cable reads no card; a device in the cable that changes, replays, drops, reorders or
injects frames never puts a card where the shoe did not deal it (refused and counted, and
the deal goes on once the line is clean); a keyed table refuses an unpaired framed shoe,
and takes an unpaired one only where it is told to (a text-dialect shoe)."""
import json

import pytest

from tapis.firmware import wire as W
from tapis.firmware.link.bus import BusMaster, route_for
from tapis.firmware.link.frames import Decoder
from tapis.firmware.link.hello import TEST_KEY
from tapis.firmware.link.link import Link
from tapis.simulator.attack.splice import CableAttacker, only_pressed, watch_presses
from tapis.simulator.table.devices import EmuShoe
from tapis.simulator.table.pipes import pipe
from tapis.firmware.offboard.rng import source
from tapis.simulator.table.emulated import EmulatedTable

GAMES = ("ecarte", "piquet", "club")
DEALS = {"ecarte": 3, "piquet": 1, "club": 3}


def play(t, deals, hook=None, limit_ms=120000):
    while t.game.finished_deals() < deals:
        if hook is not None:
            hook()
        t.step()
        assert t.now < limit_ms, "the table stalled"


@pytest.mark.parametrize("game", GAMES)
def test_a_listener_on_the_shoes_cable_reads_no_card(game):
    """Measured before (8841c69): the first payload byte of each CARD frame on the shoe's
    line was the card, 81 of 81 over 5 écarté deals. Now a CARD's payload is encrypted under
    the session: its first byte is the card no more often than chance (1 in 256)."""
    t = EmulatedTable(9, game)
    line = t.shoe.link.port  # the shoe's transmit line, tapped: every byte it puts on it
    dec, cards, write = Decoder(), [], line.write

    def tapped(data):
        cards.extend(f for f in dec.feed(bytes(data)) if f[2] & 0x7F == W.CARD)
        return write(data)
    line.write = tapped
    dealt, taken = watch_presses(t)
    play(t, DEALS[game])
    shoe = dealt[W.SHOE]
    assert len(shoe) >= 30 and len(cards) >= len(shoe)
    firsts = [f[3][0] for f in cards[:len(shoe)]]
    hits = sum(1 for a, b in zip(firsts, shoe) if a == b[0])
    assert hits <= 2 + len(shoe) // 64, (hits, len(shoe))
    names = {c[0] for c in shoe}
    assert sum(1 for f in cards if len(f[3]) == 1) == 0  # no frame carries a bare card code
    assert len([x for x in firsts if x in names]) < len(firsts)  # (not every first byte a card)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", (1, 2))
def test_a_device_in_the_shoes_cable_never_puts_a_card_the_shoe_did_not_deal(game, seed):
    """Before (8841c69), swapping two card codes in passing (valid CRCs, no key) put the
    turned card into a hand and the hand's card as trump. Now every frame is sealed: each
    change, replay, reordering or injection is refused and counted; every card taken is
    one the shoe dealt, once, in its order; the deal goes on when the line is clean."""
    t = EmulatedTable(seed, game)
    dealt, taken = watch_presses(t)
    cable = CableAttacker(t, seed, rate=0.25)
    play(t, DEALS[game] - 1 or 1)
    cable.on = False
    play(t, DEALS[game] + 1)
    assert sum(cable.done.values()) >= 8, cable.done
    assert only_pressed(dealt, taken)  # every card taken one the shoe dealt, in order
    # refused and counted, at either end (a changed ACK or NAK, plain, is only a delay)
    ends = (t.controller.route[W.SHOE].stats(W.SHOE), t.shoe.link.stats(W.SHOE))
    assert sum(e["forged"] + e["replayed"] for e in ends) >= 1
    assert t.controller.route[W.SHOE].forged >= ends[0]["forged"]  # (the controller shows these)


def test_a_changed_draw_count_or_pack_size_does_not_act():
    """DRAW and SHUFFLE are sealed too: a DRAW whose count a device in the cable changed, or a
    SHUFFLE of another pack size, is refused by the shoe (counted), never acted on."""
    t = EmulatedTable(4, "ecarte")
    cable = CableAttacker(t, 4, rate=1.0, acts=("change",))
    drew = []
    step = t.shoe.step

    def shoe_step(now):
        before = t.shoe.dealt
        step(now)
        drew.append(t.shoe.dealt - before)
    t.shoe.step = shoe_step
    for _ in range(1500):
        t.step()
    assert cable.done.get("change", 0) >= 3
    assert sum(drew) == 0 and t.shoe.pack == []  # nothing changed acted
    assert t.shoe.link.stats(W.SHOE)["forged"] >= 1


def test_a_keyed_table_refuses_an_unpaired_framed_shoe():
    t = EmulatedTable(3, "ecarte")
    port = t.shoe.link.port
    t.devices[0] = t.shoe = EmuShoe(port, source(3), key=None)  # a shoe `tapis pair` never saw
    for _ in range(3000):
        t.step()
    assert t.shoe.dealt == 0 and not [e for e in t.game.log if e[0] == "card"]
    assert t.controller.route[W.SHOE].stats(W.SHOE)["forged"] >= 1
    assert not t.controller.route[W.SHOE].ready(W.SHOE)


def test_an_unpaired_shoe_is_taken_only_where_the_configuration_says_so():
    a, _b = pipe()
    c, _d = pipe()
    keyed = route_for(Link(a), BusMaster(c, keys=TEST_KEY))
    assert keyed[W.SHOE].keys == TEST_KEY and keyed[W.SHOE].keyed(W.SHOE)
    assert not keyed[W.PANEL].keyed(W.SHOE)  # (the bus never speaks as the shoe)
    text = route_for(Link(a), BusMaster(c, keys=TEST_KEY), text_shoe=True)
    assert text[W.SHOE].keys is None and not text[W.SHOE].keyed(W.SHOE)
    plain = route_for(Link(a), BusMaster(c))  # an unkeyed table (issue 11's bus)
    assert plain[W.SHOE].keys is None


def test_the_signed_configuration_takes_a_text_shoe_and_the_table_display_names_it(tmp_path):
    """config.json's text_shoe (tapis flash --text-shoe): true takes an unpaired shoe, and
    the table display says the shoe is unauthenticated; anything but true or false is refused."""
    from tapis.firmware.boot import config
    from tapis.firmware.table.controller import Controller
    from tapis.firmware.games import find
    from tapis.firmware.table.outgoing import board_mode
    from tapis.host.flash.image import configuration
    assert config.text_shoe(configuration("ecarte", text_shoe=True)) is True
    assert config.text_shoe(configuration("ecarte")) is False
    raw = json.loads(configuration("ecarte"))
    for bad in ("yes", 1, None):
        (tmp_path / "c.json").write_text(json.dumps(dict(raw, text_shoe=bad)))
        with pytest.raises(config.ConfigError, match="text_shoe"):
            config.load(str(tmp_path / "c.json"))
    kit = find("ecarte")

    def table(text):
        a, _b = pipe()
        c, _d = pipe()
        return Controller(kit.Table(kit.Rules(kit.Options())), route_for(Link(a), BusMaster(c, keys=TEST_KEY),
                                                                          text_shoe=text))
    assert board_mode(table(True), None) == "unauthenticated shoe"
    assert board_mode(table(True), "recall") == "recall; unauthenticated shoe"
    assert board_mode(table(False), None) is None


def test_tapis_pair_learns_a_framed_shoe_and_a_table_with_that_key_deals_from_it(tmp_path):
    """`tapis pair` provisions the shoe (on its own cable) with the key the table derives for
    it; a table with that device key then deals from it in sessions."""
    import json
    import subprocess
    import sys
    import threading
    import os
    import pty
    from test_shoe_tool import MasterPort

    from tapis.firmware.link.hello import pair_key
    key = bytes(range(32))
    key_file = tmp_path / "table.key"
    key_file.write_text(key.hex() + "\n")
    master, slave = pty.openpty()
    try:
        shoe = EmuShoe(pipe()[0], source(1), key=None)  # not paired yet
        got = {}
        t = threading.Thread(target=lambda: got.update(shoe.pair(MasterPort(master)) or {}))
        t.start()
        p = subprocess.run([sys.executable, "-m", "tapis", "pair", "--port", os.ttyname(slave), "--key-file",
                            str(key_file), "--json"], capture_output=True, text=True, timeout=60)
        t.join(15)
        assert p.returncode == 0, p.stderr
        out = json.loads(p.stdout)
        assert out["type"] == "shoe" and out["addresses"] == ["0x10"]
        assert got == {W.SHOE: pair_key(key, W.DEV_SHOE, W.SHOE, b"EMU-SHOE")}
    finally:
        os.close(master)
        os.close(slave)
    table = EmulatedTable(1, "ecarte", device_key=key)  # its shoe paired with the same key
    table.run_deals(1)
    assert table.controller.route[W.SHOE].stats(W.SHOE)["forged"] == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_draw_whose_ack_was_lost_is_not_taken_again_in_the_next_session(game):
    """All the shoe sends is lost for 1.3 s just after it takes its second DRAW: the DRAW's ACK
    with it. The controller, its DRAW unacknowledged, is declared dead (the DRAW kept) and
    challenges the shoe again: a new session, whose HELLO names that DRAW as the oldest not
    taken, and it goes again in it. Before (187fe1d) the shoe took it again as new and
    over-drew: the club deal took 17 cards more ("a card nobody asked for"), the écarté and
    club deals diverged from a clean run's (as a million bytes of noise on the shoe's line
    did, at deal 68 of seed 8). Now it is a duplicate: acknowledged, not acted on."""
    from test_soak import outcomes
    t, clean = EmulatedTable(1, game), EmulatedTable(1, game)
    link, port = t.shoe.link, t.shoe.link.port
    write, poll, draws, cut = port.write, link.poll, [], [None]
    port.write = lambda data: len(data) if cut[0] is not None and t.now < cut[0] else write(data)

    def polled(now_ms):
        out = poll(now_ms)
        for _a, seq, ftype, _p in out:
            if ftype == W.DRAW:
                draws.append(seq)
                if len(draws) == 2:
                    cut[0] = now_ms + 1300
        return out
    link.poll = polled
    deals = DEALS[game] + 1
    play(t, deals)
    clean.run_deals(deals)
    assert t.controller.route[W.SHOE].stats(W.SHOE)["dead"] >= 1  # (the scene played out)
    assert len(draws) == len(set(draws)), draws  # each DRAW acted on once
    assert not [f for f in t.controller.faults if "nobody asked" in f], t.controller.faults
    assert outcomes(t) == outcomes(clean)
