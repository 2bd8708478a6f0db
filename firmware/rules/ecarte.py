# Écarté as a pure state machine (SPEC §4, seeds 000-002).
#
# Every input is an action tuple (kind, seat, value): the shoe's cards are the chance
# action ("shoe", CHANCE, card) and its faults the chance actions of ecarte_laws; the
# players' are the panel actions below. `verify` raises IllegalAction and changes
# nothing, `can` answers, `apply` changes the state and returns the events it caused as
# a tuple of immutable (kind, seat, value) tuples. The event log is the replay format:
# `inputs(events)` gives back the actions.
#
# The laws of irregularities (a table's shoe can misdeal) live in ecarte_laws.py, the
# variants played during a hand (doubling, offering the point, the quick game) in
# ecarte_variants.py, the money in firmware/wagers.py.
from .. import evaluate
from ..cards import KING, SEVEN, name, rank, suit, is_card
from ..compat import const
from . import CHANCE, IllegalAction, Rules, unpack
from . import show as _show
from . import ecarte_variants as V
from .ecarte_phases import (DEAL, PROPOSE, RESPOND, DISCARD, DRAW, PLAY, CHOOSE,
                                          ANSWER, PHASE_NAMES, SHOE_FAULTS)
from . import ecarte_scoring as S
from .ecarte_options import Options  # noqa: F401  (R.Options)
from ..wagers import Wagers

# Player actions; the events add: card, turn, draw, extra, trick, score, deal, game,
# rubber, pool, seats, pay, void, duplicate, choices, retake, king lost, claimed, showdown.
PLAYER_ACTIONS = ("propose", "stand", "accept", "refuse", "discard", "king", "play",
                  "choose", "abandon", "claim", "double", "offer", "bet")


def _laws():
    """The laws of irregularities, loaded on the first one: a board that never misdeals
    keeps their bytecode out of its heap."""
    from . import ecarte_laws
    return ecarte_laws
_DEALT = ("card", "turn", "draw", "duplicate")

DECK_SIZE = const(32)
HAND = const(5)


def inputs(events):
    """The actions that replayed on a fresh Ecarte reproduce `events`."""
    out = []
    covered = []  # cards a shoe fault already delivered: their placement is not an input
    for e in events:
        kind = e[0]
        if kind == "deal":
            covered = []
        elif kind in SHOE_FAULTS:
            out.append(e)
            v = e[2]
            covered.extend(v if isinstance(v, tuple) else (v,))
        elif kind in _DEALT:
            if e[2] in covered:
                covered.remove(e[2])
            else:
                out.append(("shoe", CHANCE, e[2]))
        elif kind in PLAYER_ACTIONS:
            out.append(e)
    return out


