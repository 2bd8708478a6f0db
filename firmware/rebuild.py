# A game rebuilt from its journaled inputs: each applied to the game in turn and checked
# against the events journaled with it. Below both of its users: boot.py at a resume and
# supervise.py at a VOID, each loading it for that moment and unloading it after.
from .store import JournalError


def replay(game, inputs, keep_log=True):
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
