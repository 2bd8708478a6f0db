"""The table as built (SPEC §9, issue 11.1): baud-limited wires, the RS-485 bus with the
controller as its master, receive buffers that lose bytes when full, views sent as
compact changes; and the inputs that used to stop the table (11.4)."""
import json

from hypothesis import given, settings, strategies as st

from tapis.firmware.link import frames as F
from tapis.firmware import wire as W
from tapis.firmware.link.bus import BusMaster
from tapis.firmware.offboard.device import BusDevice, Decoder
from tapis.firmware.link.drivers import Encoder
from tapis.firmware.games.ecarte import options as EO
from tapis.simulator.table.emulated import EmulatedTable
from tapis.simulator.table.wires import Wire, parse_faults


# ---- the wires ----------------------------------------------------------------------------
def test_a_byte_takes_its_line_time_and_a_full_receive_buffer_loses_bytes():
    w = Wire("uart", baud=115200, rx_size=16)
    a, b = w.end("a"), w.end("b")
    a.write(bytes(100))
    got, ms = b"", 0
    while len(got) < 16 and ms < 20:
        ms += 1
        w.step(ms)
    # 11.52 bytes a millisecond at 115200 8N1: 100 bytes need 9 ms
    for t in range(ms + 1, 12):
        w.step(t)
    got = b.read()
    assert len(got) == 16 and b.overruns == 100 - 16  # nobody read: the rest was lost
    assert w.bytes == 100 and round(w.line_ms(), 2) == 8.68


def test_two_ends_driving_the_bus_at_once_collide_and_garble():
    w = Wire("bus", bus=True)
    a, b, c = w.end("a"), w.end("b"), w.end("c")
    a.write(F.encode(0x40, 1, W.SHOW, b"Dx"))
    b.write(F.encode(0x20, 1, W.BUTTON, b"\x05\x01"))
    for t in range(1, 4):
        w.step(t)
    assert w.collisions >= 1
    assert F.Decoder().feed(c.read()) == []  # what the third end heard is not a frame


def test_faults_are_parsed_and_bad_specs_quoted():
    assert parse_faults("drop=0.01,corrupt=0.02,shoe=0.5") == {"drop": 0.01, "corrupt": 0.02, "shoe": 0.5}
    for bad in ("drop", "drop=x", "drop=2", "lose=0.1"):
        try:
            parse_faults(bad)
        except ValueError as e:
            assert repr(bad) in str(e) or "probability" in str(e)
        else:
            raise AssertionError(bad)


# ---- the bus master --------------------------------------------------------------------
def bus_pair(n):
    w = Wire("bus", bus=True)
    master = BusMaster(w.end("board"), rto_ms=200)
    devices = [BusDevice(w.end("d%d" % i), W.DEV_CONSOLE, b"D%d" % i, (W.PANEL + i, W.DISPLAY + i), rto_ms=200)
               for i in range(n)]
    return w, master, devices


def test_a_device_speaks_only_when_the_bus_is_handed_to_it():
    w, master, (dev,) = bus_pair(1)
    dev.send(W.PANEL, W.BUTTON, b"\x05\x01")  # pressed: held back
    for t in range(1, 30):
        assert master.poll(t) == [] or t > 1
        dev.poll(t)
        w.step(t)
    assert w.bytes == 0  # nobody was polled: nothing on the line
    master.poll_every(W.PANEL, 10)
    got = []
    for t in range(30, 60):
        got += master.poll(t)
        dev.poll(t)
        w.step(t)
    assert [(a, ty, p) for a, _s, ty, p in got] == [(W.PANEL, W.BUTTON, b"\x05\x01")]
    assert w.collisions == 0


def test_eight_seats_on_the_bus_never_collide():
    t = EmulatedTable(3, "ecarte", options=EO.Options(gallery=6))
    assert t.table.SEATS == 8
    t.run_deals(6)
    stats = t.wire_stats()
    assert stats["bus"]["collisions"] == 0 and stats["bus"]["overruns"] == 0
    assert stats["bus"]["bytes"] > 5000  # eight consoles did talk
    # the turns handed over were answered, but the host tool's: its address is polled each
    # second (tapis recall over the bus) and nobody is there
    assert t.controller.bus.silent <= 2 + t.now // 1000


