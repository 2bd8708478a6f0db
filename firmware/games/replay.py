# The replay, both ways. The event log is the replay format: from a game's events and its
# declaration of them (EVENTS, rules.py), the actions that replayed on a fresh game
# reproduce them (inputs: the host and audits). And a game rebuilt from its journaled
# inputs (rebuild), each applied in turn and checked against the events journaled with it:
# the board's, below both of its users, boot.py at a resume and commands.py at a VOID,
# each loading it for that moment and unloading it after.
from .rules import BARE, CHANCE, DEALT, FAULT, INPUT, NEW_DEAL
from ..journal.store import JournalError


def inputs(declared, events):
    out = []
    covered = []  # cards a shoe fault already delivered: their placement is no input
    for e in events:
        f = declared.get(e[0], 0)
        if f & NEW_DEAL:
            covered = []
        if f & FAULT:
            out.append(e)
            v = e[2]
            covered.extend(v if isinstance(v, tuple) else (v,))
        elif f & DEALT:
            if e[2] in covered:
                covered.remove(e[2])
            else:
                out.append(("shoe", CHANCE, e[2]))
        elif f & INPUT:
            out.append((e[0], e[1], None) if f & BARE else e)
    return out


def rebuild(game, inputs, keep_log=True):
    """Apply journaled inputs to `game`; each must give the events journaled with it.
    keep_log=False (a board): the log keeps only its last events as it goes (the table
    display is shown the last 8 at a resume), not one long list in a fragmented heap."""
    for i, (action, events, _f) in enumerate(inputs):
        got = tuple(game.apply(action))
        if got != tuple(events):
            raise JournalError("the journal does not replay: input %d %r gave %r, journaled %r"
                               % (i, action, got, tuple(events)))
        if not keep_log and len(game.log) > 32:
            del game.log[:-16]
