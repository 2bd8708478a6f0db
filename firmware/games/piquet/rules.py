# Piquet as a pure state machine (SPEC §4, seed 003), on the template of rules.py: the
# cut, a partie of 6 deals, the exchange, carte blanche, declarations refereed by the
# terminal, trick play and Rubicon scoring. By concern: the cut, the deal and the
# exchange (deal.py), the declarations (declare.py), the play and the score (play.py).
# The shoe's cards are the chance action ("shoe", CHANCE, card); the players' actions are
# events.py's PLAYER_ACTIONS.
from ... import evaluate
from ..rules import IllegalAction, Rules
from .deal import Dealing
from .declare import Declaring, holding
from .events import (BLANCHE, CATEGORIES, CHANCE_ACTIONS, CUT, DEAL, DECLARE, EVENTS, EXCHANGE, LOOK,
                     PHASE_NAMES, PLAY, PLAYER_ACTIONS)  # noqa: F401  (rules.PLAY...)
from .options import Options
from .play import Playing

class Piquet(Dealing, Declaring, Playing, Rules):
    PHASE_NAMES = PHASE_NAMES
    EVENTS = EVENTS
    CHANCE_ACTIONS = CHANCE_ACTIONS
    PLAYER_ACTIONS = PLAYER_ACTIONS
    TURNS = {BLANCHE: ("blanche",), EXCHANGE: ("exchange",), LOOK: ("look",),
             DECLARE: ("declare", "sink"), PLAY: ("play",)}
    FIELDS = ("cuts", "scores", "partie_no", "deal_no", "finished", "parties", "in_partie",
                "results", "dealer", "hands", "dealt", "talon", "discards", "set_aside", "taken",
                "looked", "rest_seen", "blanche", "shown", "played", "tricks", "points",
                "declared", "verdicts", "covered", "rouge", "repique", "pique", "cards_early",
                "cat", "led", "leader", "delivered", "seen", "cut", "pending", "queue", "phase",
                "to_act")

    def __init__(self, options=None, first_dealer=None, evaluator=evaluate):
        """first_dealer None: each partie begins with the cut; a seat: that seat deals
        first and the deal simply alternates."""
        self.options = options or Options()
        self.ev = evaluator
        self.cuts = first_dealer is None
        self.log = []
        self.scores = [0, 0]  # in the partie
        self.partie_no = 1
        self.deal_no = 0  # deals begun, over all parties
        self.finished = 0  # deals finished
        self.parties = 0  # parties finished
        self.in_partie = 0  # deals begun in this partie
        self.results = []  # [(winner, value, scores)] of the last partie finished
        self.dealer = 1 - first_dealer if first_dealer is not None else 0
        self._out = []
        self._reset_deal()
        if self.cuts:
            self._start_cut()
        else:
            self._new_deal()
        self.log.extend(self._out)

    # ---- what the state looks like -------------------------------------------------
    @property
    def elder(self):
        return 1 - self.dealer

    @property
    def younger(self):
        return self.dealer

    def exchange_range(self, seat):
        """(fewest, most) cards `seat` may exchange now."""
        if seat == self.elder:
            return 1, min(self.options.elder_max, len(self.talon))
        return 1, len(self.talon) - self.taken[self.elder]

    def legal_cards(self, seat):
        if self.phase != PLAY or seat != self.to_act:
            return []
        return self.ev.follow_plays(self.hands[seat], self.led)

    def holding(self, seat, cat):
        return holding(self.hands[seat], cat)

    def legal_actions(self):
        """Every legal player action now (chance actions are the shoe's)."""
        from .legal import legal_actions
        return legal_actions(self)

    def cards_due(self):
        fresh = self.phase in (CUT, DEAL) and self.delivered == 0
        return len(self.pending), self.options.pack if fresh else 0

    def finished_games(self):
        return self.parties

    def finished_deals(self):
        return self.finished

    # ---- verify ----------------------------------------------------------------------
    def _verify_chance(self, kind, value):
        if kind == "shoe":
            return self._verify_card(value)
        from . import faults  # loaded on a fault only
        faults.verify(self, kind, value)

    def _verify_player(self, kind, seat, value):
        if seat not in (0, 1):
            raise IllegalAction("no seat %r at a piquet table" % (seat,))
        self.verify_turn(kind, seat)
        if kind in ("blanche", "look"):
            if value is not True and value is not False:
                raise IllegalAction("%s takes True or False, got %r" % (kind, value))
        elif kind == "exchange":
            self._verify_exchange(seat, value)
        elif kind in ("declare", "sink"):
            if value != CATEGORIES[self.cat]:
                raise IllegalAction("seat %d cannot %s %r: the %s is being declared" %
                                    (seat, kind, value, CATEGORIES[self.cat]))
        elif kind == "play":
            self._verify_play(seat, value)

    # ---- change --------------------------------------------------------------------
    def _change(self, kind, seat, value):
        if kind == "shoe":
            self._on_card(value)
        elif kind in CHANCE_ACTIONS:  # the shoe's faults
            from . import faults
            faults.apply(self, kind, value)
        elif kind == "blanche":
            self.emit((kind, seat, value))
            if value:
                self.blanche[seat] = True
            self._next_blanche()
        elif kind == "exchange":
            self.emit((kind, seat, tuple(value)))
            self._on_exchange(seat, tuple(value))
        elif kind == "look":
            self.emit((kind, seat, value))
            if value:
                self.rest_seen[seat] = tuple(self._rest(seat))
                self.emit(("rest", seat, self.rest_seen[seat]))
            self.looked[seat] = True
            self._next_exchange()
        elif kind in ("declare", "sink"):
            self._on_declare(seat, kind == "declare")
        elif kind == "play":
            self._on_play(seat, value)
