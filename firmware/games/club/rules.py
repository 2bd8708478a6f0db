# Club (banking) écarté as a pure state machine (SPEC §4, seed 004, seed 001:19), on the
# template of rules.py. Seats 0..n-1 (n <= 8): one holds the bank, the others punt. Each
# deal: the banker's decisions when one is due (BANK), then the punters from the banker's
# left stake on a punter tableau or sit the deal out (STAKE), then the shoe deals four
# tableaux of four and turns the 17th card for trump (DEAL); the deal settles at once, in
# tableau order. By concern: the bank's life and the staking (bank.py), the deal and its
# settlement (deal.py); the actions are in events.py.
from ..rules import CHANCE, IllegalAction, Rules
from ..rules import show as _show
from . import duel as D
from .bank import Banking
from .deal import Dealing
from .events import (BANK, BANKER_ACTIONS, DEAL, DEAL_CARDS, EVENTS, LIMITED, PHASE_NAMES,
                     PUNTER_ACTIONS, SHOE, STAKE, SUP_ACTIONS)
from .options import Options


class Club(Banking, Dealing, Rules):
    PHASE_NAMES = PHASE_NAMES
    EVENTS = EVENTS
    CHANCE_ACTIONS = ("shoe", "cut", "missing")
    PLAYER_ACTIONS = BANKER_ACTIONS + PUNTER_ACTIONS + SUP_ACTIONS
    TURNS = None  # the banker's and the punters' phases are checked below
    FIELDS = ("balances", "house", "table_money", "banker", "kind", "bank", "lays", "broken",
                "bank_deals", "resp_talias", "deal_no", "deals_done", "banks_done", "talia",
                "fresh", "left", "cut", "counts", "tableaux", "dealt", "turned", "results",
                "stakes", "order", "last", "phase", "to_act", "lim", "pending", "auth")

    def __init__(self, options=None, duel=D):
        self.options = o = options or Options()
        self.duel = duel
        self.log = []
        self._out = []
        self.balances = [o.balance] * o.seats
        self.house = 0
        self.table_money = 0  # stakes on the cloth during a deal
        self.banker = o.first_banker
        self.kind = None  # LIMITED, RESPONSIBLE, or None while the banker decides
        self.bank = 0  # what a limited bank holds
        self.lays = 0  # limited banks laid by this banker (at most 2)
        self.broken = False
        self.bank_deals = 0  # deals since the bank was laid (minimums on the first)
        self.resp_talias = 0  # talias finished under a responsible bank
        self.deal_no = 0
        self.deals_done = 0
        self.banks_done = 0  # banks that passed on
        self.talia = 0
        self.fresh = True  # the next card comes from a freshly shuffled shoe
        self.left = SHOE
        self.cut = False
        self.counts = bytearray(64)
        self.tableaux = [[], [], [], []]
        self.dealt = 0
        self.turned = None
        self.results = []
        self.stakes = []  # (seat, tableau, amount) in staking order
        self.order = []  # punters still to stake, in order
        self.last = None  # the last settled deal, for the displays
        self.phase, self.to_act = BANK, self.banker
        # the limits in force: the limited bank's size, the first and second punters'
        # minimums (the configuration's, until the supervisor sets others: bank.py)
        self.lim = [o.bank, o.minimums[0], o.minimums[1]]
        self.pending = None  # the supervisor's limits, from the next bank
        self.auth = -1  # the seat the supervisor authorised to hold a responsible bank
        self.emit(("banker", self.banker, None))
        self.log.extend(self._out)

    # ---- what the state looks like ------------------------------------------------
    def punters(self):
        """The punters in order from the banker's left."""
        n = self.options.seats
        return [(self.banker + i) % n for i in range(1, n)]

    def choices(self):
        """The banker's legal decisions now (BANK phase), in display order."""
        if self.phase != BANK:
            return []
        bal, size = self.balances[self.banker], self.lim[0]
        # supervised: a responsible bank only with the supervisor's leave for this banker
        resp = bal > 0 and (not self.options.supervised or self.auth == self.banker)
        if self.kind is None:  # a new bank
            out = []
            if self.lays == 0 and bal >= size:
                out.append("lay")
            if self.lays == 0 and resp:
                out.append("respond")
            out.append("pass")
            return out
        if self.kind == LIMITED and self.broken:
            if self.lays == 1:  # laid a second time, without reshuffling (seed 004:33)
                return ["lay", "pass"] if bal >= size else ["pass"]
            return ["respond", "pass"] if resp else ["pass"]
        return ["hold", "pass"]  # a talia ended and the bank stands

    def total(self):
        """All the money at the table: conserved by every action."""
        return sum(self.balances) + self.bank + self.table_money + self.house

    def stake_range(self, seat):
        """(least, most) the punter to act may stake now; least 0 means he may skip."""
        if self.phase != STAKE or seat != self.to_act:
            return 0, 0
        bal = self.balances[seat]
        if self.kind == LIMITED:
            most = min(bal, self.bank)
        else:  # the responsible banker answers every stake: with what he has
            most = min(bal, self.balances[self.banker] - sum(s[2] for s in self.stakes))
        least = 0
        pos = self.punters().index(seat)
        if self.kind == LIMITED and self.bank_deals == 0 and pos < 2:
            least = min(self.lim[1 + pos], most)
        return least, max(most, 0)

    def legal_actions(self):
        """Every legal player action now (the shoe's are chance)."""
        from .legal import legal_actions
        return legal_actions(self)

    # ---- verify / change -------------------------------------------------------------
    def finished_games(self):
        """A club game is one bank: it ends when the bank passes on."""
        return self.banks_done

    def finished_deals(self):
        return self.deals_done

    def _verify_chance(self, kind, value):
        if self.phase != DEAL:
            raise IllegalAction("the shoe gave %s but no card is due (%s)" % (
                _show(value) if kind == "shoe" else "the cut card" if kind == "cut" else "an empty shoe",
                PHASE_NAMES[self.phase]))
        if kind == "shoe":
            self._verify_card(value)
        elif kind == "missing":
            if self.fresh:
                raise IllegalAction("the shoe ran empty before a fresh shoe was loaded")
        elif self.cut and not self.fresh:
            raise IllegalAction("the cut card came out twice in one talia")

    def _verify_player(self, kind, seat, value):
        if kind in SUP_ACTIONS:  # the supervisor's, never a seat's (bank.py)
            return self._verify_sup(kind, seat, value)
        self.verify_turn(kind, seat)
        if kind in BANKER_ACTIONS:
            if self.phase != BANK or kind not in self.choices():
                raise IllegalAction("the banker (seat %d) cannot %s now; he may: %s" % (
                    seat, kind, ", ".join(self.choices()) or "nothing"))
            if kind == "respond" and value not in (True, False):
                raise IllegalAction("respond takes True (a fresh shoe) or False, got %r" % (value,))
            return
        if self.phase != STAKE:
            raise IllegalAction("seat %d cannot %s: the table is at the %s" % (seat, kind, PHASE_NAMES[self.phase]))
        lo, hi = self.stake_range(seat)
        if kind == "skip":
            if lo > 0:
                raise IllegalAction("seat %d must stake at least %d on the bank's first card" % (seat, lo))
            return
        try:
            tableau, amount = value
        except (TypeError, ValueError):
            raise IllegalAction("a stake is (tableau, amount), got %r" % (value,))
        if tableau not in (1, 2, 3):
            raise IllegalAction("seat %d cannot stake on tableau %r: the punters' tableaux are 1, 2, 3" % (seat, tableau))
        if not isinstance(amount, int) or amount < 1:
            raise IllegalAction("a stake is a whole amount of at least 1, got %r" % (amount,))
        if not max(lo, 1) <= amount <= hi:
            raise IllegalAction("seat %d may stake %d to %d now, not %d (%s)" % (
                seat, max(lo, 1), hi, amount, self._why_range(seat, lo, hi)))

    def _change(self, kind, seat, value):
        if kind == "shoe":
            self._on_card(value)
        elif kind == "cut":
            if self.fresh:
                self._new_talia()
            self.cut = True
            self.emit(("cut", CHANCE, self.left))
        elif kind == "missing":
            self._missing()
        elif kind == "lay":
            self._lay(seat)
        elif kind == "respond":
            self._respond(seat, value)
        elif kind == "hold":
            self.emit(("hold", seat, None))
            self.open_deal()
        elif kind == "pass":
            self.emit(("pass", seat, None))
            self._next_banker()
        elif kind == "stake":
            self._stake(seat, tuple(value))
        elif kind == "skip":
            self.emit(("skip", seat, None))
            self._next_punter()
        else:
            self._supervise(kind, value)

    def cards_due(self):
        """(cards the shoe should deliver now, 104 if a fresh shoe is to be loaded first)."""
        if self.phase != DEAL:
            return 0, 0
        return DEAL_CARDS - self.dealt, SHOE if self.fresh and self.dealt == 0 else 0

    # ---- helpers ------------------------------------------------------------------
    def whose_turn(self):
        if self.to_act == CHANCE:
            return "the shoe's turn to deal"
        if self.phase == BANK:
            return "the banker's (seat %d) decision" % self.to_act
        return "seat %d's turn to stake" % self.to_act
