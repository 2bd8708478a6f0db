"""What the emulated Pico's table measures (host/pico/table.py): a few deals with a power
cycle in one, against the CPython table (measure); the boot from a fresh journal and the resume
from a full one (measure_resume, with full_journal and resumed_game, the CPython side).

    python -m tapis.host.pico.measure [SEED [DEALS]]    (the image in $TAPIS_PICO_IMAGE)
"""
import json
import sys

from tapis.host.pico.table import PicoTable
from tapis.simulator.table.emulated import EmulatedTable


def measure(seed=7, deals=4, cycle_in_deal=3, image=None, log=print, game="ecarte"):
    """Flash, boot, play `deals` deals with a power cycle in the middle of deal
    `cycle_in_deal` (0: none), compare with the CPython table; log and return the figures."""
    import time

    figures = {"seed": seed, "deals": deals, "game": game}
    unfed = 0
    wall = time.monotonic()
    with PicoTable(seed, game, image=image, log=log) as t:
        figures["flash_and_boot_wall_s"] = round(time.monotonic() - wall, 1)
        per_deal = []
        for n in range(1, deals + 1):
            wall, emu = time.monotonic(), t.pico.now_ms
            if n == cycle_in_deal:  # a dozen events into this deal: power off and on
                at = len(t.board_log) + 12
                t.run(lambda g: len(t.board_log) >= at)
                figures["cycled_at"] = {"event": len(t.board_log), "deals_done": t.game.finished_deals()}
                unfed = t.pico.stats()["watchdog_longest_unfed_ms"]  # (the runner's counters start again)
                figures["resume_emulated_ms"] = t.power_cycle()
                figures["resumed_with_events"] = t.resumes[-1]
            t.run_deals(n)
            per_deal.append((round(time.monotonic() - wall, 1), t.pico.now_ms - emu))
            log("deal %d: %.1f s wall, %d emulated ms" % (n, per_deal[-1][0], per_deal[-1][1]))
        # The proof: the board's events are CPython's for the inputs the board took, in the
        # order it took them (replayed on a fresh game, across the power cycle). The CPython
        # table run on its own takes them in its own order wherever two seats may act at
        # once (a king announced while the other seat plays): both games are legal, so that
        # its events are the same too is a figure, not a law.
        replay = t.kit.new_game(t.options)
        for action, _events in t.applied:
            replay.apply(action)
        ref = EmulatedTable(seed, game)
        ref.run_deals(deals)
        figures["inputs_lost_in_the_power_cycle"] = t.inputs_lost
        figures["same_events_as_cpython"] = t.board_log == list(replay.log)
        figures["same_order_as_the_cpython_table"] = t.board_log[:len(ref.game.log)] == list(ref.game.log)
        figures["events"] = len(t.board_log)
        figures["deals_played"] = t.game.finished_deals()
        figures["per_deal_wall_s_emulated_ms"] = per_deal
        figures["speed_ratio"] = round(sum(e for _w, e in per_deal) / 1000 / max(0.1, sum(w for w, _e in per_deal)), 2)
        figures["heap_at_deals"] = [(a, f) for _ms, a, f in t.heap]
        figures["runner"] = t.pico.stats()
        # the longest the firmware went without feeding its watchdog (8 s resets the board)
        figures["watchdog_longest_unfed_ms"] = max(unfed, figures["runner"]["watchdog_longest_unfed_ms"])
        figures["watchdog_resets"] = {"timed_out": t.pico.watchdog_resets[0], "forced": t.pico.watchdog_resets[1]}
        figures["console"] = list(t.lines_seen)
    log(json.dumps(figures, indent=1))
    return figures


def full_journal(seed=7, game="ecarte", options=None, done=None, key=None, device=""):
    """A full journal as the CPython board leaves it (firmware.boot.build.build over a memory
    store, the emulated devices, the bots): the KEEP completed games the journal keeps
    (or `done`) and the unfinished one, played to its last input (the longest resume),
    chained under `key` for `device` (a board's: it refuses any other chain).
    (journal bytes, the CPython game's event log then)."""
    from tapis.firmware.journal.writer import KEEP, Journal
    from tapis.firmware.offboard.memstore import MemoryStore

    done = KEEP if done is None else done
    store = MemoryStore()
    t = EmulatedTable(seed, game, options, journal=Journal(store, key=key, device=device))
    j = t.journal
    last = None
    while j.number <= done + 1:
        size = store.size()
        t.step()
        if j.number == done + 1 and store.size() != size:  # not the input that ends the game
            last = bytes(store.data), list(t.game.log)
    return last


