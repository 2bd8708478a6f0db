# The reliable link (firmware/link/link.py) over a lossy in-memory pipe that drops
# and corrupts frames deterministically: ACK/NAK, retransmission with bounded retries,
# duplicate suppression, heartbeats, HELLO and its version check, per-device counters.
import random

import pytest
from hypothesis import given, settings, strategies as st

from tapis.firmware import wire as W

from tapis.firmware.offboard import dialect as D
from tapis.firmware.link import frames as F
from tapis.firmware.link.link import Link
from tapis.simulator.table.pipes import End, pipe


def unacked(link, addr):
    """Sequence numbers sent to `addr` and not yet acknowledged (the link's own record)."""
    return [f[0] for f in link.peers[addr].pending]


class Lossy(End):
    """A pipe end whose writes are dropped or get one byte flipped, by a seeded rule."""

    def __init__(self, end, seed, drop=0.0, corrupt=0.0):
        End.__init__(self, end.inbox, end.outbox)
        self.rng = random.Random(seed)
        self.drop, self.corrupt = drop, corrupt
        self.cut = False  # the wire is cut: nothing gets through
        self.damaged = 0  # frames dropped or corrupted

    def write(self, data):
        data = bytearray(data)
        r = self.rng.random()
        if self.cut or r < self.drop:
            self.damaged += 1
            return len(data)
        if r < self.drop + self.corrupt:
            self.damaged += 1
            i = self.rng.randrange(len(data))
            data[i] ^= 1 << self.rng.randrange(8)
        self.outbox.append(bytes(data))
        return len(data)


def lossy_pair(seed, drop=0.0, corrupt=0.0):
    a, b = pipe()
    return Lossy(a, seed, drop, corrupt), Lossy(b, seed + 1, drop, corrupt)


def run(a, b, ms, start=0, got_a=None, got_b=None):
    for t in range(start + 1, start + ms + 1):
        for f in a.poll(t):
            if got_a is not None:
                got_a.append(f[3])
        for f in b.poll(t):
            if got_b is not None:
                got_b.append(f[3])
    return start + ms


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), st.floats(0, 0.3), st.floats(0, 0.2),
       st.lists(st.binary(min_size=1, max_size=40), max_size=30),
       st.lists(st.binary(min_size=1, max_size=40), max_size=30))
def test_every_frame_arrives_once_and_in_order_over_a_lossy_pipe(seed, drop, corrupt, out, back):
    ea, eb = lossy_pair(seed, drop, corrupt)
    ctrl = Link(ea, retries=50, heartbeat_ms=10 ** 9)  # no PING in flight at the end
    dev = Link(eb, W.DEV_SHOE, b"S1", retries=50)
    ctrl.greet(W.SHOE)
    got_ctrl, got_dev = [], []
    t = run(ctrl, dev, 5)
    for m in out:
        ctrl.send(W.SHOE, W.DRAW, m)
    for m in back:
        dev.send(W.SHOE, W.CARD, m)
    run(ctrl, dev, 6000, t, got_ctrl, got_dev)
    assert got_dev == out
    assert got_ctrl == back
    assert ctrl.alive(W.SHOE)
    assert unacked(ctrl, W.SHOE) == [] and unacked(dev, W.SHOE) == []
    if (drop or corrupt) and (out or back):
        s = ctrl.stats(W.SHOE)
        assert s["alive"] and s["type"] == W.DEV_SHOE and s["serial"] == "S1"


def test_a_frame_sent_twice_is_taken_once_and_acknowledged_again():
    a, b = pipe()
    dev = Link(b)
    frame = F.encode(W.SHOE, 1, W.DRAW, b"\x05")
    a.write(frame)
    a.write(frame)
    assert dev.poll(1) == [(W.SHOE, 1, W.DRAW, b"\x05")]
    dev.poll(2)
    acks = F.Decoder().feed(a.read())
    assert acks == [(W.SHOE, 1, W.ACK, b"")]
    assert dev.stats(W.SHOE)["duplicates"] == 1
    a.write(frame)  # a third time, after the ACK was lost
    assert dev.poll(3) == []
    dev.poll(4)
    assert F.Decoder().feed(a.read()) == [(W.SHOE, 1, W.ACK, b"")]
    assert dev.stats(W.SHOE)["duplicates"] == 2


def test_a_gap_is_answered_with_a_nak_naming_the_frame_expected():
    a, b = pipe()
    dev = Link(b)
    a.write(F.encode(W.SHOE, 1, W.DRAW, b"\x01"))
    a.write(F.encode(W.SHOE, 3, W.DRAW, b"\x03"))
    assert [f[1] for f in dev.poll(1)] == [1]  # 3 is not taken before 2
    frames = F.Decoder().feed(a.read())
    assert (W.SHOE, 2, W.NAK, bytes((W.NAK_ORDER,))) in frames
    assert dev.stats(W.SHOE)["naks_sent"] == 1


