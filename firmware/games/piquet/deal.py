# pyright: reportAttributeAccessIssue=false
# (a mixin of the game's rules, rules.py: the state it reads and writes is declared there)
#
# The piquet cut, deal, carte blanche and exchange (SPEC §4, seed 003:1-56).
from ...cards import is_card, rank
from ..rules import CHANCE, IllegalAction
from ..rules import show as _show
from .events import BLANCHE, CUT, DEAL, EXCHANGE, LOOK, PHASE_NAMES
from .options import HAND
from . import declarations as D


class Dealing:
    def _reset_deal(self):
        self.hands = [[], []]
        self.dealt = [[], []]  # the hands as dealt (before the exchange)
        self.talon = []
        self.discards = [[], []]
        self.set_aside = [(), ()]  # blanche protocol: discards not yet replaced
        self.taken = [0, 0]
        self.looked = [False, False]
        self.rest_seen = [(), ()]  # talon cards a seat looked at
        self.blanche = [False, False]
        self.shown = [False, False]
        self.played = [[], []]
        self.tricks = [0, 0]
        self.points = [0, 0]  # scored in this deal
        self.declared = [[-1, -1, -1], [-1, -1, -1]]  # key; 0 sunk or none; -1 not yet
        # (winner, word, the winner's others declared too); "" not yet
        self.verdicts = [(-1, "", True), (-1, "", True), (-1, "", True)]
        self.covered = [set(), set()]  # cards used in good declarations (carte rouge)
        self.rouge = [False, False]
        self.repique = -1
        self.pique = -1
        self.cards_early = False  # elder's 10 for the cards counted at his 7th trick
        self.cat = 0
        self.led = None
        self.leader = -1
        self.delivered = 0
        self.seen = set()
        self.cut = [None, None]
        self.pending = []
        self.queue = []  # who acts next in the blanche / exchange / look phases

    def _start_cut(self):
        self._reset_deal()
        self.pending = [0, 1]
        self.phase, self.to_act = CUT, CHANCE

    def _new_deal(self, void=False):
        """A deal; `void`: the same dealer deals the void one again."""
        self._reset_deal()
        self.deal_no += 1
        if not void:
            self.in_partie += 1
            self.dealer = 1 - self.dealer
        p, e, d = self.options.packets, self.elder, self.dealer
        for _ in range(HAND // p):
            self.pending.extend([e] * p + [d] * p)
        self.pending.extend([CHANCE] * self.options.talon)  # CHANCE: the talon
        self.phase, self.to_act = DEAL, CHANCE
        self.emit(("deal", self.dealer, self.deal_no))

    def _verify_card(self, c):
        if self.phase not in (CUT, DEAL):
            raise IllegalAction("the shoe delivered %s but no card is due (%s)" %
                                (_show(c), PHASE_NAMES[self.phase]))
        if not is_card(c) or rank(c) < self.options.low_rank:
            raise IllegalAction("the shoe delivered %r, which is not in the %d-card pack" %
                                (_show(c), self.options.pack))

    def _on_card(self, c):
        if c in self.seen and self.phase == DEAL:  # an imperfect pack (as 000:79)
            from . import faults
            faults.apply(self, "duplicate", c)
            return
        to = self.pending.pop(0)
        self.delivered += 1
        self.seen.add(c)
        if self.phase == CUT:
            self.cut[to] = c
            self.emit(("cut", to, c))
            if self.pending:
                return
            a, b = rank(self.cut[0]), rank(self.cut[1])
            if a == b:  # equal cut: cut again from the same pack
                self.pending = [0, 1]
                return
            self.dealer = 1 - (0 if a > b else 1)  # _new_deal flips it: the higher deals
            self._new_deal()
            return
        if to == CHANCE:
            self.talon.append(c)
            self.emit(("talon", CHANCE, c))
        else:
            self.hands[to].append(c)
            self.dealt[to].append(c)
            self.emit(("card", to, c))
        if not self.pending:
            self.queue = [s for s in (self.elder, self.younger) if D.is_carte_blanche(self.hands[s])]
            self._next_blanche()

    # ---- carte blanche and the exchange -------------------------------------------------
    def _next_blanche(self):
        if self.queue:
            self.phase, self.to_act = BLANCHE, self.queue.pop(0)
            return
        self.phase, self.to_act = EXCHANGE, self.elder

    def _verify_exchange(self, seat, cards):
        try:
            cards = tuple(cards)
        except TypeError:
            raise IllegalAction("an exchange is a list of cards, got %r" % (cards,))
        lo, hi = self.exchange_range(seat)
        if not lo <= len(cards) <= hi:
            raise IllegalAction("seat %d must exchange %d to %d cards, not %d (%r)" %
                                (seat, lo, hi, len(cards), cards))
        for c in cards:
            if c not in self.hands[seat]:
                raise IllegalAction("seat %d cannot discard %s: not in hand" % (seat, _show(c)))
        if len(set(cards)) != len(cards):
            raise IllegalAction("seat %d named a card twice in its exchange %r" % (seat, cards))

    def _on_exchange(self, seat, cards):
        for c in cards:
            self.hands[seat].remove(c)
            self.discards[seat].append(c)
        self.taken[seat] = len(cards)
        if self.blanche[self.elder]:
            # seed 003:41-45: elder sets aside, younger sets aside, elder shows, then both draw
            self.set_aside[seat] = cards
            if seat == self.elder:
                self.to_act = self.younger
                return
            self._show(self.elder)
            if self.blanche[self.younger]:
                self._show(self.younger)
            self._draw(self.elder)
            self._draw(self.younger)
            self.queue = [s for s in (self.elder, self.younger) if self._rest(s)]
            self._next_look()
            return
        self._draw(seat)
        self.queue = [seat] if self._rest(seat) else []
        self._next_look()

    def _draw(self, seat):
        start = 0 if seat == self.elder else self.taken[self.elder]
        for c in self.talon[start:start + self.taken[seat]]:
            self.hands[seat].append(c)
            self.emit(("draw", seat, c))

    def _rest(self, seat):
        """The talon cards this seat's part left behind."""
        start = self.taken[self.elder] + self.taken[self.younger]
        if seat == self.elder:  # what younger has not already drawn of elder's part
            return self.talon[start:min(self.options.elder_max, len(self.talon))]
        return self.talon[start:]

    def _next_look(self):
        if self.queue:
            self.phase, self.to_act = LOOK, self.queue.pop(0)
            return
        self._next_exchange()

    def _next_exchange(self):
        if self.phase == LOOK and self.queue:
            self.to_act = self.queue.pop(0)
            return
        if self.taken[self.younger] == 0:
            if self.blanche[self.younger] and not self.shown[self.younger]:
                self._show(self.younger)  # seed 003:47-49: after elder's exchange
            self.phase, self.to_act = EXCHANGE, self.younger
            return
        self.cat = -1
        self._next_category()

    def _show(self, seat):
        self.shown[seat] = True
        self.emit(("show", seat, tuple(self.dealt[seat])))
