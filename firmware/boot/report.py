# An optional report of the board's game on its USB console, for a host that checks what a
# board plays (simulator/pico_table.py runs the firmware on an emulated Pico and compares
# its events with the CPython table's). Off unless the file FLAG exists on the board's
# filesystem (`mpremote fs touch :report.on`): a table in play has nobody on its console.
#
# When on, the board prints one line per applied input, and one at each new deal with the
# heap in use after a collection:
#   tapis-applied (None, (events the game had when built,))     once, at boot
#   tapis-applied (action, (events,))                            each input applied
#   tapis-heap ALLOC FREE                                        at each deal
# The tuples are repr()s that Python's ast.literal_eval reads back.
import gc
import os

FLAG = "/report.on"
APPLIED = "tapis-applied "
HEAP = "tapis-heap "


def enabled():
    try:
        os.stat(FLAG)
        return True
    except OSError:
        return False


def heap_line():
    gc.collect()
    return HEAP + "%d %d" % (gc.mem_alloc(), gc.mem_free())


def install(game, out=print):
    """When enabled: report the game's log so far, then every input game.apply takes."""
    if not enabled():
        return False
    out(APPLIED + repr((None, tuple(game.log))))
    out(heap_line())
    apply = game.apply

    def reporting(action):
        events = apply(action)
        out(APPLIED + repr((action, tuple(events))))
        for e in events:
            if e[0] == "deal":
                out(heap_line())
                break
        return events

    game.apply = reporting
    return True