def test_every_game_on_the_wires_plays_the_rules_it_plays_over_ideal_pipes():
    # the events may interleave differently (who is polled first), the records not
    for game, deals in (("ecarte", 6), ("piquet", 2), ("club", 6)):
        wired, ideal = EmulatedTable(5, game), EmulatedTable(5, game, wires=False)
        wired.run_deals(deals)
        ideal.run_deals(deals)
        assert wired.game.finished_deals() == ideal.game.finished_deals() == deals
        assert sorted(e for e in wired.game.log if e[0] == "card") == \
            sorted(e for e in ideal.game.log if e[0] == "card")
        assert wired.wire_stats()["bus"]["collisions"] == 0


def test_an_ecarte_deal_needs_at_most_150_ms_of_bus_time_and_piquet_600():
    """Issue 11's targets, on its bus (no pairing: frames as issue 11 built them)."""
    for game, deals, budget in (("ecarte", 10, 150), ("piquet", 3, 600)):
        t = EmulatedTable(1, game, device_key=False)
        t.run_deals(deals)
        per_deal = t.wire_stats()["bus"]["line_ms"] / deals
        assert per_deal <= budget, (game, per_deal)


def test_paired_an_ecarte_deal_still_needs_at_most_150_ms_of_bus_time_and_piquet_600():
    """Issue 12.1 seals every sequenced frame (a counter byte and a 4-byte MAC) and each
    device's session begins with a challenge and an answer; issue 11's targets still
    hold: écarté 146.0 ms a deal over 10 deals, piquet 479.6 over 3 (seed 1; unpaired
    122.9 and 419.0). With a 2-byte counter and an 8-byte MAC on every frame, ACKs too,
    écarté needed 211 ms."""
    for game, deals, budget in (("ecarte", 10, 150), ("piquet", 3, 600)):
        t = EmulatedTable(1, game)
        t.run_deals(deals)
        assert t.key is not None  # the emulated bus is paired
        per_deal = t.wire_stats()["bus"]["line_ms"] / deals
        assert per_deal <= budget, (game, per_deal)


def test_a_lossy_bus_still_plays_the_game():
    t = EmulatedTable(2, "ecarte", faults=parse_faults("drop=0.03,corrupt=0.03"))
    t.run_deals(3)
    assert t.game.finished_deals() == 3
    assert sum(w.damaged for w in t.lines) > 0


# ---- views on the wire ----------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 31, 2 ** 31 - 1) | st.text(max_size=40),
    lambda kids: st.lists(kids, max_size=6) | st.dictionaries(st.text(max_size=8), kids, max_size=5),
    max_leaves=20)


@settings(max_examples=100, deadline=None)  # nested views up to 20 leaves: 100 find what 300 did
@given(st.lists(st.dictionaries(st.text(max_size=10), json_values, max_size=8), min_size=1, max_size=6))
def test_a_display_rebuilds_every_view_exactly_as_json_would_have_carried_it(views):
    enc, dec = Encoder(), Decoder()
    for v in views:
        data = enc.encode(v)
        if data is None:
            assert dec.view == json.loads(json.dumps(v))
            continue
        assert dec.feed(data) == json.loads(json.dumps(v))


def test_only_what_changed_goes_and_a_reset_sends_the_whole_view():
    enc, dec = Encoder(), Decoder()
    v = {"hand": [1, 2, 3], "phase": "play", "turn": True, "scores": (0, 0), "seat": -1}
    whole = enc.encode(v)
    assert whole[:1] == b"F" and dec.feed(whole) == json.loads(json.dumps(v))
    assert enc.encode(dict(v)) is None
    v2 = dict(v, turn=False)
    del v2["seat"]
    change = enc.encode(v2)
    assert change[:1] == b"D" and len(change) <= 5  # one bool and one key removed, the keys in one byte
    assert dec.feed(change) == json.loads(json.dumps(v2))
    enc.reset()
    assert enc.encode(v2)[:1] == b"F"


def test_every_view_the_games_show_crosses_the_wire_intact():
    seen = 0
    for game, deals in (("ecarte", 3), ("piquet", 1), ("club", 3)):
        t = EmulatedTable(9, game)
        originals = {}
        for d in t.controller.seats + [t.controller.board]:
            enc = d.codec
            orig = enc.encode

            def encode(view, orig=orig, addr=d.addr):
                out = orig(view)
                if out is not None:
                    originals.setdefault(addr, []).append(json.loads(json.dumps(view)))
                return out
            enc.encode = encode
        shown = {}
        for dev in t.devices[1:]:
            addr = dev.link.addrs[-1]
            dev.on_show = lambda view, addr=addr: shown.setdefault(addr, []).append(view)
        t.run_deals(deals)
        t.drain()
        for addr, views in shown.items():
            assert views == originals[addr][:len(views)]
            seen += len(views)
    assert seen > 100
