# The template every game's rules follow (firmware/games/<name>/): a pure state machine,
# no I/O, no clock, no randomness inside. An input is an action tuple (kind, seat, value):
# the shoe's cards and faults are the chance player's (seat CHANCE), the rest the players'.
#
#   verify(action)  raises IllegalAction saying what was wrong, quoting it; changes nothing
#   can(action)     answers
#   apply(action)   verify, then change the state, and return the events it caused: a
#                   tuple of immutable (kind, seat, value) tuples, appended to `log`
#
# Each game declares its event kinds once, in EVENTS: kind -> the flags below. The replay
# (replay.py: inputs(EVENTS, events)), the table display (public), the deal records, the
# renderer and recall derive from that declaration. Its state is the fields named in
# FIELDS (the journal keeps them through snapshot()/restore()).
from ..compat import const

CHANCE = -1  # the chance player: the shoe

# What an event is (a game's EVENTS)
INPUT = const(1)  # a player's action (or the shoe's fault): it replays as itself
BARE = const(2)  # ... replays with the value None (club's "lay" and "cut")
DEALT = const(4)  # a card out of the shoe: replays as ("shoe", CHANCE, card)
FAULT = const(8)  # a shoe fault the laws answer: the cards it carries are not dealt again
NEW_DEAL = const(16)  # a deal begins
CARDS = const(32)  # every int in the value is a card code
HIDDEN = const(64)  # the table display shows it face down: [kind, seat, None]
COUNT = const(128)  # the table display shows only how many: [kind, seat, len(value)]
OFF = const(256)  # never on the table display (the journal keeps it)
LAW = const(512)  # an irregularity or the laws' answer to one
DEAL_END = const(1024)  # a deal is over (its record finished) before the next begins


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
    """What every game's state machine shares. A game defines its declarations (below),
    _verify_chance(kind, value) and _verify_player(kind, seat, value), which raise
    IllegalAction, and _change(kind, seat, value), which emits the events."""

    PHASE_NAMES = ()  # each game's phase names, for messages
    CHANCE_ACTIONS = ("shoe",)  # the shoe's actions
    PLAYER_ACTIONS = ()
    TURNS = {}  # phase -> the player actions it takes from the seat to act
    EVENTS = {}  # kind -> flags
    FIELDS = ()  # the fields that are the state
    phase = 0
    to_act = CHANCE
    log: list
    _out: list

    # ---- verify / can / apply ---------------------------------------------------------
    def verify(self, action):
        kind, seat, value = unpack(action)
        if kind in self.CHANCE_ACTIONS:
            if seat != CHANCE:
                raise IllegalAction("only the shoe delivers cards, not seat %r" % (seat,))
            return self._verify_chance(kind, value)
        if kind not in self.PLAYER_ACTIONS:
            raise IllegalAction("unknown action %r" % (kind,))
        return self._verify_player(kind, seat, value)

    def can(self, action):
        try:
            self.verify(action)
            return True
        except IllegalAction:
            return False

    def apply(self, action):
        self.verify(action)
        self._out = []
        kind, seat, value = action
        self._change(kind, seat, value)
        out = tuple(self._out)
        self.log.extend(out)
        return out

    def _verify_chance(self, kind, value):
        raise IllegalAction("no rules for the shoe's %r" % (kind,))

    def _verify_player(self, kind, seat, value):
        raise IllegalAction("no rules to verify %r against" % (kind,))

    def _change(self, kind, seat, value):
        raise NotImplementedError

    def verify_turn(self, kind, seat):
        """The shared checks: it is this seat's turn, and the phase takes this action
        (a game with TURNS None checks its phases itself)."""
        if seat != self.to_act:
            raise IllegalAction("seat %r cannot %s: it is %s" % (seat, kind, self.whose_turn()))
        if self.TURNS is not None and kind not in self.TURNS.get(self.phase, ()):
            raise IllegalAction("seat %d cannot %s now: the table is at the %s" %
                                (seat, kind, self.PHASE_NAMES[self.phase]))

    def emit(self, event):
        self._out.append(event)

    def whose_turn(self):
        if self.to_act == CHANCE:
            return "the shoe's turn to deliver a card"
        return "seat %d's turn to %s" % (self.to_act, self.PHASE_NAMES[self.phase])

    # ---- what the controller and the journal ask of every game ------------------------
    def cards_due(self):
        """(cards the shoe should deliver now, size of a fresh pack to load first or 0)."""
        raise NotImplementedError

    def finished_games(self):
        """How many games (the journal's unit of recall) this state has finished."""
        raise NotImplementedError

    def snapshot(self):
        """The state as JSON-ready data (the journal keeps it at each game's end)."""
        return dict(self.state())

    def state(self):
        """The state's fields frozen (snapshot.py), one (name, value) at a time: the journal
        writes each as it comes, with no copy of the whole state in the board's heap."""
        from .snapshot import freeze  # only then: the board keeps it out of its heap in play
        for k in self.FIELDS:
            yield k, freeze(getattr(self, k))

    def restore(self, frozen):
        """Put a snapshot back onto a game built with the same options."""
        from .snapshot import restore
        restore(self, frozen, self.FIELDS)
        self.log = []

    # ---- what derives from the declaration ----------------------------------------------
    @classmethod
    def public(cls, event):
        """What the table display may show of an event (None: nothing)."""
        f = cls.EVENTS.get(event[0], 0)
        if f & OFF:
            return None
        if f & HIDDEN:
            return [event[0], event[1], None]
        if f & COUNT:
            return [event[0], event[1], len(event[2])]
        return list(event)


class Options:
    """What every game's options share: FIELDS, the constructor's keyword arguments, are
    the options' whole state (the journal and the board's configuration keep them)."""

    FIELDS = ()

    def snapshot(self):
        from .snapshot import take
        return take(self, self.FIELDS)

    @classmethod
    def restore(cls, frozen):
        """The options a snapshot describes."""
        from .snapshot import thaw
        return cls(**dict((k, thaw(v)) for k, v in frozen.items()))
