# The math sheet's run (issue 47.3): deals played through the whole stack, the board's
# firmware controller on the emulated table (simulator/table/emulated.py: the bus with pairing and
# sealed frames, the shoe's UART, the consoles and their bots), a journal with its meters
# kept as a board keeps them. The deals are cut into chunks, chunk k seeded from (seed,
# game, variant, k) alone, run here, on worker processes or on a Dask scheduler's workers
# (simulator/montecarlo/workers.py); each chunk brings back its deal records, its meters and what the
# records say the meters must be (simulator/metersums.py), and the merge checks the two sums agree.
# Each exact figure (exact.py) gets the run's 95 % interval (Clopper-Pearson's), and the verdict
# asks the pack's figures' family-wise 95 % intervals (Bonferroni) to bracket them all.
import functools
import hashlib
import math
import time

from tapis.host.lab import exact
from tapis.simulator.cuts.metersums import expected, records_of
from tapis.simulator.montecarlo import workers as W

SIZES = {  # (game, variant): deals, chunk
    "full": {("club", None): (1200, 100), ("club", "commission-5"): (400, 100), ("ecarte", None): (1200, 100),
             ("piquet", None): (150, 25), ("piquet", "au-cent"): (60, 20)},
    "quick": {("club", None): (40, 20), ("ecarte", None): (40, 20), ("piquet", None): (8, 4)},
}
SKIP = ("schema", "generation", "rollover", "power_ups", "tilts")  # the meters no record sums


def chunk_seed(seed, game, variant, k):
    h = hashlib.sha256(b"tapis lab deals %d %s %s %d" % (seed, game.encode(), (variant or "").encode(), k))
    return int.from_bytes(h.digest()[:6], "big")


def play_chunk(spec, k, n):
    """Chunk k of n deals of spec's game through the whole stack: its records, meters, sums."""
    from tapis.firmware.journal.writer import Journal
    from tapis.firmware.meters.holder import Meters
    from tapis.firmware.meters.tally import held
    from tapis.firmware.offboard.memstore import MemoryStore
    from tapis.firmware.offboard.named import options as named
    from tapis.host.memory.meters import as_dict
    from tapis.simulator.table.emulated import EmulatedTable

    game, variant = spec["game"], spec["variant"]
    options = named(game, variant)
    seed = chunk_seed(spec["seed"], game, variant, k)
    j = Journal(MemoryStore())
    j.meters = Meters(MemoryStore(), MemoryStore())
    t0 = time.perf_counter()
    table = EmulatedTable(seed, game, options, journal=j)
    table.run_deals(n)
    seconds = time.perf_counter() - t0
    records = records_of(game, options, seed, table.game.log)
    meters = as_dict(held(j.meters, j))
    return {"k": k, "seed": seed, "deals": n, "seconds": seconds, "records": records, "meters": meters,
            "expected": expected(game, records, len(meters["seats"])),
            "hits": exact.hits(game, options, records)}


def add(a, b):
    """Two meters (or sums) dicts added leaf by leaf: numbers summed, lists of rows by position."""
    if isinstance(a, dict):
        return {k: add(a[k], b[k]) if k in b else a[k] for k in a}
    if isinstance(a, list):
        return [add(x, y) for x, y in zip(a, b)]
    if isinstance(a, (int, float)) and not isinstance(a, bool):
        return a + b
    return a


def differences(meters, want):
    """The meters against the records' sums: [(key, meters', records')] where they differ."""
    return [(k, meters.get(k), want[k]) for k in want if k not in SKIP and meters.get(k) != want[k]]


def interval(hits, n, level=0.95):
    """Clopper-Pearson's exact binomial interval for hits in n at `level` (None for n = 0):
    never narrower than it should be, even for the rare figures (1/8,091 of écarté's five trumps)."""
    from scipy.stats import beta

    if n == 0:
        return None
    a = (1 - level) / 2
    lo = float(beta.ppf(a, hits, n - hits + 1)) if hits else 0.0
    hi = float(beta.ppf(1 - a, hits + 1, n - hits)) if hits < n else 1.0
    return [lo, hi]


def run_game(game, variant, deals, chunk, seed, workers=1, scheduler=None, advance=lambda n=1: None,
             keep=None):
    """The deals through the whole stack; keep(k, records) receives each chunk's records.
    Returns the run's part of the sheet."""
    spec = {"game": game, "variant": variant, "seed": seed}
    jobs = [(k, min(chunk, deals - k * chunk)) for k in range((deals + chunk - 1) // chunk)]
    task = functools.partial(play_chunk, spec)
    if scheduler:
        parts, backend = W.dask(task, iter(jobs), scheduler), "dask"
    elif workers > 1:
        parts, backend = W.processes(task, iter(jobs), min(workers, len(jobs))), "processes"
    else:
        parts, backend = W.inline(task, iter(jobs)), "inline"
    t0 = time.perf_counter()
    meters = want = hits = None
    chunks, cpu = [], 0.0
    for n, part in parts:
        if differences(part["meters"], part["expected"]):
            raise AssertionError("chunk %d of %s: its meters differ from its records: %r"
                                 % (part["k"], game, differences(part["meters"], part["expected"])))
        meters = part["meters"] if meters is None else add(meters, part["meters"])
        want = part["expected"] if want is None else add(want, part["expected"])
        hits = part["hits"] if hits is None else {k: [hits[k][0] + v[0], hits[k][1] + v[1]] for k, v in part["hits"].items()}
        cpu += part["seconds"]
        chunks.append({"k": part["k"], "seed": part["seed"], "deals": part["deals"], "seconds": part["seconds"]})
        if keep:
            keep(part["k"], part["records"])
        advance(n)
    wall = time.perf_counter() - t0
    diff = differences(meters, want)
    return {"deals": deals, "chunks": chunks, "backend": backend, "workers": workers if not scheduler else None,
            "wall_seconds": wall, "deals_per_second": deals / wall if wall else None, "chunk_seconds": cpu,
            "meters": meters, "meters_from_records": want, "merge_agrees": not diff,
            "merge_differences": [list(d) for d in diff], "hits": hits}


def bracket(sheet, run, family=1):
    """Each exact figure beside the run's hits, its 95 % interval, and the interval at 1 - 0.05 /
    family (Bonferroni: `family` figures in the pack), which the verdict asks to bracket it: at
    95 % each, one figure in twenty would miss by chance alone."""
    rows = []
    for f in sheet["figures"]:
        h, n = run["hits"].get(f["name"], [0, 0])
        ci, wide = interval(h, n), interval(h, n, 1 - 0.05 / family)
        rows.append({"name": f["name"], "exact": f["fraction"], "value": f["value"], "hits": h, "trials": n,
                     "observed": h / n if n else None, "ci95": ci, "ci_family": wide,
                     "in_ci95": ci is not None and ci[0] <= f["value"] <= ci[1],
                     "brackets": wide is not None and wide[0] <= f["value"] <= wide[1]})
    return rows


def money(game, meters):
    """What the meters say the seats and the house did: wagered, net to the players, house."""
    seats = meters["seats"]
    wagered = sum(s["wagered"] for s in seats)
    won, lost = sum(s["won"] for s in seats), sum(s["lost"] for s in seats)
    out = {"wagered": wagered, "won": won, "lost": lost, "house": meters["house"]}
    if game == "club":
        t = meters["tableaux"]
        staked = sum(x["wagered"] for x in t)
        out["punters_return"] = (staked + sum(x["won"] for x in t) - sum(x["lost"] for x in t) - sum(
            x["commission"] for x in t)) / staked if staked else None
        out["house_take"] = meters["house"] / staked if staked else None
    return out
