# Écarté as a pure state machine (SPEC §4, seeds 000-002), on the template of firmware/games/rules.py.
# The shoe's cards are the chance action ("shoe", CHANCE, card) and its faults the chance
# actions of laws.py; the players' actions are events.py's PLAYER_ACTIONS. By concern:
# the deal and the exchange (deal.py), the play, the king and the score (play.py), the
# variants played inside a hand (questions.py), the laws of irregularities and of
# abandoned or claimed hands (laws.py, loaded on first use), and the money (wagers.py).
from ... import evaluate
from ...compat import const
from ..rules import CHANCE, IllegalAction, Rules
from .deal import Dealing
from .events import (ANSWER, CHOOSE, CUT, DEAL, DISCARD, EVENTS, PHASE_NAMES, PLAY,
                     PLAYER_ACTIONS, PROPOSE, RESPOND, SHOE_FAULTS)
from .options import Options
from .play import Playing
from .questions import Questions
from .wagers import Wagers

_DECK = const(32)
def laws():
    """The laws of irregularities, loaded on the first one: a board that never misdeals
    keeps their bytecode out of its heap."""
    from . import laws
    return laws


class Ecarte(Dealing, Playing, Questions, Rules):
    PHASE_NAMES = PHASE_NAMES
    EVENTS = EVENTS
    CHANCE_ACTIONS = ("shoe",) + SHOE_FAULTS
    PLAYER_ACTIONS = PLAYER_ACTIONS
    TURNS = {PROPOSE: ("propose", "stand"), RESPOND: ("accept", "refuse"), DISCARD: ("discard",),
             PLAY: ("play",), CHOOSE: ("choose",), ANSWER: ("accept", "refuse")}
    FIELDS = ("scores", "games", "rubbers", "seated", "streak", "pools", "game_no",
                "deal_no", "dealer", "hands", "discards", "played", "dead", "tricks",
                "deal_points", "turned", "trump_suit", "delivered", "seen", "proposals",
                "vulnerable", "announced", "led", "leader", "drawing", "law", "choices", "resume",
                "question", "multiplier", "doubled", "offered", "must_vole", "miscount", "pending",
                "phase", "to_act")

    def __init__(self, options=None, first_dealer=None, evaluator=evaluate):
        """first_dealer None: the players cut for the first deal (000:39); a seat: that
        seat deals first. Then the deal alternates."""
        self.options = o = options or Options()
        self.ev = evaluator
        self.strength = evaluate.ACE_HIGH if o.ace_high else evaluate.ECARTE_STRENGTH
        self.hand_size = o.hand
        self.log = []
        self.scores = [0, 0]  # by position: 0 and 1 are the two seats in play
        self.games = [0, 0]  # games won in the current rubber
        self.rubbers = [0, 0]
        self.seated = list(range(o.players))  # table seats at positions 0, 1 (and the watcher)
        self.streak = [-1, 0]  # pool: the seat that won the last game and how many running
        self.pools = [0] * o.players
        self.wagers = Wagers(o.players + o.gallery, o.stake)
        self.game_no = 1
        self.deal_no = 0
        self.dealer = 1 - (first_dealer or 0)  # new_deal alternates it
        self._out = []
        if o.pool:
            self.emit(("seats", CHANCE, tuple(self.seated)))
            self.ante()
        self.emit(("balances", CHANCE, tuple(self.wagers.balances)))
        if first_dealer is None:
            self.start_cut()
        else:
            self.new_deal()
        self.log.extend(self._out)

    # ---- what the state looks like -------------------------------------------------
    @property
    def elder(self):
        return 1 - self.dealer

    @property
    def stock(self):
        """Cards still in the shoe for this deal."""
        return _DECK - self.delivered

    def players(self):
        """The table seats in play, at positions 0 and 1."""
        return (self.seated[0], self.seated[1])

    def legal_cards(self, seat):
        if self.phase != PLAY or seat != self.to_act:
            return []
        return self.ev.legal_plays(self.hands[seat], self.led, self.trump_suit, self.strength)

    def legal_actions(self):
        """Every legal player action now (chance actions are the shoe's; bets the gallery's)."""
        from .legal import legal_actions
        return legal_actions(self)

    def cards_due(self):
        fresh = self.phase in (DEAL, CUT) and self.delivered == 0
        return len(self.pending), _DECK if fresh else 0

    def finished_games(self):
        return self.game_no - 1

    def finished_deals(self):
        return self.deal_no - 1

    def state(self):
        yield from Rules.state(self)
        yield "wagers", self.wagers.snapshot()

    def restore(self, frozen):
        Rules.restore(self, frozen)
        self.wagers.restore(frozen["wagers"])

    # ---- verify ----------------------------------------------------------------------
    def _verify_chance(self, kind, value):
        if kind == "shoe":
            return self.verify_card(value)
        return laws().verify_fault(self, kind, value)

    def _verify_player(self, kind, seat, value):
        if kind == "limits":  # the supervisor's, never a seat's
            from .limits import verify
            return verify(self, seat, value)
        if kind == "bet":
            return self._verify_bet(seat, value)
        if seat not in (0, 1):
            raise IllegalAction("no player seat %r at this table" % (seat,))
        if kind == "king":
            if not self.king_open(seat):
                raise IllegalAction("seat %d cannot announce the king: %s" % (seat, self._king_why(seat)))
            return
        if kind in ("abandon", "claim"):
            if self.phase != PLAY:
                raise IllegalAction("seat %d cannot %s now: hands are abandoned or claimed during "
                                    "the play, and the table is at the %s" % (seat, kind, PHASE_NAMES[self.phase]))
            if value is not None and (kind == "claim" or value != "point"):
                raise IllegalAction("seat %d cannot %s %r: a hand is thrown in (None), the point "
                                    "conceded (\"point\") or claimed (None)" % (seat, kind, value))
            if value and self.tricks[seat] * 2 > self.hand_size:
                raise IllegalAction("seat %d cannot concede the point: it has won it with %d tricks"
                                    % (seat, self.tricks[seat]))
            return
        if kind in ("double", "offer"):
            return self.verify_question(kind, seat)
        self.verify_turn(kind, seat)
        if kind == "discard":
            self._verify_discard(seat, value)
        elif kind == "play":
            self._verify_play(seat, value)
        elif kind == "choose" and value not in self.choices:
            raise IllegalAction("seat %d cannot choose %r: the laws offer %s" % (
                seat, value, ", ".join(self.choices)))

    # ---- change --------------------------------------------------------------------
    def _change(self, kind, seat, value):
        if kind == "shoe":
            self._on_card(value)
        elif kind in SHOE_FAULTS:
            laws().on_fault(self, kind, value)
        elif kind == "choose":
            laws().on_choice(self, seat, value)
        elif kind in ("abandon", "claim"):
            self.emit((kind, seat, value))
            laws().on_abandon(self, seat, kind == "claim", value)
        elif kind in ("double", "offer"):
            self.emit((kind, seat, value))
            self.ask(kind, seat)
        elif kind in ("accept", "refuse") and self.phase == ANSWER:
            self.answer(seat, kind == "accept")
        elif kind == "limits":
            from .limits import change
            change(self, value)
        elif kind == "bet":
            self.wagers.place(seat, value[0], value[1])
            self.emit(("bet", seat, (value[0], value[1])))
        elif kind == "propose":
            self.proposals += 1
            self.emit((kind, seat, value))
            self.to_act, self.phase = self.dealer, RESPOND
        elif kind == "stand":
            if self.proposals == 0:
                self.vulnerable = seat
            self.emit((kind, seat, value))
            self.start_play()
        elif kind == "accept":
            self.emit((kind, seat, value))
            self.to_act, self.phase = self.elder, DISCARD
        elif kind == "refuse":
            if self.proposals == 1:
                self.vulnerable = seat
            self.emit((kind, seat, value))
            self.start_play()
        elif kind == "discard":
            self._on_discard(seat, tuple(value))
        elif kind == "king":
            self.announced[seat] = True
            self.emit((kind, seat, value))
            self.score(seat, 1, "king")
        elif kind == "play":
            self._on_play(seat, value)