class Ecarte(Rules):
    PHASE_NAMES = PHASE_NAMES
    def __init__(self, options=None, first_dealer=0, evaluator=evaluate):
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
        self.wagers.lock(self.players())
        self.game_no = 1
        self.deal_no = 0
        self.dealer = 1 - first_dealer  # _new_deal alternates it
        self._out = []
        if o.pool:
            self._emit(("seats", CHANCE, tuple(self.seated)))
        self._emit(("balances", CHANCE, tuple(self.wagers.balances)))
        self._new_deal()
        self.log.extend(self._out)

    # ---- what the state looks like -------------------------------------------------
    @property
    def elder(self):
        return 1 - self.dealer

    @property
    def stock(self):
        """Cards still in the shoe for this deal."""
        return DECK_SIZE - self.delivered

    def players(self):
        """The table seats in play, at positions 0 and 1."""
        return (self.seated[0], self.seated[1])

    def holds_king(self, seat):
        return self.trump_suit is not None and \
            any(rank(c) == KING and suit(c) == self.trump_suit for c in self.hands[seat])

    def legal_cards(self, seat):
        if self.phase != PLAY or seat != self.to_act:
            return []
        return self.ev.legal_plays(self.hands[seat], self.led, self.trump_suit, self.strength)

    def legal_actions(self):
        """Every legal player action now (chance actions are the shoe's; bets the gallery's)."""
        acts = []
        s = self.to_act
        if self.phase == PROPOSE:
            acts = [("propose", s, None), ("stand", s, None)]
        elif self.phase in (RESPOND, ANSWER):
            acts = [("accept", s, None), ("refuse", s, None)]
        elif self.phase == CHOOSE:
            acts = [("choose", s, c) for c in self.choices]
        elif self.phase == DISCARD:
            lo, hi = self.discard_range(s)
            hand = self.hands[s]
            for mask in range(1 << len(hand)):
                pick = tuple(hand[i] for i in range(len(hand)) if mask >> i & 1)
                if lo <= len(pick) <= hi:
                    acts.append(("discard", s, pick))
        elif self.phase == PLAY:
            acts = [("play", s, c) for c in self.legal_cards(s)]  # type: list
            for seat in (0, 1):
                for kind in ("abandon", "claim", "double", "offer"):
                    if self.can((kind, seat, None)):
                        acts.append((kind, seat, None))
        return acts + [("king", seat, None) for seat in (0, 1) if self._king_open(seat)]

    # ---- verify / can / apply ------------------------------------------------------
    def finished_games(self):
        """How many games (the journal's unit of recall) this state has finished."""
        return self.game_no - 1

    def verify(self, action):
        kind, seat, value = unpack(action)
        if kind == "shoe" or kind in SHOE_FAULTS:
            if seat != CHANCE:
                raise IllegalAction("only the shoe delivers cards, not seat %r" % (seat,))
            if kind == "shoe":
                return self._verify_card(value)
            return _laws().verify_fault(self, kind, value)
        if kind == "bet":
            return self._verify_bet(seat, value)
        if kind not in PLAYER_ACTIONS:
            raise IllegalAction("unknown action %r" % (kind,))
        if seat not in (0, 1):
            raise IllegalAction("no player seat %r at this table" % (seat,))
        if kind == "king":
            if not self._king_open(seat):
                raise IllegalAction("seat %d cannot announce the king: %s" % (seat, self._king_why(seat)))
            return
        if kind in ("abandon", "claim"):
            if self.phase != PLAY:
                raise IllegalAction("seat %d cannot %s now: hands are abandoned or claimed during "
                                    "the play, and the table is at the %s" % (seat, kind, PHASE_NAMES[self.phase]))
            return
        if kind in ("double", "offer"):
            return V.verify_question(self, kind, seat)
        if seat != self.to_act:
            raise IllegalAction("seat %r cannot %s: it is %s" % (seat, kind, self._whose_turn()))
        want = {PROPOSE: ("propose", "stand"), RESPOND: ("accept", "refuse"),
                DISCARD: ("discard",), PLAY: ("play",), CHOOSE: ("choose",),
                ANSWER: ("accept", "refuse")}.get(self.phase, ())
        if kind not in want:
            raise IllegalAction("seat %d cannot %s now: the table is at the %s" %
                                (seat, kind, PHASE_NAMES[self.phase]))
        if kind == "discard":
            self._verify_discard(seat, value)
        elif kind == "play":
            self._verify_play(seat, value)
        elif kind == "choose" and value not in self.choices:
            raise IllegalAction("seat %d cannot choose %r: the laws offer %s" % (
                seat, value, ", ".join(self.choices)))

    def apply(self, action):
        self.verify(action)
        kind, seat, value = action
        self._out = []
        if kind == "shoe":
            self._on_card(value)
        elif kind in SHOE_FAULTS:
            _laws().on_fault(self, kind, value)
        elif kind == "choose":
            _laws().on_choice(self, seat, value)
        elif kind in ("abandon", "claim"):
            self._emit(action)
            _laws().on_abandon(self, seat, kind == "claim")
        elif kind in ("double", "offer"):
            self._emit(action)
            V.ask(self, kind, seat)
        elif kind in ("accept", "refuse") and self.phase == ANSWER:
            V.answer(self, seat, kind == "accept")
        elif kind == "bet":
            self.wagers.place(seat, value[0], value[1])
            self._emit(("bet", seat, (value[0], value[1])))
        elif kind == "propose":
            self.proposals += 1
            self._emit(action)
            self.to_act, self.phase = self.dealer, RESPOND
        elif kind == "stand":
            if self.proposals == 0:
                self.vulnerable = seat
            self._emit(action)
            self._start_play()
        elif kind == "accept":
            self._emit(action)
            self.to_act, self.phase = self.elder, DISCARD
        elif kind == "refuse":
            if self.proposals == 1:
                self.vulnerable = seat
            self._emit(action)
            self._start_play()
        elif kind == "discard":
            self._on_discard(seat, tuple(value))
        elif kind == "king":
            self.announced[seat] = True
            self._emit(action)
            self._score(seat, 1, "king")
        elif kind == "play":
            self._on_play(seat, value)
        out = tuple(self._out)
        self.log.extend(out)
        return out

    # ---- the deal ------------------------------------------------------------------
    def _new_deal(self, same_dealer=False):
        self.deal_no += 1
        if not same_dealer:
            self.dealer = 1 - self.dealer
        self.hands = [[], []]
        self.discards = [[], []]
        self.played = [[], []]  # cards each seat has played to tricks
        self.dead = []  # cards out of the shoe set aside by the laws (None: not read)
        self.tricks = [0, 0]
        self.deal_points = [0, 0]  # points scored in this deal (a void deal takes them back)
        self.turned = None
        self.trump_suit = None
        self.delivered = 0
        self.seen = set()  # every card the shoe delivered this deal
        self.proposals = 0
        self.vulnerable = -1
        self.announced = [False, False]
        self.led = None
        self.leader = self.elder
        self.drawing = -1  # the seat whose discards the shoe is replacing
        self.law, self.choices, self.resume = None, (), None  # an irregularity to settle
        self.question = None  # ("double" | "offer", asking seat) awaiting its answer
        self.multiplier, self.doubled, self.offered, self.must_vole = 1, False, False, -1
        a, b = self.options.packets
        e, d = self.elder, self.dealer
        # the seats the next cards go to; CHANCE marks the turned trump
        self.pending = [e] * a + [d] * a + [e] * b + [d] * b + [CHANCE]
        self.phase, self.to_act = DEAL, CHANCE
        self._emit(("deal", self.dealer, self.deal_no))

    def _verify_card(self, c):
        if self.phase not in (DEAL, DRAW) or self.to_act != CHANCE:
            raise IllegalAction("the shoe delivered %s but no card is due (%s)" %
                                (_show(c), PHASE_NAMES[self.phase]))
        if not is_card(c) or rank(c) < SEVEN:
            raise IllegalAction("the shoe delivered %r, which is not in the 32-card pack" % (c,))

    def _on_card(self, c):
        if c in self.seen:  # an imperfect pack: the deal is void (000:79, 002:4)
            self._emit(("duplicate", CHANCE, c))
            _laws().void(self, "imperfect pack: %s twice" % name(c))
            return
        self._out_of_shoe(c)
        self._place(c, self.pending.pop(0))

    def _out_of_shoe(self, c):
        self.delivered += 1
        if c is not None:
            self.seen.add(c)

    def _place(self, c, to):
        """Card c, out of the shoe, goes to seat `to`; CHANCE: it is the turn-up."""
        if to == CHANCE:
            self._turn(c, self.delivered == 2 * self.hand_size + 1)
            return
        self.hands[to].append(c)
        self._emit((self._dealt_kind(), to, c))
        self._next()

    def _dealt_kind(self):
        return "card" if self.phase == DEAL else "draw"

    def _next(self):
        """After a card is placed: wait for the next, or go on once the draw is complete."""
        if not self.pending and self.phase == DRAW:
            self._after_draw(self.drawing)

    def _turn(self, c, eleventh):
        """The trump is turned. A turned king scores only as the eleventh card (002:5, 002:33)."""
        self.turned, self.trump_suit = c, suit(c)
        self._emit(("turn", CHANCE, c))
        if self.options.quick:
            V.showdown(self)
            return
        if rank(c) == KING:
            if not eleventh:
                self._emit(("king lost", self.dealer, "the turned king was not the eleventh card"))
            elif self._score(self.dealer, 1, "turned king"):
                return
        self._after_exchange()

    # ---- proposals and the exchange -------------------------------------------------
    def _after_exchange(self):
        """Elder's turn to propose again, unless the stock cannot supply a card."""
        if self.stock > 0:
            self.phase, self.to_act = PROPOSE, self.elder
        else:
            self._start_play()

    def discard_range(self, seat):
        hi = min(self.hand_size, self.stock)
        if seat == self.elder:
            return 1, hi
        lo = 1 if self.options.dealer_must_exchange and hi > 0 else 0
        return lo, hi

    def _verify_discard(self, seat, cards):
        try:
            cards = tuple(cards)
        except TypeError:
            raise IllegalAction("a discard is a list of cards, got %r" % (cards,))
        lo, hi = self.discard_range(seat)
        if not lo <= len(cards) <= hi:
            raise IllegalAction("seat %d must discard %d to %d cards, not %d" % (seat, lo, hi, len(cards)))
        for c in cards:
            if c not in self.hands[seat]:
                raise IllegalAction("seat %d cannot discard %s: not in hand" % (seat, _show(c)))
        if len(set(cards)) != len(cards):
            raise IllegalAction("seat %d named a card twice in its discard %r" % (seat, cards))

    def _on_discard(self, seat, cards):
        for c in cards:
            self.hands[seat].remove(c)
            self.discards[seat].append(c)
        self._emit(("discard", seat, cards))
        if cards:
            self.pending = [seat] * len(cards)
            self.drawing = seat
            self.phase, self.to_act = DRAW, CHANCE
        else:
            self._after_draw(seat)

    def _after_draw(self, seat):
        if seat == self.elder:
            self.to_act, self.phase = self.dealer, DISCARD
            if self.discard_range(self.dealer)[1] == 0:  # stock exhausted: dealer must play
                self._start_play()
        else:
            self._after_exchange()

    # ---- the king -------------------------------------------------------------------
    def _king_why(self, seat):
        if self.phase != PLAY:
            return "the king is announced once the exchange is over"
        if self.announced[seat]:
            return "already announced"
        if not self.holds_king(seat) and not self._led_king(seat):
            return "it does not hold the king of trumps"
        return "its first card is already played"

    def _led_king(self, seat):
        """Elder may announce a king he led first, until it is answered."""
        p = self.played[seat]
        return len(p) == 1 and self.led == p[0] and rank(p[0]) == KING and \
            suit(p[0]) == self.trump_suit and seat == self.elder and sum(self.tricks) == 0

    def _king_open(self, seat):
        if self.phase != PLAY or self.announced[seat]:
            return False
        if not self.played[seat]:
            return self.holds_king(seat)
        return self._led_king(seat)

    # ---- play -------------------------------------------------------------------------
    def _start_play(self):
        self.phase, self.to_act, self.leader, self.led = PLAY, self.elder, self.elder, None

    def _verify_play(self, seat, c):
        if c not in self.hands[seat]:
            raise IllegalAction("seat %d cannot play %s: not in its hand" % (seat, _show(c)))
        legal = self.legal_cards(seat)
        if c not in legal:
            raise IllegalAction("seat %d cannot play %s: %s (legal: %s)" % (
                seat, name(c), self._play_rule(seat), " ".join(name(x) for x in legal)))

    def _play_rule(self, seat):
        if any(suit(x) == suit(self.led) for x in self.hands[seat]):
            return "it must follow suit and win the trick if able"
        return "it is void in the suit led and must trump"

    def _on_play(self, seat, c):
        self.hands[seat].remove(c)
        self.played[seat].append(c)
        self._emit(("play", seat, c))
        if self.led is None:
            self.led, self.to_act = c, 1 - seat
            return
        winner = seat if self.ev.trick_winner(self.led, c, self.trump_suit, self.strength) else 1 - seat
        self.tricks[winner] += 1
        self._emit(("trick", winner, sum(self.tricks)))
        self.led, self.leader, self.to_act = None, winner, winner
        if sum(self.tricks) == self.hand_size:
            self._end_hand(*V.hand_points(self, self.tricks))

    # ---- scoring ------------------------------------------------------------------------
    def _end_hand(self, seat, points, reason):
        if not self._score(seat, points, reason):
            self._new_deal()

    def _score(self, seat, points, reason):
        """Add points; return True if that ended the game (and so the deal)."""
        return S.score(self, seat, points, reason)

    # ---- bets -------------------------------------------------------------------------
    def _verify_bet(self, seat, value):
        try:
            side, amount = value
        except (TypeError, ValueError):
            raise IllegalAction("a bet is (side, amount), got %r" % (value,))
        why = self.wagers.bet_error(seat, side, amount, self.players())
        if why:
            raise IllegalAction("seat %r cannot bet %r: %s" % (seat, value, why))
