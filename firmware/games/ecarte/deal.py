# pyright: reportAttributeAccessIssue=false
# (a mixin of the game's rules, rules.py: the state it reads and writes is declared there)
# The écarté deal and the exchange (SPEC §4 "Dealing", "Proposals"): cards in packets to
# the players, the turn-up, proposals, discards and the draw. Mixed into the rules.
from ...cards import KING, SEVEN, is_card, name, rank, suit
from ..rules import CHANCE, IllegalAction
from ..rules import show as _show
from .events import CUT, DEAL, DISCARD, DRAW, PHASE_NAMES, PROPOSE


class Dealing:
    def start_cut(self):
        """The first deal's cut (000:11, 000:39, 001:8): each player cuts a card from a
        fresh pack; the higher in écarté rank deals; equal cards cut again."""
        self.clear()
        self.pending = [0, 1]
        self.phase, self.to_act = CUT, CHANCE

    def cut_card(self, c):
        """A card cut: the cut stands even from an imperfect pack (000:40)."""
        to = self.pending.pop(0)
        self.delivered += 1
        self.hands[to].append(c)
        self.emit(("cut", to, c))
        if self.pending:
            return
        a, b = self.strength[rank(self.hands[0][-1])], self.strength[rank(self.hands[1][-1])]
        if a == b:  # cut again, from a fresh pack when this one cannot give two more
            if self.stock < 2:
                self.start_cut()
            self.pending = [0, 1]
            return
        self.dealer = 0 if a < b else 1  # new_deal alternates it: the higher card deals
        self.new_deal()

    def new_deal(self, same_dealer=False):
        self.deal_no += 1
        if not same_dealer:
            self.dealer = 1 - self.dealer
        self.clear()
        a, b = self.options.packets
        e, d = self.elder, self.dealer
        # the seats the next cards go to; CHANCE marks the turned trump
        self.pending = [e] * a + [d] * a + [e] * b + [d] * b + [CHANCE]
        self.phase, self.to_act = DEAL, CHANCE
        self.emit(("deal", self.dealer, self.deal_no))

    def clear(self):
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
        self.miscount = False  # a wrong number dealt, corrected: a turned king cannot score

    def verify_card(self, c):
        if self.phase not in (DEAL, DRAW, CUT) or self.to_act != CHANCE:
            raise IllegalAction("the shoe delivered %s but no card is due (%s)" %
                                (_show(c), PHASE_NAMES[self.phase]))
        if not is_card(c) or rank(c) < SEVEN:
            raise IllegalAction("the shoe delivered %r, which is not in the 32-card pack" % (c,))

    def _on_card(self, c):
        if self.phase == CUT:
            self.cut_card(c)
            return
        if c in self.seen:  # an imperfect pack: the deal is void (000:79, 002:4)
            self.emit(("duplicate", CHANCE, c))
            from .laws import void
            void(self, "imperfect pack: %s twice" % name(c))
            return
        self.out_of_shoe(c)
        self.place(c, self.pending.pop(0))

    def out_of_shoe(self, c):
        self.delivered += 1
        if c is not None:
            self.seen.add(c)
        if self.wagers.locked is None:  # a game's first card: the gallery's bets are locked
            self.wagers.lock(self.players())

    def place(self, c, to):
        """Card c, out of the shoe, goes to seat `to`; CHANCE: it is the turn-up."""
        if to == CHANCE:
            self.turn_up(c)
            return
        self.hands[to].append(c)
        self.emit((self.dealt_kind(), to, c))
        self.advance()

    def dealt_kind(self):
        return "card" if self.phase == DEAL else "draw"

    def advance(self):
        """After a card is placed: wait for the next, or go on once the draw is complete
        (a card too many in it: the laws, 000:65, 000:67)."""
        if not self.pending and self.phase == DRAW:
            if len(self.hands[self.drawing]) > self.hand_size:
                from .laws import over_drawn
                over_drawn(self)
                return
            self._after_draw(self.drawing)

    def turn_up(self, c):
        """The trump is turned. A turned king scores for the dealer at once, unless a wrong
        number was dealt and no new deal demanded (000:53, 002:5): a card set aside unread
        or refused and replaced by the next does not cost him his king (SPEC §4)."""
        self.turned, self.trump_suit = c, suit(c)
        self.emit(("turn", CHANCE, c))
        if self.options.quick:
            self.showdown()
            return
        if rank(c) == KING:
            if self.miscount:
                self.emit(("king lost", self.dealer, "a wrong number was dealt (000:53)"))
            elif self.score(self.dealer, 1, "turned king"):
                return
        self._after_exchange()

    # ---- proposals and the exchange -------------------------------------------------
    def _after_exchange(self):
        """Elder's turn to propose again, unless the stock cannot supply a card."""
        if self.stock > 0:
            self.phase, self.to_act = PROPOSE, self.elder
        else:
            self.start_play()

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
        if self.announced[seat] and any(rank(c) == KING and suit(c) == self.trump_suit for c in cards):
            raise IllegalAction("seat %d announced the king of trumps: it stays in its hand" % seat)

    def _on_discard(self, seat, cards):
        for c in cards:
            self.hands[seat].remove(c)
            self.discards[seat].append(c)
        self.emit(("discard", seat, cards))
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
                self.start_play()
        else:
            self._after_exchange()
