# Building the table from a route and a journal: shared by the board's entry
# (firmware/boot/main.py), the virtual board and the tests. A new game is begun in the
# journal; an unfinished one is rebuilt by replaying its inputs into a fresh game (from
# the state it began with, the game's own snapshot), and checked event by event against
# what was journaled. Games are found by name in the one registry (games/__init__.py).
from .. import compat
from ..table.controller import Controller
from ..games import find
from ..games.replay import rebuild
from ..journal.resume import follow, load
from ..games.rules import CHANCE
from ..operator.handler import frame


def unload():
    """Free the boot-only modules (this one, the replay, the journal's readers and
    snapshots, the self-tests) once the table is built: nothing the controller keeps
    refers to them."""
    compat.unload("boot.build", "games.replay", "journal.resume", "journal.played", "journal.reader", "games.snapshot", "boot.selftest", "games.ecarte.selftest",
                  "operator.clears", "boot.powerup", "eventlog.log", "eventlog.walk", "eventlog.opening", "eventlog",
                  "operator")


def _deal_start(inputs):
    """Index after the input that began the current deal, if only shoe cards followed."""
    for k in range(len(inputs) - 1, -1, -1):
        action, events, _f = inputs[k]
        if any(e[0] == "deal" for e in events):
            return k + 1
        if action[1] != CHANCE:
            return None
    return None


def resume(journal, keep_log=True):
    """(game, table adapter, voided why or None, cards voided) rebuilt from the last game
    journaled."""
    u = journal.last
    kit = find(u["game"])
    options = kit.Options.restore(u["options"])
    inputs = u["inputs"]
    why, n = None, 0
    for attempt in (0, 1):  # a second time when the deal being dealt is voided
        game = kit.Rules(options)
        if u["state"] is not None:
            game.restore(u["state"])
        rebuild(game, inputs, keep_log)
        if attempt or not (journal.torn and kit.VOID_TORN_DEAL and not u["done"] and
                           game.to_act == CHANCE):
            break
        k = _deal_start(inputs)
        if k is None or k >= len(inputs):
            break
        # power was lost while the cards were being dealt: the deal is void
        n = len(inputs) - k  # (shoe cards only)
        why = "power lost while the deal was being dealt: a new deal (%d cards voided)" % n
        journal.void(n, why)
        u["voided"].append({"why": why, "inputs": inputs[k:]})
        del inputs[k:]
    follow(journal, game)
    # the resumed game's records are replayed: free them (the board would hold them all
    # session); what the journal keeps of the game is in the store
    u["state"] = u["events"] = u["inputs"] = u["voided"] = None
    return game, kit.Table(game), why, n


def configured(journal, name, options, signed, u):
    """Journal who authorised the configuration (`signed`: config.signer()) when it is not
    the journal's last game's (`u`, None for a fresh journal), once: tapis recall shows it."""
    o = options.snapshot()
    if u is not None:
        if u["game"] == name and u["options"] == o:
            return
        for r in u["supervised"]:
            if r.get("do") == "config" and r["who"] == signed and r["g"] == name and r["o"] == o:
                return  # journaled at an earlier boot
    journal.write({"k": "s", "do": "config", "who": signed, "g": name, "o": o,
                   "why": "in force" if u is None else "flashed; the journal's game goes on under its own"})


def _custody(journal, events):
    """The chain of custody compared before the boot writes (custody.py): the tilts' classes.
    Its modules unloaded, nothing of theirs left referred to (the replay next: the heap at its tightest)."""
    from .custody import bind
    tilts = bind(journal, events)
    compat.unload("boot.custody", "meters.tally", "meters.layout")
    return tilts


def _attach(ctrl, events):
    """The event log given to the controller, and the tilts open in it: a lock survives a reboot."""
    if events is not None:
        ctrl.events = events.park()  # (events.py is unloaded with the boot's modules)
        ctrl.locked = events.locked()
    return ctrl


def build(route, journal, name="ecarte", options=None, keep_log=True, signed=None, supervisor=frame,
          events=None, defer=False):
    """The controller for this route: the journal's unfinished game resumed, or a new
    game `name` begun in it. Raises JournalError when the journal is corrupt. signed: who
    authorised the configuration (name, options), journaled when it changes; supervisor:
    what the controller hands the supervisor's frames (supervisor.frame: recall.py and
    commands.py, loaded for each); events: the event log (events.py), whose open tilts
    lock the table, and a RAM clear a power cut stopped is finished from it. defer: the
    journal's segments before its last game checked once playing (resume.load, journal.rest)."""
    if events is not None:
        from ..eventlog.walk import finish  # (a RAM clear's, clears.py)
        finish(journal, events)
    load(journal, False, keep_log, defer)  # a board keeps no log: it replays the last deal only
    tilts = _custody(journal, events) if events is not None else []
    if journal.last is not None:
        u = journal.last
        game, table, why, voided = resume(journal, keep_log)
        if signed is not None and options is not None:
            configured(journal, name, options, signed, u)
        frames = journal.last_frames()
        for addr in frames:
            link = route.get(addr)
            if link is not None:
                link.restore(addr, frames[addr][0], frames[addr][1])
        ctrl = _attach(Controller(table, route, journal, resumed=True, keep_log=keep_log, supervisor=supervisor),
                       events)
        if why:
            ctrl.faults.append(why)
            ctrl.voided = True
        from ..table.packcount import resumed as counted  # (loaded for it)
        counted(ctrl, voided)
        compat.unload("table.packcount")
        return _seats(journal, ctrl, tilts)
    kit = find(name)
    game = kit.Rules(options if options is not None else kit.Options())
    journal.begin(name, game)
    if signed is not None:
        configured(journal, name, game.options, signed, None)
    return _seats(journal, _attach(Controller(kit.Table(game), route, journal, keep_log=keep_log, supervisor=supervisor),
                                   events), tilts)


def _seats(journal, ctrl, tilts=()):
    """The meters (meters.py), if any: the table's seats, a copy rebuilt an event and both
    bad a RAM tilt in the controller's event log (unless the caller handed its own), and a
    power-up counted (their copies checked, brought up to the journal's end and written)."""
    m = journal.meters
    if m is not None:
        m.seats = ctrl.table.SEATS
        if m.on_event is None:
            m.on_event, m.on_tilt = ctrl.event, ctrl.tilt
        m.ctrl = ctrl  # (an event log cut back behind the copies: a journal-failure tilt, tally.commit)
        m.commit(journal, power=True, tilt=[{"ram-error": "ram"}.get(c, "journal") for c in tilts])
    return ctrl