def resumed_game(data, key=None, device=""):
    """The game a board rebuilds from journal bytes (firmware.boot.build.resume, on CPython)."""
    from tapis.firmware.boot.build import resume
    from tapis.firmware.journal.writer import Journal
    from tapis.firmware.offboard.memstore import MemoryStore
    from tapis.firmware.journal.resume import load

    j = Journal(MemoryStore(data), key=key, device=device)
    load(j, False)
    return resume(j)[0]


class _Copy:
    """A meters copy held in memory (tally.read/_write take an object with read/replace)."""

    def __init__(self):
        self.b = b""

    def read(self):
        return self.b

    def replace(self, b):
        self.b = b


def meters_at_end(data, key, ident):
    """The two meters copies (bytes) a board that wrote journal `data` would hold: brought
    up to its end (firmware/meters/tally.py commit), so that its boot feeds only what follows them,
    as on a board that played those games; without them its meters, stale, are searched for
    through every record of the journal and an event is logged (the meters-lost case)."""
    from tapis.firmware.journal.writer import Journal
    from tapis.firmware.offboard.memstore import MemoryStore
    from tapis.firmware.meters.holder import Meters
    from tapis.firmware.journal.resume import load

    a, b = _Copy(), _Copy()
    j = Journal(MemoryStore(data), key=key, device=ident)
    load(j, False, keep_log=False)
    Meters(a, b, key=key).commit(j, force=True)
    return a.b, b.b


def measure_resume(seed=7, game="ecarte", image=None, log=print, flash_path=None, done=None, meters=True,
                   entries=0):
    """The emulated ms from power-on to the table playing (the board's game reported on
    its console, firmware/boot/report.py) on the emulated Pico flashed for `game`: with a fresh
    journal, and resuming from a full one (full_journal) put on its filesystem as
    /journal.bin (done: its completed games, KEEP if None). The resumed game must be the
    CPython one (PicoTable checks its events). meters: the meters copies put beside it,
    at its end (meters_at_end); False leaves the fresh boot's, stale (the meters-lost case).
    entries: an event log of that many power-ups put beside them (a board's after many boots)."""
    import time

    from tapis.firmware.link.boards import JOURNAL

    from tapis.firmware.journal.writer import Journal
    from tapis.firmware.offboard.memstore import MemoryStore
    from tapis.firmware.offboard.memstore import parse
    from tapis.firmware.journal.resume import load

    with PicoTable(seed, game, image=image, log=log, flash_path=flash_path) as t:
        figures = {"game": game, "seed": seed, "meters": meters, "fresh_ms": t.boot()}
        key, ident = t.identity()
        wall = time.monotonic()
        data, events = full_journal(seed, game, done=done, key=key, device=ident)
        recs = parse(data, Journal(MemoryStore(), key=key, device=ident))[0]
        board = Journal(MemoryStore(data), key=key, device=ident)
        load(board, False, keep_log=False)  # what the board will parse and replay of it
        figures.update({"journal_bytes": len(data), "records": len(recs),
                        "games": sum(r["k"] == "b" for r in recs), "done": sum(r["k"] == "e" for r in recs),
                        "last_game_inputs": sum(r["k"] == "i" for r in recs[max(
                            k for k, r in enumerate(recs) if r["k"] == "b"):]),
                        "inputs_replayed": len(board.last["inputs"]),
                        "make_journal_wall_s": round(time.monotonic() - wall, 1)})
        wall = time.monotonic()
        files = {JOURNAL: data}
        if meters:
            files["/journal.meters.a"], files["/journal.meters.b"] = meters_at_end(data, key, ident)
        if entries:
            files["/events.bin"] = event_log(key, ident, entries)
            figures["event_log_entries"] = entries
        t.put_files(files)
        figures["put_wall_s"] = round(time.monotonic() - wall, 1)
        # the mirror: the game played so far is the CPython one that wrote the journal
        t.game, t.board_log, t.applied, t.marks = resumed_game(data, key, ident), events, [], [len(events)]
        wall = time.monotonic()
        figures["resume_ms"] = t.boot()
        figures["resume_wall_s"] = round(time.monotonic() - wall, 1)
        figures["resumed_with_events"] = t.resumes[-1]
        figures["console"] = [c for c in t.lines_seen if "refused" in c or "crash" in c]
    log(json.dumps(figures))
    return figures


def event_log(key, ident, entries):
    """The bytes of a keyed event log of `entries` power-ups (firmware/eventlog/log.py)."""
    from tapis.firmware.eventlog.log import EventLog
    from tapis.firmware.offboard.memstore import MemoryStore

    log = EventLog(MemoryStore(), key, ident, clock=lambda: 1700000000)
    for k in range(entries):
        log.log("power-up", "PWRON_RESET")
    return bytes(log.store.data)


if __name__ == "__main__":  # python -m tapis.host.pico.measure [SEED [DEALS]]; the image in $TAPIS_PICO_IMAGE
    measure(*(int(a) for a in sys.argv[1:3]))
