# Club (banking) écarté as a pure state machine (SPEC §4, seed 004, seed 001:19).
#
# Seats 0..n-1 (n <= 8): one holds the bank, the others punt. Each deal: the banker's
# decisions when one is due (BANK), then the punters from the banker's left stake on a
# punter tableau or sit the deal out (STAKE), then the shoe deals four tableaux of four
# and turns the 17th card for trump (DEAL); the deal settles at once, in tableau order.
#
# Inputs are action tuples (kind, seat, value), as in firmware/rules/ecarte.py:
#   banker:  ("lay", s, None)      lay a limited bank of the configured size
#            ("respond", s, fresh) hold a responsible bank; fresh=True asks for a new shoe
#            ("hold", s, None)     keep the bank into the next talia
#            ("pass", s, None)     give the bank up: it goes to the next seat
#   punter:  ("stake", s, (tableau, amount)) tableau 1..3 (the punters' tableaux)
#            ("skip", s, None)     no stake this deal
#   shoe:    ("shoe", CHANCE, card), ("cut", CHANCE, None) when the cut card comes out
# `verify` raises IllegalAction and changes nothing; `can` answers; `apply` returns the
# events as immutable tuples and appends them to `self.log`. Every movement of money is
# a ("move", seat, (from, to, amount)) event between accounts: a seat number, "bank" (a
# limited bank's money), "table" (stakes on the cloth) and "house" (the commission).
from .. import duel as D
from ..cards import is_card, name, suit
from ..compat import const
from . import CHANCE, IllegalAction, Rules, unpack
from . import show as _show

# Phases
BANK = const(0)  # the banker decides (see `choices`)
STAKE = const(1)  # the punter to act stakes or skips
DEAL = const(2)  # the shoe delivers the deal

PHASE_NAMES = ("bank", "stake", "deal")
LIMITED = "limited"
RESPONSIBLE = "responsible"

BANKER_ACTIONS = ("lay", "respond", "hold", "pass")
PUNTER_ACTIONS = ("stake", "skip")
TABLEAUX = const(4)
DEAL_CARDS = const(17)  # 4 tableaux of 4, then the trump
SHOE = const(104)  # two 52-card decks
COPIES = const(2)

BANKS = "bank"
TABLE = "table"
HOUSE = "house"


class Options:
    """Club options; the defaults follow SPEC §4 and seed 004:29 (bank 15; the first and
    second punters stake at least 6 and 3 on the first card)."""

    def __init__(self, seats=4, balance=100, bank=15, minimums=(6, 3), commission=0,
                 talias=2, first_banker=0):
        if not 2 <= seats <= 8:
            raise ValueError("club écarté seats 2 to 8, got %r" % (seats,))
        if bank < 1 or balance < 0:
            raise ValueError("the bank must be at least 1 and balances not negative, got %r, %r"
                             % (bank, balance))
        if len(minimums) != 2 or min(minimums) < 0:
            raise ValueError("minimums are two amounts, got %r" % (minimums,))
        if not 0 <= commission < 100:
            raise ValueError("the house commission is a percent in 0..99, got %r" % (commission,))
        if not 0 <= first_banker < seats:
            raise ValueError("no seat %r to hold the first bank" % (first_banker,))
        self.seats = seats
        self.balance = balance
        self.bank = bank
        self.minimums = tuple(minimums)
        self.commission = commission
        self.talias = talias  # a responsible bank plays at most this many talias
        self.first_banker = first_banker


def inputs(events):
    """The actions that replayed on a fresh Club reproduce `events`."""
    out = []
    for e in events:
        if e[0] in ("card", "turn"):
            out.append(("shoe", CHANCE, e[2]))
        elif e[0] == "cut":
            out.append(("cut", CHANCE, None))
        elif e[0] in BANKER_ACTIONS or e[0] in PUNTER_ACTIONS:
            out.append((e[0], e[1], None if e[0] == "lay" else e[2]))
    return out


