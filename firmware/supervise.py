# The supervisor's commands: a BUTTON frame [command, arg] from the supervisor device
# (Controller._credential), out of the board's heap until one comes: controller.py loads
# this for it and unloads it after. What it does is journaled with the supervisor's serial.
from .compat import const, unload
from .rules import NEW_DEAL

VOID = const(1)  # [VOID, 0]: the deal in play is void; its dealer deals it again


def serial(link, addr):
    """Who: the serial the device gave in its HELLO (its address if it gave none)."""
    p = link.peers.get(addr)
    info = p.info if p is not None else None
    return info[1].decode() if info and info[1] else "0x%02x" % addr


def command(ctrl, link, addr, payload):
    """Controller: a supervisor's BUTTON frame."""
    who = serial(link, addr)
    if payload[0] == VOID:
        return void(ctrl, who)
    ctrl._error("supervisor", "%s: no supervisor command %d" % (who, payload[0]))


def void(ctrl, who):
    """The deal in play is void: the journal says so, and by whom ({"k": "v"}: its inputs
    voided, why), and the game is rebuilt from the journal as the deal began, as a board
    resumes after a power loss while dealing (boot.py). Cards in flight are set aside."""
    from . import boot
    from .games import find
    j = ctrl.journal
    if j is None:
        return ctrl._error("supervisor", "%s: no journal to void a deal in" % who)
    kit = find(j.name)
    if not kit.VOID_TORN_DEAL:  # club: a deal is settled as it is dealt
        return ctrl._error("supervisor", "%s: no deal to void at this table" % who)
    j.flush()
    j.open(False, True)  # the unfinished game, every input of it
    u = j.last
    ins = u["inputs"]
    flags = ctrl.game.EVENTS
    k = 0  # after the input that began the deal in play (0: it began with the game)
    for i in range(len(ins)):
        for e in ins[i][1]:
            if flags.get(e[0], 0) & NEW_DEAL:
                k = i + 1
    if u["done"] or k >= len(ins):
        j.follow(ctrl.game)
        u["inputs"] = None
        unload("boot", "reader", "snapshot")
        return ctrl._error("supervisor", "%s: nothing dealt to void" % who)
    why = "voided by the supervisor %s" % who
    j.void(len(ins) - k, why)
    game = kit.Rules(kit.Options.restore(u["options"]))
    if u["state"] is not None:
        game.restore(u["state"])
    boot.replay(game, ins[:k], ctrl.keep_log)
    j.follow(game)
    # the state the deal begins from again: a board resumes from the last one (reader.py),
    # and the one before may be of the voided deal's
    j._write({"k": "d", "s": game.snapshot(), "f": list(j.frames.items())})
    u["state"] = u["events"] = u["inputs"] = u["voided"] = None
    unload("boot", "reader", "snapshot")
    ctrl.table = kit.Table(game)
    ctrl.game = game
    ctrl.shown = len(game.log)  # the displays are told of the void, not the replay
    game.log.append(("void", -1, why))
    ctrl.awaiting = 0
    ctrl.resuming = ctrl.voided = True  # what the shoe had in flight is not the new deal's
    ctrl.dirty = True
    ctrl.faults.append(why)
