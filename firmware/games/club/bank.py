# pyright: reportAttributeAccessIssue=false
# (a mixin of the game's rules, rules.py: the state it reads and writes is declared there)
#
# The club écarté bank's life and the staking (SPEC §4 "Limited bank", "Responsible bank",
# "Rotation and accounting"): every movement of money is a ("move", seat, (from, to,
# amount)) event between accounts: a seat number, BANKS (a limited bank's money), TABLE
# (stakes on the cloth) and HOUSE (the commission).
from ..rules import CHANCE, IllegalAction
from .events import BANK, BANKS, DEAL, HOUSE, LIMITED, RESPONSIBLE, STAKE, SUP, TABLE


class Banking:
    def _move(self, seat, src, dst, amount):
        """Move money between accounts, with its event."""
        if amount == 0:
            return
        for acct, sign in ((src, -1), (dst, 1)):
            if acct == BANKS:
                self.bank += sign * amount
            elif acct == TABLE:
                self.table_money += sign * amount
            elif acct == HOUSE:
                self.house += sign * amount
            else:
                self.balances[acct] += sign * amount
        self.emit(("move", seat, (src, dst, amount)))

    # ---- the bank -----------------------------------------------------------------
    def _lay(self, seat):
        self.lays += 1
        self.kind, self.broken, self.bank_deals = LIMITED, False, 0
        self.emit(("lay", seat, self.lim[0]))
        self._move(seat, seat, BANKS, self.lim[0])
        self.open_deal()

    def _respond(self, seat, fresh):
        self.kind, self.broken, self.bank_deals = RESPONSIBLE, False, 0
        self.resp_talias = 0
        self.emit(("respond", seat, fresh))
        if fresh and not self.fresh:  # a new shoe for the responsible bank (seed 004:35)
            self.fresh = True
        self.open_deal()

    def _next_banker(self, reason=None, to=None):
        """The bank goes to the next seat (or to seat `to`, the supervisor's); what a
        limited bank holds goes home; the supervisor's limits come into force."""
        if reason is not None:
            self.emit(("rotate", self.banker, reason))
        if self.bank:
            self._move(self.banker, BANKS, self.banker, self.bank)
        if self.auth == self.banker:  # an authorisation is for that seat's bank
            self.auth = -1
        self.banker = (self.banker + 1) % self.options.seats if to is None else to
        self.banks_done += 1
        if self.pending is not None:
            self._in_force()
        self.kind, self.lays, self.broken, self.bank_deals = None, 0, False, 0
        self.phase, self.to_act = BANK, self.banker
        self.emit(("banker", self.banker, None))

    # ---- the supervisor's (SPEC §8: no panel makes these) -------------------------------
    def _verify_sup(self, kind, seat, value):
        if seat != SUP:
            raise IllegalAction("seat %r cannot %s: that is the supervisor's" % (seat, kind))
        if not isinstance(value, tuple) or not isinstance(value[0], str) or \
                len(value) != (4 if kind == "limits" else 2):
            raise IllegalAction("the supervisor's %s takes (who, ...), got %r" % (kind, value))
        for v in value[1:]:
            if not isinstance(v, int) or isinstance(v, bool):
                raise IllegalAction("the supervisor's %s: %r is not a whole number" % (kind, v))
        if kind == "limits":  # checked as the configuration is: by the game's Options
            o = self.options.snapshot()
            o["bank"], o["minimums"] = value[1], [value[2], value[3]]
            try:
                self.options.restore(o)
            except ValueError as e:
                raise IllegalAction("the supervisor's limits are refused: %s" % e)
            return
        if not 0 <= value[1] < self.options.seats:
            raise IllegalAction("the supervisor's %s: no seat %r" % (kind, value[1]))
        if kind == "authorise":
            if not self.options.supervised:
                raise IllegalAction("a responsible bank needs no authorisation at this table")
        elif self.phase != BANK or value[1] == self.banker:  # give
            raise IllegalAction("the bank is given at a banker's decision, to another seat")

    def _supervise(self, kind, value):
        self.emit((kind, SUP, value))
        if kind == "limits":
            self.pending = list(value[1:])
            if self.phase == BANK and self.kind is None and self.lays == 0:
                self._in_force()  # no bank laid yet: this one is the next
        elif kind == "authorise":
            self.auth = value[1]
        else:  # give: the bank out of rotation, as if passed to that seat
            self._next_banker(None, value[1])

    def _in_force(self):
        lim = self.pending
        if lim is not None:
            self.lim, self.pending = lim, None
            self.emit(("in_force", SUP, tuple(lim)))

    # ---- staking ------------------------------------------------------------------
    def open_deal(self):
        self.deal_no += 1
        self.stakes = []
        self.tableaux = [[], [], [], []]
        self.turned = None
        self.results = []
        self.dealt = 0
        self.emit(("deal", self.banker, self.deal_no))
        self.order = self.punters()
        self.phase = STAKE
        self._next_punter(first=True)

    def _next_punter(self, first=False):
        if not first:
            self.order.pop(0)
        if self.order:
            self.to_act = self.order[0]
        else:
            self.phase, self.to_act = DEAL, CHANCE

    def _stake(self, seat, value):
        tableau, amount = value
        self.stakes.append((seat, tableau, amount))
        self.emit(("stake", seat, (tableau, amount)))
        self._move(seat, seat, TABLE, amount)
        self._next_punter()

    def _why_range(self, seat, lo, hi):
        if hi <= 0:
            return "nothing left to cover" if self.balances[seat] else "it has no money"
        if lo > 0:
            return "the minimum on the bank's first card"
        if self.kind == LIMITED and hi == self.bank:
            return "a stake is at most the bank as laid"
        return "its balance and what the bank can answer"
