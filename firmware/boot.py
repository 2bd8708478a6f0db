# Building the table from a route and a journal: shared by the board's entry
# (firmware/main.py), the virtual board and the tests. A new game is begun in the
# journal; an unfinished one is rebuilt by replaying its inputs into a fresh game (from
# the state it began with, the game's own snapshot), and checked event by event against
# what was journaled. Games are found by name in the one registry (games/__init__.py).
from . import wire as W
from .controller import Controller
from .games import find
from .journal import JournalError
from .rules import CHANCE


def unload():
    """Free the boot-only modules (this one and the self-tests) once the table is built:
    nothing the controller keeps refers to them, and on a board their bytecode is heap."""
    import sys
    pkg = __name__[:__name__.rfind(".")]  # "firmware" on a board, "tapis.firmware" on a host
    for key in list(sys.modules):
        if key == pkg + ".boot" or (key.startswith(pkg + ".") and key.endswith(".selftest")):
            del sys.modules[key]
            cut = key.rfind(".")
            parent, name = sys.modules.get(key[:cut]), key[cut + 1:]
            if parent is not None and name in parent.__dict__:
                delattr(parent, name)


def replay(game, inputs):
    """Apply journaled inputs to `game`; each must give the events journaled with it."""
    for i, (action, events, _f) in enumerate(inputs):
        got = tuple(game.apply(action))
        if got != tuple(events):
            raise JournalError("the journal does not replay: input %d %r gave %r, journaled %r"
                               % (i, action, got, tuple(events)))


def _deal_start(inputs):
    """Index after the input that began the current deal, if only shoe cards followed."""
    for k in range(len(inputs) - 1, -1, -1):
        action, events, _f = inputs[k]
        if any(e[0] == "deal" for e in events):
            return k + 1
        if action[1] != CHANCE:
            return None
    return None


def _rebuilt(package, options, state, inputs):
    game = package.Rules(options)
    if state is not None:
        game.restore(state)
    replay(game, inputs)
    return game


def resume(journal):
    """(game, table adapter, voided why or None) rebuilt from the last game journaled."""
    u = journal.last
    package = find(u["game"])
    options = package.Options.restore(u["options"])
    inputs = u["inputs"]
    game = _rebuilt(package, options, u["state"], inputs)
    why = None
    if journal.torn and package.VOID_TORN_DEAL and not u["done"] and game.to_act == CHANCE:
        k = _deal_start(inputs)
        if k is not None and k < len(inputs):
            # power was lost while the cards were being dealt: the deal is void
            why = "power lost while the deal was being dealt: a new deal (%d cards voided)" % (
                len(inputs) - k)
            journal.void(len(inputs) - k, why)
            game = _rebuilt(package, options, u["state"], inputs[:k])
            u["voided"].append({"why": why, "inputs": inputs[k:]})
            del inputs[k:]
    journal.follow(game)
    return game, package.Table(game), why


def build(route, journal, name="ecarte", options=None, keep_log=True):
    """The controller for this route: the journal's unfinished game resumed, or a new
    game `name` begun in it. Raises JournalError when the journal is corrupt."""
    journal.open(False)
    if journal.last is not None:
        game, table, why = resume(journal)
        for addr, seq in journal.last_frames().items():
            link = route.get(addr)
            if link is not None:
                link.restore(addr, seq)
        ctrl = Controller(table, route, journal, resumed=True, keep_log=keep_log)
        if why:
            ctrl.faults.append(why)
            ctrl.voided = True
        return ctrl
    package = find(name)
    game = package.Rules(options if options is not None else package.Options())
    journal.begin(name, game)
    return Controller(package.Table(game), route, journal, keep_log=keep_log)


def bus_route(link, seats=W.SEATS):
    """Every device on one link (a bus), as the virtual board wires it."""
    route = {W.SHOE: link, W.TABLE_DISPLAY: link}
    for s in range(seats):
        route[W.PANEL + s] = route[W.DISPLAY + s] = link
    return route
