"""Where an emulated deal's wall time goes, by part (issue 33.3): each part's step, and a few
of the firmware's calls within them, timed in place with perf_counter (a wrapper costs about
a third of a microsecond a call, against cProfile's several: cProfile puts a small function
called often at several times its weight). The parts' shares overlap as they nest; "clock"
is what is left: the clock's loop and its wakes.

    PYTHONPATH=. .venv/bin/python benchmarks/_table_split.py [ecarte|piquet|club] [DEALS] [top]

(top: the controller's step timed alone, nothing nested in it wrapped: its share without the
nested wrappers' cost, the bound a faster simulator meets: issue 33.3's seventh session.)

(a helper, not a benchmark: run_all.py passes over files beginning with "_").
"""
import collections
import sys
import time

from tapis.simulator.table.emulated import EmulatedTable

pc = time.perf_counter


def split(game, deals, seed=7, top=False):
    sim = EmulatedTable(seed, game)
    spent = collections.Counter()
    order = []

    def wrap(obj, attr, name):
        f = getattr(obj, attr)
        if name not in order:
            order.append(name)

        def timed(*a):
            t = pc()
            try:
                return f(*a)
            finally:
                spent[name] += pc() - t
        setattr(obj, attr, timed)

    c = sim.controller
    wrap(c, "step", "controller")
    if top:
        return run(sim, deals, game, spent, order)
    wrap(c.bus, "poll", "  the bus's poll")
    wrap(c.bus, "_grant", "    its grants (say, seal, write)")
    wrap(c.links[0], "poll", "  the shoe link's poll")
    wrap(c, "on_frame", "  on_frame (the rules)")
    wrap(c.table, "view", "  views built")
    for d in c.seats + [c.board]:
        wrap(d.codec, "encode", "  views encoded")
    for d in sim.devices:
        wrap(d, "step", "devices")
    for con in sim.consoles:
        wrap(con.link, "poll", "  the consoles' link polls")
        wrap(con.player, "presses", "  the bots")
    for line in sim.lines:
        for attr in ("step", "wake", "advance"):
            wrap(line, attr, "wires")
    return run(sim, deals, game, spent, order)


def run(sim, deals, game, spent, order):
    t = pc()
    sim.run_deals(deals)
    total = pc() - t
    top = sum(v for k, v in spent.items() if not k.startswith(" "))
    print("%s, %d deals: %.2f ms a deal" % (game, deals, total / deals * 1e3))
    for k in order:
        print("  %-36s %5.1f %%" % (k, 100 * spent[k] / total))
    rest = "clock" if len(order) > 1 else "the rest (devices, wires, clock)"
    print("  %-36s %5.1f %%" % (rest, 100 * (total - top) / total))


if __name__ == "__main__":
    split(sys.argv[1] if len(sys.argv) > 1 else "ecarte", int(sys.argv[2]) if len(sys.argv) > 2 else 200,
          top=sys.argv[3:] == ["top"])
