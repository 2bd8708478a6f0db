# The lab's first section (issue 47.2; GLI-11 §3.3): the shuffle. The host's generator
# (firmware/offboard/rng.py's Seeded, the same numbers under MicroPython) gives the raw bit
# stream, its 32-bit words big-endian as it draws them; the bits go through NIST SP 800-22
# (nist.py, nist_walks.py) in sequences of SEQUENCE bits and through Debian's dieharder
# (dieharder.py). The one shuffle (deck.shuffle, Fisher-Yates) on the same generator gives
# the card orders, tested by orders.py: each card's position, adjacent pairs, ascending runs,
# the top card's serial correlation, at 99 %, in batches whose p-values are themselves
# checked for uniformity. Every raw file is written for a lab to rerun.
import json
import math

import numpy as np

from tapis.firmware.offboard import deck
from tapis.firmware.offboard.rng import Seeded
from tapis.host.lab import nist_walks, orders
from tapis.simulator.montecarlo import workers as W

SIZES = {  # the sequences of bits, the shuffles of each pack (in BATCHES batches)
    "full": {"sequences": 100, "sequence_bits": 1_000_000, "shuffles": 200_000},
    "quick": {"sequences": 2, "sequence_bits": 400_000, "shuffles": 10_000},
}
BATCHES = 20
ALPHA = 0.01  # the labs' 99 % level
PACKS = (deck.PACK_32, deck.SHOE_104)


def stream_key(seed):
    return b"tapis lab bits %d" % seed


def stream(seed, nbytes):
    """The generator's output, nbytes of it (a multiple of 4): Seeded's 32-bit words, big-endian."""
    return Seeded(stream_key(seed)).read(nbytes)


def _nist_one(job):
    k, data = job
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8))
    return k, [(name, p) for _test, f in nist_walks.suite(len(bits)) for name, p in f(bits)]


