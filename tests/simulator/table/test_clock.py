"""simulator/table/clock.py: the emulated table run with each part stepped only when it may act is
the same run as the one that steps every part each millisecond: every byte written on the
wires in the same millisecond, every event in the same millisecond, the same end."""
import os
import random
import re

import pytest

from tapis.simulator.table import clock, whole, wires
from tapis.simulator.table.emulated import EmulatedTable, StalledTable

HERE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


def _played(monkeypatch, game, seed, deals, faults, skip, **kw):
    """(every write with its ms, every event with its ms, the end) of a run."""
    rng = random.Random(seed)  # the sessions and nonces (os.urandom), the same in both runs
    monkeypatch.setattr(os, "urandom", lambda n: bytes(rng.randrange(256) for _ in range(n)))
    writes, events = [], []
    write = wires.WireEnd.write

    def traced(end, data):
        writes.append((sim.now, end.name, bytes(data)))
        return write(end, data)
    monkeypatch.setattr(wires.WireEnd, "write", traced)
    sim = EmulatedTable(seed, game, faults=faults, **kw)
    sim.skip = skip
    assert clock.fits(sim)
    try:
        sim.run_deals(deals, lambda evs: events.extend((sim.now, e) for e in evs))
    except StalledTable as e:
        events.append((sim.now, str(e)))
    sim.drain()
    monkeypatch.undo()
    ends = [(e.name, bytes(e.inbox), bytes(e.tx)) for w in sim.lines for e in w.ends]
    return writes, events, sim.now, sim.wire_stats(), ends, [c.latencies for c in sim.consoles]


@pytest.mark.parametrize("game,seed,deals,faults", [
    ("ecarte", 1, 12, None),
    ("piquet", 2, 3, None),
    ("club", 3, 10, None),
    ("ecarte", 5, 10, {"drop": 0.03, "corrupt": 0.03, "shoe": 0.02}),
    ("piquet", 4, 3, {"corrupt": 0.1}),
    ("club", 9, 15, {"drop": 0.03, "corrupt": 0.01, "shoe": 0.03}),  # stalls: at the same ms
])
def test_the_same_run(monkeypatch, game, seed, deals, faults):
    each_ms = _played(monkeypatch, game, seed, deals, faults, False)
    skipping = _played(monkeypatch, game, seed, deals, faults, True)
    assert skipping[0] == each_ms[0]  # the writes
    assert skipping[1] == each_ms[1]  # the events
    assert skipping[2:] == each_ms[2:]


@pytest.mark.parametrize("baud,rx_size", [(9600, 256), (460800, 40)])
def test_the_same_run_at_other_rates(monkeypatch, baud, rx_size):
    """A slow line (milliseconds with no byte), and a fast one whose bytes of a millisecond
    overrun a small receive buffer (those go a millisecond at a time)."""
    kw = {"baud": baud, "rx_size": rx_size}
    each_ms = _played(monkeypatch, "ecarte", 3, 3, None, False, **kw)
    assert _played(monkeypatch, "ecarte", 3, 3, None, True, **kw) == each_ms


def test_a_table_it_does_not_know_steps_each_ms():
    t = EmulatedTable(1, "ecarte")
    assert clock.fits(t)
    t.lines[1].end("spliced")  # a listener the clock knows nothing of
    assert not clock.fits(t)
    assert not clock.fits(EmulatedTable(1, "ecarte", wires=False))


def test_clean_frames():
    from tapis.firmware.link.frames import encode
    f = encode(0x41, 3, 0x30, bytes(range(40)))
    assert whole.clean(f)
    assert not whole.clean(f[:-1]) and not whole.clean(f + b"\0")
    bad = bytearray(f)
    bad[9] ^= 1
    assert not whole.clean(bytes(bad))
    # a frame hiding a whole frame with a good CRC: in pieces its decoder would take that one
    inner = encode(0x20, 1, 0x05)
    assert not whole.clean(encode(0x41, 4, 0x30, b"x" + inner + b"yy"))


def _const(path, name):
    text = open(os.path.join(HERE, path)).read()
    return int(re.search(r"^%s = const\((\d+)\)" % name, text, re.M).group(1))


def test_the_firmware_timings_mirrored():
    """clock.py reads the firmware's state, but its constants are mirrored: they must agree."""
    where = {"RESEND_MS": "_RESEND_MS", "EVENTS_PER_FRAME": "_EVENTS_PER_FRAME"}
    found = {}
    for path in ("firmware/table/controller.py", "firmware/table/outgoing.py"):
        if os.path.exists(os.path.join(HERE, path)):
            text = open(os.path.join(HERE, path)).read()
            for mine, theirs in where.items():
                m = re.search(r"^%s = const\((\d+)\)" % theirs, text, re.M)
                if m:
                    found[mine] = int(m.group(1))
    assert found == {"RESEND_MS": clock.RESEND_MS, "EVENTS_PER_FRAME": clock.EVENTS_PER_FRAME}
    assert _const("firmware/table/controller.py", "_CHECK_MS") == clock.CHECK_MS
    assert _const("firmware/link/bus.py", "_ANSWER_MS") == clock.ANSWER_MS
