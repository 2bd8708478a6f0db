"""Noise against attack (issue 48): the frames the controller's links refuse, by kind, on
lossy lines and under a device spliced into the bus, and the most of them the bus-attack
tilt's window (the signed configuration's `attack` frames within `window` s of the first:
firmware/tilts.py) ever held. The tilt's threshold must lie between the two.

Sessions: begun again after a device's first (its answer to a challenge lost, or it gave up).
Kinds: dropped at the CRC (noise: the decoder's resynchronisations, `crc`); stale (a frame
that opened in no session this end has begun: a challenge's answer lost, the session begun
again; firmware/link.py); counted (well-formed frames that fail their MAC or their counter
in the session both ends are in, and HELLO answers that fail theirs: what the tilt counts).

    .venv/bin/python benchmarks/refusals.py [--deals N] [--seeds K] [--attack-ms MS] [--quick]
"""
import argparse
import random
import time

from _quick import parse
from tapis.firmware.table import watch
from tapis.simulator.attack.splice import BusAttacker
from tapis.simulator.table.emulated import EmulatedTable, StalledTable
from tapis.simulator.table.wires import parse_faults

GAMES = ("ecarte", "piquet", "club")
LEVELS = (0.01, 0.05, 0.10, 0.20)  # drop = corrupt = p on every wire
ATTACKS = {"replays": ("verbatim", "address", "sequence"),  # benchmarks/recovery.py's mixes
           "forgeries": ("counter", "challenge", "poll", "garbage"),
           "all": ("verbatim", "address", "sequence", "counter", "challenge", "poll", "garbage")}
RATES = (0.002, 0.05)
JAM = {"shoe": (32, 6), "bus": (8, 16)}  # tests/simulator/table/test_soak.py's RATE: bytes a burst at most, one ms in  # the attacker's chance to speak in a silent ms: patient, and recovery.py's


def watched(t):
    """([(ms, frames counted)] as the controller's safe points report them (Controller.error),
    [the classes of the tilts it made]); t.sessions: the sessions the controller's links began
    again (a HELLO answer that set a new key where one was: a device's first is not counted)."""
    seen, tilted, error, tilt = [], [], t.controller.error, t.controller.tilt
    t.controller.tilt = lambda cls, *a, **k: (tilted.append(cls), tilt(cls, *a, **k))[1]
    t.sessions = 0
    for link in set(t.controller.route.values()):
        def greeted(addr, p, seq, payload, greeted=link.greeted):
            sk = p.sk
            greeted(addr, p, seq, payload)
            t.sessions += sk is not None and p.sk is not sk
        link.greeted = greeted

    def spy(kind, why):
        if kind == "forged":
            seen.append((t.now, int(why.split()[0])))
        return error(kind, why)
    t.controller.error = spy
    return seen, tilted


def worst_window(seen, window_ms=watch.WINDOW_MS):
    """The most frames any window of the tilt held (each opens at a refusal, as tilts.check)."""
    worst, start, n = 0, None, 0
    for ms, k in seen:
        if start is None or ms - start >= window_ms:
            start, n = ms, 0
        n += k
        worst = max(worst, n)
    return worst


def tally(t, seen, ms):
    links = set(t.controller.route.values())
    stale = sum(p.errors.get("stale", 0) for link in links for p in link.peers.values())
    counted = sum(k for _ms, k in seen)
    return {"crc": sum(link.crc for link in links), "stale": stale, "counted": counted, "sessions": t.sessions,
            "window": worst_window(seen), "ms": ms}


def noisy(game, seed, p, deals):
    t = EmulatedTable(seed, game, faults=parse_faults("drop=%g,corrupt=%g" % (p, p)))
    seen, tilted = watched(t)
    try:
        t.run_deals(deals)
        stalled = False
    except StalledTable:
        stalled = True
    r = tally(t, seen, t.now)
    r.update(deals=t.game.finished_deals(), stalled=stalled, tilts=tilted.count("bus-attack"),
             damaged=sum(w.damaged for w in t.lines))
    return r


def jammed(game, seed, port, total, burst, every):
    """Random bytes into the board's receive buffer of `port` (tests/simulator/table/test_soak.py's Noise:
    `burst` bytes at most, one ms in `every`), `total` of them, as the table plays."""
    t = EmulatedTable(seed, game)
    seen, tilted = watched(t)
    end = dict(zip(("shoe", "bus"), (e for _a, e in t.wires)))[port]
    rng, sent = random.Random(seed), [0]

    class Noise:
        def step(self, now):
            if rng.randrange(every) == 0:
                junk = rng.randbytes(rng.randrange(1, burst + 1))
                end.receive(junk)
                sent[0] += len(junk)
    t.devices.append(Noise())
    while sent[0] < total:
        t.step()
    r = tally(t, seen, t.now)
    r.update(deals=t.game.finished_deals(), tilts=tilted.count("bus-attack"), bytes=sent[0])
    return r


