# Building the table from a route and a journal: shared by the board's entry
# (firmware/main.py), the virtual board and the tests. A new game is begun in the
# journal; an unfinished one is rebuilt by replaying its inputs into a fresh game (from
# the state it began with), and checked event by event against what was journaled.
from . import wire as W
from .controller import Controller
from .journal import JournalError, restore
from .rules import CHANCE


def _ecarte():
    from .rules.ecarte import Ecarte, Options
    from .tables.ecarte import EcarteTable
    return Ecarte, Options, EcarteTable, Ecarte.finished_games, True


def _piquet():
    from .rules.piquet import Piquet, Options
    from .tables.piquet import PiquetTable
    return Piquet, Options, PiquetTable, Piquet.finished_games, True


def _club():
    from .rules.club import Club, Options
    from .tables.club import ClubTable
    return Club, Options, ClubTable, Club.finished_games, False


# name -> () -> (rules class, Options class, table adapter, finished games(game),
#               a deal interrupted while being dealt is void on a torn journal)
GAMES = {"ecarte": _ecarte, "piquet": _piquet, "club": _club}


def unload():
    """Free the boot-only modules (this one and the self-test) once the table is built:
    nothing the controller keeps refers to them, and on a board their bytecode is heap."""
    import sys
    pkg = __name__[:__name__.rfind(".")]  # "firmware" on a board, "tapis.firmware" on a host
    parent = sys.modules[pkg]
    for name in ("boot", "selftest"):
        sys.modules.pop(pkg + "." + name, None)
        if name in parent.__dict__:
            delattr(parent, name)


def kit(name):
    if name not in GAMES:
        raise ValueError("no game %r on this board (games: %s)" % (name, ", ".join(GAMES)))
    return GAMES[name]()


def options_for(name, frozen):
    """The Options object a journal's frozen options describe."""
    o = kit(name)[1]()
    restore(o, frozen)
    return o


def default_make(name, options):
    return kit(name)[0](options)


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


def resume(journal, make=default_make):
    """(game, table adapter, voided why or None) rebuilt from the unfinished game."""
    u = journal.last
    name = u["game"]
    Rules, _O, Table, done, voidable = kit(name)
    options = options_for(name, u["options"])
    game = make(name, options)
    if u["state"] is not None:
        restore(game, u["state"])
        game.log = []
    inputs = u["inputs"]
    replay(game, inputs)
    why = None
    if journal.torn and voidable and not u["done"] and game.to_act == CHANCE:
        k = _deal_start(inputs)
        if k is not None and k < len(inputs):
            # power was lost while the cards were being dealt: the deal is void
            why = "power lost while the deal was being dealt: a new deal (%d cards voided)" % (
                len(inputs) - k)
            journal.void(len(inputs) - k, why)
            game = make(name, options)
            if u["state"] is not None:
                restore(game, u["state"])
                game.log = []
            replay(game, inputs[:k])
            u["voided"].append({"why": why, "inputs": inputs[k:]})
            del inputs[k:]
    journal.follow(game, done)
    return game, Table(game), why


def build(route, journal, name="ecarte", options=None, make=default_make, keep_log=True):
    """The controller for this route: the journal's unfinished game resumed, or a new
    game `name` begun in it. Raises JournalError when the journal is corrupt."""
    journal.open(False)
    if journal.last is not None:
        game, table, why = resume(journal, make)
        for addr, seq in journal.last_frames().items():
            link = route.get(addr)
            if link is not None:
                link.restore(addr, seq)
        ctrl = Controller(table, route, journal, resumed=True, keep_log=keep_log)
        if why:
            ctrl.faults.append(why)
            ctrl.voided = True
        return ctrl
    Rules, Options, Table, done, _v = kit(name)
    options = options if options is not None else Options()
    game = make(name, options)
    journal.begin(name, options, game, done, True)
    return Controller(Table(game), route, journal, keep_log=keep_log)


def host_route(link, seats):
    """Every device on one link (a bus), as the virtual board wires it."""
    route = {W.SHOE: link, W.TABLE_DISPLAY: link}
    for s in range(seats):
        route[W.PANEL + s] = route[W.DISPLAY + s] = link
    return route