def test_the_sender_goes_back_to_the_frame_a_nak_names():
    a, b = pipe()
    ctrl = Link(a)
    for n in range(3):
        ctrl.send(W.SHOE, W.DRAW, bytes((n,)))
    b.read()
    b.write(F.encode(W.SHOE, 2, W.NAK, bytes((W.NAK_ORDER,))))  # 1 arrived, 2 and 3 did not
    ctrl.poll(1)
    again = F.Decoder().feed(b.read())
    assert [(f[1], f[3]) for f in again] == [(2, b"\x01"), (3, b"\x02")]
    assert ctrl.stats(W.SHOE)["retransmits"] == 2
    assert unacked(ctrl, W.SHOE) == [2, 3]


def test_retries_are_bounded_and_an_unanswering_device_is_declared_dead():
    a, _b = pipe()  # nobody reads the other end
    ctrl = Link(a, retries=4, rto_ms=10)
    ctrl.greet(W.SHOE)
    writes = []
    a.write = lambda d: writes.append(bytes(d)) or len(d)
    t = 0
    while ctrl.alive(W.SHOE):
        t += 1
        ctrl.poll(t)
        assert t < 1000
    hellos = [f for w in writes for f in F.Decoder().feed(w) if f[2] == W.HELLO]
    assert len(hellos) == 5  # the first and 4 retries
    assert ctrl.stats(W.SHOE)["dead"] == 1 and not ctrl.stats(W.SHOE)["alive"]
    ctrl.send(W.SHOE, W.DRAW, b"\x01")  # nothing is queued for a dead device
    assert unacked(ctrl, W.SHOE) == [] and ctrl.stats(W.SHOE)["dropped"] == 1


def test_heartbeats_detect_a_device_that_goes_silent_and_hello_revives_it():
    ea, eb = lossy_pair(1)
    ctrl = Link(ea, retries=3, rto_ms=20, heartbeat_ms=100)
    dev = Link(eb, W.DEV_DISPLAY, b"D0")
    ctrl.greet(W.DISPLAY)
    t = run(ctrl, dev, 400)
    assert ctrl.ready(W.DISPLAY) and ctrl.alive(W.DISPLAY)
    pings = dev.peers[W.DISPLAY].rx
    assert pings and pings >= 2  # heartbeats went out and were answered
    eb.cut = True  # the device answers nothing any more
    dead_at = None
    for now in range(t + 1, t + 2000):
        ctrl.poll(now)
        dev.poll(now)
        if not ctrl.alive(W.DISPLAY):
            dead_at = now
            break
    assert dead_at is not None and dead_at - t <= 100 + 20 * 5 + 50
    eb.cut = False
    run(ctrl, dev, 400, dead_at)
    assert ctrl.ready(W.DISPLAY)


def test_hello_tells_type_serial_and_version():
    a, b = pipe()
    ctrl = Link(a)
    dev = Link(b, W.DEV_CONSOLE, b"SEAT-3")
    ctrl.greet(W.DISPLAY + 3)
    run(ctrl, dev, 5)
    s = ctrl.stats(W.DISPLAY + 3)
    assert (s["type"], s["serial"], s["version"]) == (W.DEV_CONSOLE, "SEAT-3", W.VERSION)
    assert ctrl.ready(W.DISPLAY + 3)


def test_a_device_speaking_another_protocol_version_is_refused():
    a, b = pipe()
    ctrl = Link(a)
    ctrl.greet(W.SHOE)
    ctrl.poll(1)
    b.read()
    old = W.VERSION - 1
    b.write(F.encode(W.SHOE, 1, W.HELLO, bytes((old, W.DEV_SHOE, W.HELLO_REPLY, 1)) + b"OLD"))
    b.write(F.encode(W.SHOE, 1, W.CARD, b"\x05"))
    assert ctrl.poll(2) == []  # nothing from a refused device is taken
    s = ctrl.stats(W.SHOE)
    assert "version %d" % old in s["refused"] and s["version"] == old
    assert not ctrl.ready(W.SHOE)
    naks = [f for f in F.Decoder().feed(b.read()) if f[2] == W.NAK]
    assert naks and naks[0][3] == bytes((W.NAK_VERSION,))
    ctrl.send(W.SHOE, W.DRAW, b"\x01")
    assert ctrl.stats(W.SHOE)["dropped"] >= 1


