# One pure state machine per game: no I/O, no clock, no randomness inside.
# What they share: the chance player (the shoe) and the error an illegal action raises.
CHANCE = -1


class IllegalAction(ValueError):
    """An action the rules refuse. The message says what was wrong and quotes it."""
