"""The table as built (issue 11.1): per deal of each game, the bytes on each wire (the
shoe's UART, the RS-485 bus), their line time at 115200 baud, and the time from a button
press to the seat's own display; collisions and overruns (both must be 0). Against the
simulator's old wiring (a pipe per device, every view as JSON) in the same run.

    .venv/bin/python benchmarks/wires.py [--deals N] [--seed S] [--quick]
"""
import argparse
import json
import statistics

from _quick import parse
from tapis.firmware.link.frames import Decoder
from tapis.simulator.table.emulated import EmulatedTable

GAMES = {"ecarte": 20, "piquet": 6, "club": 20}
TARGET_MS = {"ecarte": 150, "piquet": 600}


def wired(game, seed, deals):
    t = EmulatedTable(seed, game)
    t.run_deals(deals)
    stats = t.wire_stats()
    lat = [ms for c in t.consoles for ms in c.latencies]
    return t, stats, lat


def old(game, seed, deals):
    """What the old wiring carried: every frame each pipe took, as JSON views would be."""
    import json as J

    t = EmulatedTable(seed, game, wires=False)
    sizes = {}
    for addrs, end in t.wires:
        orig = end.write
        dec = Decoder()

        def write(data, orig=orig, addrs=addrs, dec=dec):
            for a, s, ty, p in dec.feed(data):
                n = len(p)
                if ty == 0x30:  # what a JSON view was: the decoded view, dumped
                    n = len(J.dumps(t.devices and p and _as_json(a, p, t)))
                sizes[addrs] = sizes.get(addrs, 0) + n + 8
            return orig(data)
        end.write = write
    t.run_deals(deals)
    return sizes


_decoders = {}


def _as_json(addr, payload, t):
    from tapis.firmware.offboard.device import Decoder as V
    d = _decoders.setdefault((id(t), addr), V())
    return d.feed(payload)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, help="deals per game (default: 20, piquet 6)")
    p.add_argument("--seed", type=int, default=1)
    a = parse(p, {"deals": 1})
    rows = {}
    for game, n in GAMES.items():
        n = a.deals or n
        t, stats, lat = wired(game, a.seed, n)
        before = old(game, a.seed, n)
        busiest = max(before.values())
        row = {"deals": n,
               "shoe_bytes": stats["shoe"]["bytes"] / n, "shoe_ms": stats["shoe"]["line_ms"] / n,
               "bus_bytes": stats["bus"]["bytes"] / n, "bus_ms": stats["bus"]["line_ms"] / n,
               "collisions": stats["bus"]["collisions"],
               "overruns": stats["bus"]["overruns"] + stats["shoe"]["overruns"],
               "press_to_display_ms": {"median": statistics.median(lat), "p95": sorted(lat)[int(0.95 * len(lat))],
                                       "max": max(lat)},
               "deal_ms": t.now / n,
               "old_bytes_all_wires": sum(before.values()) / n,
               "old_busiest_wire_bytes": busiest / n, "old_busiest_ms": busiest / n * 10000 / 115200}
        rows[game] = row
        target = TARGET_MS.get(game)
        print("%-7s %3d deals: bus %5.0f B = %5.1f ms a deal%s, shoe %4.0f B = %4.1f ms; press -> own display "
              "median %d ms, 95%% %d ms, max %d; a deal takes %.0f ms; collisions %d, overruns %d; "
              "before: %.0f B on all wires, busiest %.0f B = %.0f ms"
              % (game, n, row["bus_bytes"], row["bus_ms"], " (target <= %d)" % target if target else "",
                 row["shoe_bytes"], row["shoe_ms"], row["press_to_display_ms"]["median"],
                 row["press_to_display_ms"]["p95"], row["press_to_display_ms"]["max"], row["deal_ms"],
                 row["collisions"], row["overruns"], row["old_bytes_all_wires"], row["old_busiest_wire_bytes"],
                 row["old_busiest_ms"]))
    print(json.dumps(rows))
    return rows


if __name__ == "__main__":
    main()