class Club(Rules):
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
        self._emit(("banker", self.banker, None))
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
        o, bal = self.options, self.balances[self.banker]
        if self.kind is None:  # a new bank
            out = []
            if self.lays == 0 and bal >= o.bank:
                out.append("lay")
            if self.lays == 0 and bal > 0:
                out.append("respond")
            out.append("pass")
            return out
        if self.kind == LIMITED and self.broken:
            if self.lays == 1:  # laid a second time, without reshuffling (seed 004:33)
                return ["lay", "pass"] if bal >= o.bank else ["pass"]
            return ["respond", "pass"] if bal > 0 else ["pass"]
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
            least = min(self.options.minimums[pos], most)
        return least, max(most, 0)

    def legal_actions(self):
        acts = []
        if self.phase == BANK:
            for c in self.choices():
                if c == "respond":
                    acts.append(("respond", self.banker, False))
                    acts.append(("respond", self.banker, True))
                else:
                    acts.append((c, self.banker, None))
        elif self.phase == STAKE:
            lo, hi = self.stake_range(self.to_act)
            if lo == 0:
                acts.append(("skip", self.to_act, None))
            for a in range(max(lo, 1), hi + 1):
                for t in (1, 2, 3):
                    acts.append(("stake", self.to_act, (t, a)))
        return acts

    # ---- verify / can / apply -----------------------------------------------------
    def finished_games(self):
        """How many games (the journal's unit of recall) this state has finished."""
        return self.banks_done

    def verify(self, action):
        kind, seat, value = unpack(action)
        if kind in ("shoe", "cut"):
            if seat != CHANCE:
                raise IllegalAction("only the shoe delivers cards, not seat %r" % (seat,))
            if self.phase != DEAL:
                raise IllegalAction("the shoe gave %s but no card is due (%s)" % (
                    _show(value) if kind == "shoe" else "the cut card", PHASE_NAMES[self.phase]))
            if kind == "shoe":
                self._verify_card(value)
            elif self.cut and not self.fresh:
                raise IllegalAction("the cut card came out twice in one talia")
            return
        if kind not in BANKER_ACTIONS and kind not in PUNTER_ACTIONS:
            raise IllegalAction("unknown action %r" % (kind,))
        if seat != self.to_act:
            raise IllegalAction("seat %r cannot %s: it is %s" % (seat, kind, self._whose_turn()))
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

    def apply(self, action):
        self.verify(action)
        kind, seat, value = action
        self._out = []
        if kind == "shoe":
            self._on_card(value)
        elif kind == "cut":
            if self.fresh:
                self._new_talia()
            self.cut = True
            self._emit(("cut", CHANCE, self.left))
        elif kind == "lay":
            self._lay(seat)
        elif kind == "respond":
            self._respond(seat, value)
        elif kind == "hold":
            self._emit(("hold", seat, None))
            self._open_deal()
        elif kind == "pass":
            self._emit(("pass", seat, None))
            self._next_banker()
        elif kind == "stake":
            self._stake(seat, tuple(value))
        elif kind == "skip":
            self._emit(("skip", seat, None))
            self._next_punter()
        out = tuple(self._out)
        self.log.extend(out)
        return out

    # ---- money --------------------------------------------------------------------
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
        self._emit(("move", seat, (src, dst, amount)))

    # ---- the bank -----------------------------------------------------------------
    def _lay(self, seat):
        self.lays += 1
        self.kind, self.broken, self.bank_deals = LIMITED, False, 0
        self._emit(("lay", seat, self.options.bank))
        self._move(seat, seat, BANKS, self.options.bank)
        self._open_deal()

    def _respond(self, seat, fresh):
        self.kind, self.broken, self.bank_deals = RESPONSIBLE, False, 0
        self.resp_talias = 0
        self._emit(("respond", seat, fresh))
        if fresh and not self.fresh:  # a new shoe for the responsible bank (seed 004:35)
            self.fresh = True
        self._open_deal()

    def _next_banker(self, reason=None):
        """The bank goes to the next seat; what a limited bank holds goes home."""
        if reason is not None:
            self._emit(("rotate", self.banker, reason))
        if self.bank:
            self._move(self.banker, BANKS, self.banker, self.bank)
        self.banker = (self.banker + 1) % self.options.seats
        self.banks_done += 1
        self.kind, self.lays, self.broken, self.bank_deals = None, 0, False, 0
        self.phase, self.to_act = BANK, self.banker
        self._emit(("banker", self.banker, None))

    # ---- staking ------------------------------------------------------------------
    def _open_deal(self):
        self.deal_no += 1
        self.stakes = []
        self.tableaux = [[], [], [], []]
        self.turned = None
        self.results = []
        self.dealt = 0
        self._emit(("deal", self.banker, self.deal_no))
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
        self._emit(("stake", seat, (tableau, amount)))
        self._move(seat, seat, TABLE, amount)
        self._next_punter()

    def _why_range(self, seat, lo, hi):
        if hi <= 0:
            return "nothing left to cover" if self.balances[seat] else "it has no money"
        if lo > 0:
            return "the minimum on the bank's first card"
        return "its balance and what the bank can answer"

    # ---- the deal -----------------------------------------------------------------
    def cards_due(self):
        """(cards the shoe should deliver now, 104 if a fresh shoe is to be loaded first)."""
        if self.phase != DEAL:
            return 0, 0
        return DEAL_CARDS - self.dealt, SHOE if self.fresh and self.dealt == 0 else 0

    def _verify_card(self, c):
        if not is_card(c):
            raise IllegalAction("the shoe delivered %r, which is not a card" % (c,))
        if not self.fresh and self.counts[c] >= COPIES:
            raise IllegalAction("the shoe delivered %s a third time: imperfect shoe" % name(c))

    def _new_talia(self):
        self.fresh, self.cut, self.left = False, False, SHOE
        self.counts = bytearray(64)
        self.talia += 1
        self._emit(("talia", CHANCE, self.talia))

    def _on_card(self, c):
        if self.fresh:
            self._new_talia()
        self.counts[c] += 1
        self.left -= 1
        if self.dealt < 16:
            t = self.dealt % TABLEAUX  # one card at a time, the banker's tableau first
            self.tableaux[t].append(c)
            self.dealt += 1
            self._emit(("card", t, c))
            return
        self.dealt += 1
        self.turned = c
        self._emit(("turn", CHANCE, c))
        self._emit(("tableaux", CHANCE, tuple(tuple(t) for t in self.tableaux)))
        self._settle()

    def _settle(self):
        o = self.options
        trump = suit(self.turned)
        self.results = []
        for t in (1, 2, 3):
            r = self.duel.duel(self.tableaux[0], self.tableaux[t], trump)
            self.results.append(r[0])
            self._emit(("result", t, r))
        order = sorted(range(len(self.stakes)), key=lambda i: (self.stakes[i][1], i))
        stakes = [self.stakes[i] for i in order]
        limited = self.kind == LIMITED
        entries, bank, broken = self.duel.settle(stakes, self.results, self.bank if limited else -1,
                                                 o.commission)
        b = self.banker
        pot = BANKS if limited else b  # where the banker's money is
        for seat, tableau, amount, outcome, to_punter, to_bank, to_house in entries:
            back = min(amount, to_punter)
            self._move(seat, TABLE, seat, back)
            if to_bank > 0:
                self._move(seat, TABLE, pot, to_bank)
                self._move(seat, TABLE, HOUSE, to_house)
            elif to_bank < 0:
                self._move(seat, pot, seat, to_punter - back)
                self._move(seat, pot, HOUSE, to_house)
            self._emit(("settle", seat, (tableau, amount, outcome, to_punter - amount)))
        if limited and bank != self.bank:
            raise AssertionError("settlement disagrees with the moves: %r != %r" % (bank, self.bank))
        self.bank_deals += 1
        self.deals_done += 1
        self.last = {"deal": self.deal_no, "tableaux": [list(t) for t in self.tableaux],
                     "trump": self.turned, "results": list(self.results),
                     "stakes": [list(s) for s in self.stakes]}
        talia_over = self.cut or self.left < DEAL_CARDS
        if talia_over:
            self.fresh = True
        if limited and broken:
            self._emit(("broken", b, self.lays))
        self._emit(("end", b, (self.deal_no, tuple(self.balances), self.bank, self.house)))
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
            self._open_deal()

    # ---- helpers ------------------------------------------------------------------
    def _whose_turn(self):
        if self.to_act == CHANCE:
            return "the shoe's turn to deal"
        if self.phase == BANK:
            return "the banker's (seat %d) decision" % self.to_act
        return "seat %d's turn to stake" % self.to_act