def test_error_counters_are_kept_per_device():
    a, b = pipe()
    ctrl = Link(a)
    good = F.encode(W.PANEL, 1, W.BUTTON, b"\x01\x00")
    bad = bytearray(F.encode(W.PANEL + 1, 1, W.BUTTON, b"\x01\x00"))
    bad[7] ^= 0xFF
    b.write(good)
    b.write(bytes(bad))
    b.write(good)
    assert len(ctrl.poll(1)) == 1
    assert ctrl.stats(W.PANEL)["duplicates"] == 1
    assert ctrl.stats(W.PANEL + 1)["duplicates"] == 0
    assert ctrl.stats(W.PANEL)["crc"] >= 1  # CRC failures belong to the wire, not a device


def play_over_lossy_wires(seed, drop, corrupt, deals=3):
    """The same seeded table over clean wires and over wires dropping and corrupting
    frames: (clean table, noisy table)."""
    from tapis.simulator.table import emulated as T

    def lossy_pipe(counter=[0]):
        counter[0] += 1
        a, b = pipe()
        return Lossy(a, seed * 100 + counter[0], drop, corrupt), \
            Lossy(b, seed * 100 + 50 + counter[0], drop, corrupt)

    # a pipe per device (wires=False): the link alone against the loss; the wires as
    # built, lossy, are tests/firmware/link/test_bus.py's
    clean = T.EmulatedTable(3, wires=False)
    clean.run_deals(deals)
    orig = T.pipe
    T.pipe = lossy_pipe
    try:
        noisy = T.EmulatedTable(3, wires=False)
        T.STALL_STEPS, stall = 20000, T.STALL_STEPS
        try:
            noisy.run_deals(deals)
        finally:
            T.STALL_STEPS = stall
    finally:
        T.pipe = orig
    return clean, noisy


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 1000), st.sampled_from([0.03, 0.1]))
def test_a_table_over_lossy_wires_plays_the_same_game_as_over_clean_ones(seed, loss):
    clean, noisy = play_over_lossy_wires(seed, loss, loss / 2)
    n = len(clean.game.log)
    assert noisy.game.log[:n] == clean.game.log
    # the wires did damage frames, and the links (the controller's or a device's) recovered
    links = [(link, a) for a, link in noisy.controller.route.items()] + \
        [(d.link, a) for d in noisy.devices for a in d.link.peers]
    assert sum(link.port.damaged for link, _a in links) > 0
    assert sum(link.stats(a)["retransmits"] + link.stats(a)["naks_sent"] for link, a in links) > 0


# Of seeds 0-119, those whose shoe is declared dead (found by running them all: the slow case).
SHOE_DIES = (2, 4, 18, 31, 46, 52, 56, 59, 63, 95, 97, 102)


@pytest.mark.parametrize("seeds", [sorted(set(range(8)) | set(SHOE_DIES)),
                                   pytest.param(range(120), marks=pytest.mark.slow)])
def test_a_shoe_declared_dead_mid_deal_neither_loses_nor_over_draws_a_card(seeds):
    # 20 % of frames dropped and 10 % corrupted on every wire: the shoe is declared dead
    # in some of these runs (before the fix, a DRAW dropped with its queue was asked
    # again and 5 of 120 runs over-drew and diverged: a DRAW is lost only with a dead shoe's
    # queue, so the quick case runs every seed of the 120 whose shoe dies, and a few others).
    # Every run must play the clean-wire game, and no card may come that the controller did not ask for.
    deaths = 0
    for seed in seeds:
        clean, noisy = play_over_lossy_wires(seed, 0.2, 0.1)
        n = len(clean.game.log)
        assert noisy.game.log[:n] == clean.game.log, seed
        faults = noisy.controller.faults
        assert not [f for f in faults if "nobody asked" in f], (seed, faults)
        deaths += noisy.controller.route[W.SHOE].stats(W.SHOE)["dead"]
    assert deaths >= 3  # the runs did exercise a shoe declared dead


