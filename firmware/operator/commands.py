# The supervisor's commands (SPEC §8): from the supervisor device (recall.credential),
# out of the board's heap until one comes: recall.py loads this for it and unloads it
# after. Each is journaled with the supervisor's serial (docs/protocol.md "Supervisor"):
#   BUTTON [VOID, 0]                   the deal in play is void; its dealer deals again
#   SUPERVISE [LIMITS, bank, m1, m2]   club: the limited bank's size and the first and
#                                      second punters' minimums (2 bytes each), from the
#                                      next bank laid
#   SUPERVISE [LIMITS, stake, max_bet] écarté: the stake a game and the gallery's largest
#                                      bet (2 bytes each), from the next game begun
#                                      (games/ecarte/limits.py); piquet has no money
#   BUTTON [RESPONSIBLE, seat]         club, supervised: that seat may hold a responsible bank
#   BUTTON [GIVE, seat]                club: the bank to that seat, out of rotation
#   BUTTON [SCREEN, 0]                 the table display shows the meters (its mode line
#                                      "meters") until the supervisor asks again or play
#                                      resumes (outgoing.refresh); not journaled (it moves
#                                      nothing), logged as a supervisor action
# These are the game's own actions (seat SUP, games/club/bank.py), journaled as any
# input (with who in them) and replayed at a resume; a refused one is counted and changes
# nothing.
from .. import wire as W
from ..compat import const, unload
from ..games.rules import NEW_DEAL, IllegalAction

VOID = const(1)
LIMITS = const(2)
RESPONSIBLE = const(3)
GIVE = const(4)
SCREEN = const(6)  # (wire.CLEAR is 5)
_SUP = const(-2)  # games/club/events.py SUP: the seat of the supervisor's actions
_KINDS = (None, None, "limits", "authorise", "give")


def command(ctrl, who, addr, ftype, payload, seq=None):
    """recall.on_frame: a supervisor's BUTTON or SUPERVISE frame; `who`, the serial the
    device gave (recall.serial)."""
    if who[:2] == "0x":  # no HELLO yet: the journal would not say who
        return ctrl.error("supervisor", "%s: a command before the device said who it is" % who)
    c = payload[0]
    if ftype == W.BUTTON:
        args = (payload[1],)
    else:
        args = tuple(payload[i] << 8 | payload[i + 1] for i in range(1, len(payload), 2))
    if c == VOID and ftype == W.BUTTON:
        return void(ctrl, who)
    if c == SCREEN and ftype == W.BUTTON:
        return screen(ctrl, who)
    kind = _KINDS[c] if 1 < c < len(_KINDS) and (ftype == W.SUPERVISE) == (c == LIMITS) else None
    if kind is None:
        return ctrl.error("supervisor", "%s: no supervisor command %d in frame 0x%02x" % (who, c, ftype))
    if kind not in ctrl.game.PLAYER_ACTIONS:
        return ctrl.error("supervisor", "%s: no %s at this table" % (who, kind))
    try:
        ctrl.apply((kind, _SUP, (who,) + args), addr, seq)
    except IllegalAction as e:  # checked before anything changed: nothing did
        return ctrl.error("supervisor", "%s: %s" % (who, e))
    finally:
        unload("games.ecarte.limits")  # écarté's, loaded for this command only
    ctrl.faults.append("%s by the supervisor %s: %r" % (kind, who, args))
    ctrl.event("supervisor", "%s %r" % (kind, args), who)


_TABLE = ("deals", "games", "voids", "power_ups", "house", "overrides")  # tally.py's first meters, its order
_BANK = const(6)  # tally.py: banks laid, broken, the bank's won and lost, from here


