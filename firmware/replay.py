# The event log is the replay format: from a game's events and its declaration of them
# (EVENTS, rules.py), the actions that replayed on a fresh game reproduce them. For the
# host and audits; the board replays its journaled actions, so it never loads this.
from .rules import BARE, CHANCE, DEALT, FAULT, INPUT, NEW_DEAL


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