def attacked(game, seed, mix, rate, attack_ms):
    t = EmulatedTable(seed, game)
    seen, tilted = watched(t)
    a = BusAttacker(t, seed, rate, mix)
    while t.now < attack_ms:
        a.step(t.now)
        t.step()
    for _ in range(200):  # its last frames reach the safe points
        t.step()
    r = tally(t, seen, attack_ms)
    r.update(sent=a.sent, tilts=tilted.count("bus-attack"))
    return r


def add(total, r):
    for k, v in r.items():
        if k == "window":
            total[k] = max(total.get(k, 0), v)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            total[k] = total.get(k, 0) + v
        elif isinstance(v, bool):
            total[k] = total.get(k, 0) + int(v)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=40, help="deals a noisy table plays (piquet: a quarter)")
    p.add_argument("--seeds", type=int, default=3, help="tables of each game per noise level and attack")
    p.add_argument("--attack-ms", type=int, default=10000, help="how long the spliced device sends")
    p.add_argument("--noise-bytes", type=int, default=100_000, help="random bytes into each port a table")
    p.add_argument("--levels", default=",".join("%g" % x for x in LEVELS), help="drop = corrupt rates")
    p.add_argument("--rates", default=",".join("%g" % x for x in RATES), help="the attacker's rates")
    a = parse(p, {"deals": 3, "seeds": 1, "attack_ms": 1000, "noise_bytes": 1000, "levels": "0.05", "rates": "0.05"})
    levels, rates = [float(x) for x in a.levels.split(",")], [float(x) for x in a.rates.split(",")]
    t0 = time.perf_counter()
    print("refused frames by kind (counted: what the bus-attack tilt counts; window: the most "
          "in one %d s window; tilt at %d)" % (watch.WINDOW_MS // 1000, watch.ATTACK))
    noise_worst, attack_least = 0, None
    for game in GAMES:
        for level in levels:
            total = {}
            for seed in range(a.seeds):
                add(total, noisy(game, 100 + seed, level, max(1, a.deals // 4) if game == "piquet" else a.deals))
            noise_worst = max(noise_worst, total["window"])
            print("  %-7s lossy %4.0f %%  %5d deals in %5.0f s  damaged %5d  crc %6d  sessions %3d  stale %4d  "
                  "counted %3d (%.2f/min)  window %2d  tilts %d  stalled %d" % (
                      game, 100 * level, total["deals"], total["ms"] / 1000, total["damaged"], total["crc"],
                      total["sessions"], total["stale"], total["counted"], 60000.0 * total["counted"] / total["ms"],
                      total["window"], total["tilts"], total["stalled"]))
        for port, (burst, every) in JAM.items():
            total = {}
            for seed in range(a.seeds):
                add(total, jammed(game, 100 + seed, port, a.noise_bytes, burst, every))
            noise_worst = max(noise_worst, total["window"])
            print("  %-7s %d bytes of noise into the %-4s port  %4d deals in %5.0f s  crc %6d  stale %4d  "
                  "counted %3d  window %2d  tilts %d" % (
                      game, total["bytes"], port, total["deals"], total["ms"] / 1000, total["crc"], total["stale"],
                      total["counted"], total["window"], total["tilts"]))
        for rate in rates:
            for name, mix in ATTACKS.items():
                total = {}
                least = None
                for seed in range(a.seeds):
                    r = attacked(game, seed, mix, rate, a.attack_ms)
                    least = r["window"] if least is None else min(least, r["window"])
                    add(total, r)
                if rate == max(rates):
                    attack_least = least if attack_least is None else min(attack_least, least)
                print("  %-7s attack %-9s rate %-5g  sent %5d  crc %6d  stale %4d  counted %5d (%.0f/min)  "
                      "window %4d (least %4d)  tilts %d" % (
                          game, name, rate, total["sent"], total["crc"], total["stale"], total["counted"],
                          60000.0 * total["counted"] / total["ms"], total["window"], least, total["tilts"]))
    full = a.attack_ms >= watch.WINDOW_MS  # (a shorter attack need not fill the tilt's window)
    between = noise_worst < watch.ATTACK and (attack_least >= watch.ATTACK or not full)
    print("noise: at most %d counted in a window; attack at rate %g: at least %d in its first %d s; tilt at %d: "
          "%s; %.1f s" % (noise_worst, max(rates), attack_least, a.attack_ms // 1000, watch.ATTACK,
                          "between" if between else "NOT between", time.perf_counter() - t0))
    if not between:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