def test_every_frame_type_has_a_byte_level_example_in_the_docs_that_holds():
    import os
    import re

    from tapis.firmware.journal.writer import frame
    doc = open(os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "protocol.md")).read()
    examples = {
        (0x10, 1, W.CARD, b"\x1b"): "A5 10 01 10 00 01 1B 35 09",
        (0x10, 2, W.FAULT, b"E"): "A5 10 02 11 00 01 45 16 54",
        (0x10, 2, W.DRAW, b"\x0b"): "A5 10 02 12 00 01 0B 24 82",
        (0x10, 1, W.SHUFFLE, bytes((32,))): "A5 10 01 13 00 01 20 29 ED",
        (0x21, 7, W.BUTTON, b"\x05\x03"): "A5 21 07 20 00 02 05 03 46 5A",
        (0x40, 3, W.SHOW, b'{"turn": true}'):
            "A5 40 03 30 00 0E 7B 22 74 75 72 6E 22 3A 20 74 72 75 65 7D 19 8F",
        (0x10, 1, W.ACK, b""): "A5 10 01 01 00 00 54 D2",
        (0x10, 2, W.NAK, bytes((W.NAK_ORDER,))): "A5 10 02 02 00 01 01 9E 6F",
        (0x10, 1, W.NAK, bytes((W.NAK_VERSION,))): "A5 10 01 02 00 01 02 40 DE",
        (0x10, 1, W.HELLO, bytes((W.VERSION, W.DEV_CONTROLLER, 0, 1, 0x12, 0x34))):
            "A5 10 01 03 00 06 02 00 00 01 12 34 CD A0",
        (0x10, 1, W.HELLO, bytes((W.VERSION, W.DEV_SHOE, W.HELLO_REPLY, 1, 0xBE, 0xEF))
         + b"SH-0042"): "A5 10 01 03 00 0D 02 01 01 01 BE EF 53 48 2D 30 30 34 32 C7 52",
        (0x40, 9, W.PING, b""): "A5 40 09 04 00 00 2F D3",
        (0x21, 0, W.POLL | W.TURN, b""): "A5 21 00 85 00 00 63 43",
        (0x60, 1, W.RECALL, bytes((2,))): "A5 60 01 50 00 01 02 9D 11",
        # the supervisor's LIMITS (club: a bank of 20, minimums 8 and 4), on a link of its own
        (0x70, 3, W.SUPERVISE, bytes.fromhex("02 0014 0008 0004")):
            "A5 70 03 21 00 07 02 00 14 00 08 00 04 ED 79",
        # a sealed frame of a session, as a frame (its counter and MAC: tests/firmware/link/test_link_pair.py)
        (0x21, 7, W.BUTTON, bytes.fromhex("0503 01 EB3255FA")):
            "A5 21 07 20 00 07 05 03 01 EB 32 55 FA AD BD",
        # the sealed shoe line: CARD (king of hearts encrypted), DRAW 11, FAULT E, each with
        # its counter's low byte and MAC (tests/firmware/link/test_shoe_line.py derives them)
        (0x10, 1, W.CARD, bytes.fromhex("9A 01 6D7D2D1F")): "A5 10 01 10 00 06 9A 01 6D 7D 2D 1F 97 32",
        (0x10, 2, W.DRAW, bytes.fromhex("0B 01 4C0D9D3F")): "A5 10 02 12 00 06 0B 01 4C 0D 9D 3F C8 03",
        (0x10, 2, W.FAULT, bytes.fromhex("2F 02 6FA02398")): "A5 10 02 11 00 06 2F 02 6F A0 23 98 93 6C",
        (0x60, 2, W.VERIFY, bytes(range(16))):
            "A5 60 02 55 00 10 00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 62 67",
        (0x60, 3, W.CHECKED, b"\x01no manifest"): "A5 60 03 56 00 0C 01 6E 6F 20 6D 61 6E 69 66 65 73 74 00 37",
        (0x10, 1, W.COUNT, bytes((W.LOADED, 0, 32))): "A5 10 01 14 00 03 4C 00 20 7F BC",
        (0x10, 9, W.COUNT, bytes((W.LEFT, 0, 11))): "A5 10 09 14 00 03 52 00 0B 21 7A",
        (0x60, 1, 0x06, b""): "A5 60 01 06 00 00 CC C4",  # PAIR (remote.py)
        (0x60, 1, 0x06, b"\x02EMU-2-33"): "A5 60 01 06 00 09 02 45 4D 55 2D 32 2D 33 33 72 1D",
        (0x60, 4, W.RECORD, bytes((0, 2, 0, 1)) + b'{"number": 3}'):
            "A5 60 04 51 00 11 00 02 00 01 7B 22 6E 75 6D 62 65 72 22 3A 20 33 7D 21 08",
    }
    shown = set(re.findall(r"^\s*(A5(?: [0-9A-F]{2})+)\s*$", doc, re.M))
    for f, text in examples.items():
        assert F.encode(*f).hex(" ").upper() == text
        assert F.decode(F.encode(*f)) == f
        assert text in shown, text
    assert {f[2] & 0x7F for f in examples} == set(D.TYPE_NAMES)  # every frame type has one
    assert len(shown) == len(examples)  # and the docs show no example not checked here
    rec = frame({"k": "e", "n": 1}).hex(" ").upper()
    assert rec == "4B 00 12 48 7B 22 6B 22 3A 20 22 65 22 2C 20 22 6E 22 3A 20 31 7D 94 72 54 15"  # its SHA-256 tag
    assert rec in doc
    # a HELLO as the Link writes it carries the session it was given
    a, b = pipe()
    link = Link(a, session=0x1234)
    link.greet(W.SHOE)
    link.poll(1)
    assert b.read().hex(" ").upper() == "A5 10 01 03 00 06 02 00 00 01 12 34 CD A0"
