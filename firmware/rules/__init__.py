# One pure state machine per game: no I/O, no clock, no randomness inside.
# What they share: the chance player (the shoe) and the error an illegal action raises.
CHANCE = -1


class IllegalAction(ValueError):
    """An action the rules refuse. The message says what was wrong and quotes it."""


def show(c):
    """A card's name for a message, or the bad value quoted."""
    from ..cards import is_card, name
    return name(c) if is_card(c) else repr(c)


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

    PHASE_NAMES = ()  # each game's phase names, for messages
    phase = 0  # each game sets its own phase, whose turn, and its events being emitted
    to_act = CHANCE
    _out: list

    def verify(self, action):
        raise IllegalAction("no rules to verify %r against" % (action,))

    def _emit(self, event):
        self._out.append(event)

    def _whose_turn(self):
        if self.to_act == CHANCE:
            return "the shoe's turn to deliver a card"
        return "seat %d's turn to %s" % (self.to_act, self.PHASE_NAMES[self.phase])

    def can(self, action):
        try:
            self.verify(action)
            return True
        except IllegalAction:
            return False