def nist_battery(data, sequence_bits, pool_map, advance=lambda n=1: None):
    """NIST's suite over data cut into sequences. Each P-value a test gives is a sub-test
    (a template, a state, a direction); per sub-test, section 4.2's two checks: the proportion
    of sequences passing at 1 % within p̂ ± 3σ (p̂ = 0.99), and its P-values' uniformity (ten
    bins, χ² on 9 dof, P_T ≥ 0.0001), both meaningful from about 100 sequences on. A test's
    verdict, valid for any number of sequences: the count of its P-values under 1 % against
    the binomial law at 99 % (they are 1 % each under the hypothesis), and the uniformity of
    them all."""
    from scipy import stats

    size = sequence_bits // 8
    jobs = [(k, data[k * size:(k + 1) * size]) for k in range(len(data) // size)]
    rows = {}
    for k, got in pool_map(_nist_one, jobs):
        rows[k] = got
        advance(1)
    subs = {}
    for k in sorted(rows):
        for name, p in rows[k]:
            subs.setdefault(name, []).append(p)
    out = []
    for test in [t for t, _f in nist_walks.suite(sequence_bits)]:
        mine = {name: ps for name, ps in subs.items() if name.split(" ")[0] == test}
        if not mine:
            out.append({"test": test, "sequences": 0, "pass": None, "note": "not applicable to these sequences"})
            continue
        flat = [p for ps in mine.values() for p in ps]
        low = sum(1 for p in flat if p < ALPHA)
        tail = float(stats.binom.sf(low - 1, len(flat), ALPHA)) if low else 1.0
        outside, worst = 0, 1.0
        for ps in mine.values():
            share = sum(1 for p in ps if p >= ALPHA) / len(ps)
            worst = min(worst, share)
            outside += share < (1 - ALPHA) - 3 * math.sqrt(ALPHA * (1 - ALPHA) / len(ps))
        p_t = _uniformity_10(flat)
        out.append({"test": test, "sequences": max(len(ps) for ps in mine.values()), "sub_tests": len(mine),
                    "p_values": len(flat), "under_1pc": low, "binomial_p": tail, "uniformity_p": p_t,
                    "worst_proportion": worst, "sub_tests_outside_proportion": outside,
                    "pass": bool(tail >= ALPHA and p_t >= 0.0001)})
    return out, rows, len(rows)


def _uniformity_10(ps):
    """NIST 4.2.2: the P-values in ten bins, χ² on 9 dof: P_T."""
    from tapis.host.lab.nist import igamc

    counts = np.histogram(ps, bins=10, range=(0, 1))[0]
    e = len(ps) / 10
    return igamc(4.5, float(((counts - e) ** 2 / e).sum()) / 2)


def _orders_chunk(job):
    pack, k, count, seed = job
    perms = orders.shuffles(pack, count, b"tapis lab orders %d %d %d" % (seed, pack, k))
    cells, runs = orders.tally(perms)
    return pack, k, {"cells": cells, "runs": runs, "pairs": orders.adjacent_pairs(perms, k * count),
                     "serial": orders.serial_sums(perms), "raw": perms.astype(np.uint8).tobytes()}


def _batch_tests(t, pack):
    """The four tests on one tally: [(name, statistic, dof, p)] (a test that cannot run: None)."""
    x, dof = orders.position_chi2(t["cells"])
    rx, rdof = orders.runs_chi2(t["runs"], pack)
    out = [("position", x, dof, _chi2_sf(x, dof)), ("runs", rx, rdof, _chi2_sf(rx, rdof))]
    pair = orders.adjacent_chi2(t["pairs"], pack)
    out.append(("adjacent_pairs",) + (pair + (_chi2_sf(*pair),) if pair else (None, None, None)))
    r, p = orders.serial_test(t["serial"])
    out.append(("serial_correlation", r, None, p))
    return out


def _chi2_sf(x, dof):
    from scipy import stats

    return float(stats.chi2.sf(x, dof))


def card_orders(shuffles, seed, pool_map, raw_dir, advance=lambda n=1: None):
    """Each pack shuffled `shuffles` times in BATCHES batches (a chunk each): every test on
    the whole and on each batch, the batches' p-values' uniformity (Kolmogorov-Smirnov).
    The orders themselves go to raw_dir/orders-<pack>.bin (a byte a card, a shuffle a row)."""
    per = shuffles // BATCHES
    jobs = [(pack, k, per, seed) for pack in PACKS for k in range(BATCHES)]
    parts = {p: {} for p in PACKS}
    for pack, k, t in pool_map(_orders_chunk, jobs):
        parts[pack][k] = t
        advance(per)
    out = []
    for pack in PACKS:
        chunks = [parts[pack][k] for k in range(BATCHES)]
        with open(raw_dir / ("orders-%d.bin" % pack), "wb") as f:
            for c in chunks:
                f.write(c.pop("raw"))
        whole = {"cells": sum(c["cells"] for c in chunks), "runs": sum(c["runs"] for c in chunks),
                 "pairs": sum(c["pairs"] for c in chunks), "serial": chunks[0]["serial"]}
        for c in chunks[1:]:
            whole["serial"] = orders.serial_merge(whole["serial"], c["serial"])
        batches = [_batch_tests(c, pack) for c in chunks]
        for i, (name, stat, dof, p) in enumerate(_batch_tests(whole, pack)):
            ps = [b[i][3] for b in batches if b[i][3] is not None]
            u = orders.uniformity(ps)
            out.append({"pack": pack, "test": name, "shuffles": per * BATCHES, "statistic": stat, "dof": dof,
                        "p": p, "batches": len(ps), "batch_p_values": ps, "uniformity_p": u,
                        "pass": None if p is None else bool(p >= ALPHA and (u is None or u >= ALPHA))})
    return out


def run(out, quick, workers, seed, advance=lambda n=1: None, scheduler=None):
    """The section: its summary (a dict), its raw files under out/shuffle/."""
    from tapis.host.lab import dieharder

    size = SIZES["quick" if quick else "full"]
    raw = out / "shuffle"
    raw.mkdir(parents=True, exist_ok=True)
    nbytes = size["sequences"] * size["sequence_bits"] // 8
    data = stream(seed, nbytes)
    (raw / "bits.bin").write_bytes(data)
    pool_map = _mapper(workers)
    nist, rows, m = nist_battery(data, size["sequence_bits"], pool_map, advance)
    with open(raw / "nist-p-values.csv", "w") as f:
        f.write("sequence,test,p_value\n")
        for k in sorted(rows):
            for name, p in rows[k]:
                f.write("%d,%s,%.6f\n" % (k, name, p))
    dh = dieharder.battery(seed, raw, quick, pool_map, advance)
    cards = card_orders(size["shuffles"], seed, pool_map, raw, advance)
    (raw / "orders.json").write_text(json.dumps(cards, indent=1))
    return {"generator": "firmware/offboard/rng.py Seeded (SHA-256 counter mode), key %r" % stream_key(seed).decode(),
            "shuffle": "firmware/offboard/deck.py shuffle (Fisher-Yates) on Seeded.below",
            "bits": nbytes * 8, "sequence_bits": size["sequence_bits"], "sequences": m,
            "nist": nist, "dieharder": dh, "orders": cards,
            "pass": all(t["pass"] is not False for t in nist) and dh["pass"] is not False
            and all(t["pass"] is not False for t in cards)}


def _mapper(workers):
    """A map over jobs that yields results (in any order) on `workers` processes."""
    if workers <= 1:
        return lambda f, jobs: map(f, jobs)

    def pool_map(f, jobs):
        return (r for _n, r in W.processes(_Call(f), ((job, 1) for job in jobs), workers))
    return pool_map


class _Call:
    """task(job, n) for simulator/montecarlo/workers.py's pools: f(job)."""

    def __init__(self, f):
        self.f = f

    def __call__(self, job, _n):
        return self.f(job)
