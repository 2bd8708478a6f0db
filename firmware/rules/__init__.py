# One pure state machine per game: no I/O, no clock, no randomness inside.
# What they share: the chance player (the shoe) and the error an illegal action raises.
CHANCE = -1


class IllegalAction(ValueError):
    """An action the rules refuse. The message says what was wrong and quotes it."""


def unpack(action):
    """(kind, seat, value) of an action, or IllegalAction quoting what it was."""
    try:
        kind, seat, value = action
    except (TypeError, ValueError):
        raise IllegalAction("an action is (kind, seat, value), got %r" % (action,))
    return kind, seat, value


class Rules:
    """What every game's state machine shares. A game defines verify(action), which
    raises IllegalAction and changes nothing, and apply(action) -> events."""

    def verify(self, action):
        raise IllegalAction("no rules to verify %r against" % (action,))

    def can(self, action):
        try:
            self.verify(action)
            return True
        except IllegalAction:
            return False