def screen(ctrl, who):
    """The supervisor's meters screen on the table display, or its end (asked again).
    ctrl.screen: (the meters view, how many public events the table had made), which
    outgoing.refresh adds to the display's views until the table makes another. The
    meters (tally.held, as METERS answers) are totals of money moved in public events
    (settlements, pools, commissions) and counts: nothing of a hand in play."""
    if ctrl.screen is not None:
        ctrl.screen = None
        return
    j = ctrl.journal
    if j is None or j.meters is None:
        return ctrl.error("supervisor", "%s: no meters at this table" % who)
    from ..meters.tally import SEAT0, TAB0, TILTS, held
    j.flush()
    m = list(held(j.meters, j).m)  # (a copy's array: the view's values are lists)
    unload("meters.tally", "meters.layout")
    view = {}
    for i in range(len(_TABLE)):
        view[_TABLE[i]] = m[i]
    tilts = SEAT0 - len(TILTS)  # tally.py: the tilts by class, after the table's seats
    view["tilts"] = dict((TILTS[i], m[tilts + i]) for i in range(len(TILTS)))
    view["seats"] = [m[SEAT0 + 5 * s:SEAT0 + 5 * s + 5] for s in range(m[tilts - 1] or ctrl.table.SEATS)]
    if any(m[_BANK:_BANK + 4]):  # club: the banks, the tableaux
        view["bank"] = m[_BANK:_BANK + 4]
        view["tableaux"] = [m[TAB0 + 5 * t:TAB0 + 5 * t + 5] for t in range(3)]
    log = ctrl.game.log
    ctrl.screen = (view, ctrl.sent + len(log) - ctrl.shown)
    ctrl.event("supervisor", "meters screen", who)


def void(ctrl, who):
    """The deal in play is void: the journal says so, and by whom ({"k": "v"}: its inputs
    voided, why), and the game is rebuilt from the journal as the deal began, as a board
    resumes after a power loss while dealing (boot.py, replay.py). Cards in flight are set aside."""
    from ..games import find
    from ..games.replay import rebuild
    from ..journal.resume import follow, load
    j = ctrl.journal
    if j is None:
        return ctrl.error("supervisor", "%s: no journal to void a deal in" % who)
    kit = find(j.name)
    if not kit.VOID_TORN_DEAL:  # club: a deal is settled as it is dealt
        return ctrl.error("supervisor", "%s: no deal to void at this table" % who)
    j.flush()
    load(j, False, True)  # the unfinished game, every input of it
    u = j.last
    ins = u["inputs"]
    flags = ctrl.game.EVENTS
    k = 0  # after the input that began the deal in play (0: it began with the game)
    for i in range(len(ins)):
        for e in ins[i][1]:
            if flags.get(e[0], 0) & NEW_DEAL:
                k = i + 1
    if u["done"] or k >= len(ins):
        follow(j, ctrl.game)
        u["inputs"] = None
        unload("games.replay", "journal.resume", "journal.played", "journal.reader", "games.snapshot")
        return ctrl.error("supervisor", "%s: nothing dealt to void" % who)
    why = "voided by the supervisor %s" % who
    j.void(len(ins) - k, why)
    game = kit.Rules(kit.Options.restore(u["options"]))
    if u["state"] is not None:
        game.restore(u["state"])
    rebuild(game, ins[:k], ctrl.keep_log)
    follow(j, game)
    # the state the deal begins from again: a board resumes from the last one (resume.py),
    # and the one before may be of the voided deal's
    j.write({"k": "d", "s": game.state(), "f": list(j.frames.items())})
    u["state"] = u["events"] = u["inputs"] = u["voided"] = None
    unload("games.replay", "journal.resume", "journal.played", "journal.reader", "games.snapshot")
    ctrl.table = kit.Table(game)
    ctrl.game = game
    ctrl.shown = len(game.log)  # the displays are told of the void, not the replay
    game.log.append(("void", -1, why))
    ctrl.awaiting = 0
    ctrl.resuming = ctrl.voided = True  # what the shoe had in flight is not the new deal's
    ctrl.dirty = True
    ctrl.faults.append(why)
    ctrl.event("supervisor", "void", who)
