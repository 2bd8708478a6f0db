"""A digest of seeded `tapis table` runs (écarté, piquet, club; clean and under faults): every
write on the wires with its millisecond and end, every event with its millisecond, the end
state of the wires and the consoles' latencies. A change meant to keep the run byte for byte
(issue 33.3's trims) gives the same lines on both trees:

    cd TREE && PYTHONPATH=. .venv/bin/python benchmarks/_wire_hash.py > /tmp/TREE.txt

(a helper, not a benchmark: run_all.py passes over files beginning with "_"). The sessions
and nonces (os.urandom) are drawn from the seed, as tests/simulator/table/test_clock.py draws them.
"""
import hashlib
import os
import random

from tapis.simulator.table import wires
from tapis.simulator.table.emulated import EmulatedTable, StalledTable

RUNS = [("ecarte", 1, 30, None), ("piquet", 2, 8, None), ("club", 3, 15, None),
        ("ecarte", 5, 20, {"drop": 0.03, "corrupt": 0.03, "shoe": 0.02}),
        ("piquet", 4, 6, {"corrupt": 0.1}),
        ("club", 9, 15, {"drop": 0.03, "corrupt": 0.01, "shoe": 0.03}),
        ("ecarte", 11, 10, {"drop": 0.05})]


def digest(game, seed, deals, faults):
    """(events, the last ms, the hex digest) of one run."""
    rng = random.Random(seed)
    urandom, write = os.urandom, wires.WireEnd.write
    h = hashlib.sha256()
    sim = None
    n = [0]

    def traced(end, data):
        h.update(b"W%d %s %s;" % (sim.now, end.name.encode(), bytes(data).hex().encode()))
        return write(end, data)

    def on_events(evs):
        for e in evs:
            n[0] += 1
            h.update(("E%d %r;" % (sim.now, e)).encode())

    os.urandom = lambda k: bytes(rng.randrange(256) for _ in range(k))
    wires.WireEnd.write = traced
    try:
        sim = EmulatedTable(seed, game, faults=faults)
        try:
            sim.run_deals(deals, on_events)
        except StalledTable as e:
            h.update(("S%d %s" % (sim.now, e)).encode())
        sim.drain()
    finally:
        os.urandom, wires.WireEnd.write = urandom, write
    h.update(repr((sim.now, sim.wire_stats(), [c.latencies for c in sim.consoles])).encode())
    h.update(repr([(e.name, bytes(e.inbox), bytes(e.tx)) for w in sim.lines for e in w.ends]).encode())
    return n[0], sim.now, h.hexdigest()


if __name__ == "__main__":
    for game, seed, deals, faults in RUNS:
        events, now, hx = digest(game, seed, deals, faults)
        print(game, seed, faults, "events", events, "now", now, hx[:24])
