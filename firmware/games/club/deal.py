# pyright: reportAttributeAccessIssue=false
# (a mixin of the game's rules, rules.py: the state it reads and writes is declared there)
#
# The club écarté deal and its settlement (SPEC §4 "The deal", "Trump duel", seed 004:17):
# four tableaux of four, one card at a time, the banker's first; the 17th card turned for
# trump; the duels; the settlement in tableau order; the talia's end at the cut card.
from ...cards import is_card, name, suit
from ..rules import CHANCE, IllegalAction
from ...compat import const
from .events import BANK, BANKS, DEAL_CARDS, HOUSE, LIMITED, RESPONSIBLE, SHOE, TABLE

_TABLEAUX = const(4)
_COPIES = const(2)  # two 52-card decks: each card twice


class Dealing:
    def _verify_card(self, c):
        if not is_card(c):
            raise IllegalAction("the shoe delivered %r, which is not a card" % (c,))
        if not self.fresh and self.counts[c] >= _COPIES:
            raise IllegalAction("the shoe delivered %s a third time: imperfect shoe" % name(c))

    def _new_talia(self):
        self.fresh, self.cut, self.left = False, False, SHOE
        self.counts = bytearray(64)
        self.talia += 1
        self.emit(("talia", CHANCE, self.talia))

    def _missing(self):
        """The shoe ran empty while the talia should hold cards (a shoe restarted after a
        power cut holds no pack of the talia's): the talia cannot be trusted and is over. As
        an imperfect pack by the laws (seed 000:79), the deal in which it is found is void,
        earlier deals stand: its cards dealt so far are set aside, its stakes stay on the
        cloth, and it is dealt again from a fresh shoe (docs/rules.md, Recovery)."""
        self.emit(("missing", CHANCE, self.left))
        if self.dealt:
            self.emit(("void", CHANCE, "imperfect shoe: it ran empty with %d cards of the deal dealt" % self.dealt))
            self.tableaux = [[], [], [], []]
            self.dealt = 0
        self.fresh = True

    def _on_card(self, c):
        if self.fresh:
            self._new_talia()
        self.counts[c] += 1
        self.left -= 1
        if self.dealt < 16:
            t = self.dealt % _TABLEAUX  # one card at a time, the banker's tableau first
            self.tableaux[t].append(c)
            self.dealt += 1
            self.emit(("card", t, c))
            return
        self.dealt += 1
        self.turned = c
        self.emit(("turn", CHANCE, c))
        self.emit(("tableaux", CHANCE, tuple(tuple(t) for t in self.tableaux)))
        self._settle()

    def _settle(self):
        o = self.options
        trump = suit(self.turned)
        self.results = []
        for t in (1, 2, 3):
            r = self.duel.duel(self.tableaux[0], self.tableaux[t], trump)
            self.results.append(r[0])
            self.emit(("result", t, r))
        order = sorted(range(len(self.stakes)), key=lambda i: (self.stakes[i][1], i))
        stakes = [self.stakes[i] for i in order]
        limited = self.kind == LIMITED
        entries, bank, broken = self.duel.settle(stakes, self.results, self.bank if limited else -1,
                                                 o.commission)
        b = self.banker
        pot = BANKS if limited else b  # where the banker's money is
        short = []
        for seat, tableau, amount, outcome, to_punter, to_bank, to_house in entries:
            back = min(amount, to_punter)
            self._move(seat, TABLE, seat, back)
            if to_bank > 0:
                self._move(seat, TABLE, pot, to_bank)
                self._move(seat, TABLE, HOUSE, to_house)
            elif to_bank < 0:
                self._move(seat, pot, seat, to_punter - back)
                self._move(seat, pot, HOUSE, to_house)
                if -to_bank < amount:  # the bank held less than the win: paid what was left
                    short.append([seat, tableau, -to_bank, amount])
                    self.emit(("short", seat, (tableau, -to_bank, amount)))
            self.emit(("settle", seat, (tableau, amount, outcome, to_punter - amount)))
        if limited and bank != self.bank:
            raise AssertionError("settlement disagrees with the moves: %r != %r" % (bank, self.bank))
        self.bank_deals += 1
        self.deals_done += 1
        self.last = {"deal": self.deal_no, "tableaux": [list(t) for t in self.tableaux],
                     "trump": self.turned, "results": list(self.results),
                     "stakes": [list(s) for s in self.stakes], "short": short,
                     "broken": bool(limited and broken)}
        talia_over = self.cut or self.left < DEAL_CARDS
        if talia_over:
            self.fresh = True
        if limited and broken:
            self.emit(("broken", b, self.lays))
        self.emit(("end", b, (self.deal_no, tuple(self.balances), self.bank, self.house)))
        if limited and broken:
            self.broken = True
            self.phase, self.to_act = BANK, b
        elif talia_over:
            if self.kind == RESPONSIBLE:
                self.resp_talias += 1
                if self.resp_talias >= o.talias:
                    self._next_banker("%d talias" % o.talias)
                    return
            self.phase, self.to_act = BANK, b
        else:
            self.open_deal()
