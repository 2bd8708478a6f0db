# Club écarté's deal records (docs/records.md): the event log folded into one JSON-ready
# object per deal, with the bank as the deal began and its inputs, for `tapis replay`.
from tapis.firmware.cards import name
from tapis.firmware.games import club as game
from tapis.firmware.games.club.events import BANKS, DEAL_CARDS, EVENTS, HOUSE, LIMITED, RESPONSIBLE, SHOE, TABLE
from tapis.simulator.kits.schema import Records, base, thawed

R_NAMES = {1: "banker", 0: "push", -1: "punter", 2: "off"}
_BANK_EVENTS = ("banker", "lay", "respond", "hold", "pass", "rotate")


class ClubRecorder(Records):
    """feed(events) -> the deal records completed by those events."""
    EVENTS = EVENTS

    def __init__(self, seed, options=None):
        self.seed = seed
        self.options = o = options or game.Options()
        self.current = None
        self.events = []
        self.pending = []  # bank events since the last deal
        # the bank and the money as the rules keep them (bank.py, deal.py)
        self.balances = [o.balance] * o.seats
        self.bank, self.house = 0, 0
        self.banker, self.kind, self.lays, self.bank_deals = o.first_banker, None, 0, 0
        self.talia, self.fresh, self.cut, self.left = 0, True, False, SHOE

    def resume(self, frozen):
        """Go on from the rules' state at a bank's beginning (the journal's snapshot)."""
        state = thawed(frozen)
        for k in ("balances", "bank", "house", "banker", "kind", "lays", "bank_deals", "talia",
                  "fresh", "cut", "left"):
            setattr(self, k, state[k])
        self.balances = list(self.balances)

    def begin(self, record):
        """Go on from what a record says its deal began from (`tapis replay`)."""
        s = record["start"]
        for k in ("bank", "house", "kind", "lays", "bank_deals", "talia", "fresh", "cut"):
            setattr(self, k, s[k])
        self.balances, self.banker = list(s["balances"]), record["banker"]
        self.pending = list(record["bank_events"])
        self._open(record["deal"])

    def feed(self, events):
        done = []
        for e in events:
            kind, seat, value = e
            self._keep(kind, seat, value)
            r = self.current
            if kind == "deal":
                self._open(value)
                continue
            if kind in _BANK_EVENTS:
                self.pending.append([kind, seat] + ([] if value is None else [value]))
                continue
            if r is None:
                continue
            self.events.append(e)
            if kind == "talia":
                r["talia"] = value
            elif kind == "card":
                r["tableaux"][seat].append(name(value))
            elif kind == "turn":
                r["trump"] = name(value)
            elif kind == "cut":
                r["cut"] = True
            elif kind == "missing":  # the talia over at an empty shoe (a shoe restarted)
                r["laws"].append([kind, seat, value])
            elif kind == "void":  # its cards so far set aside: dealt again from a fresh shoe
                r["laws"].append([kind, seat, value])
                r["tableaux"] = [[], [], [], []]
            elif kind == "result":
                r["results"].append(R_NAMES[value[0]])
                r["tricks"].append([value[1], value[2]])
            elif kind == "stake":
                r["stakes"].append([seat, value[0], value[1]])
            elif kind == "short":  # a win cut to what the bank held (SPEC §4)
                r["short"].append({"seat": seat, "tableau": value[0], "paid": value[1], "won": value[2]})
            elif kind == "settle":
                r["settlement"].append({"seat": seat, "tableau": value[0], "amount": value[1],
                                        "outcome": R_NAMES[value[2]], "net": value[3]})
            elif kind == "broken":
                r["broken"] = True
            elif kind == "end":
                r["balances"] = list(value[1])
                r["bank"] = value[2]
                r["house"] = value[3]
                done.append(self.finish())
        return done

    def _keep(self, kind, seat, value):
        """What the rules keep from one deal to the next, kept alike."""
        if kind == "move":
            src, dst, amount = value
            for acct, sign in ((src, -1), (dst, 1)):
                if acct == BANKS:
                    self.bank += sign * amount
                elif acct == HOUSE:
                    self.house += sign * amount
                elif acct != TABLE:
                    self.balances[acct] += sign * amount
        elif kind == "banker":
            self.banker, self.kind, self.lays, self.bank_deals = seat, None, 0, 0
        elif kind == "lay":
            self.kind, self.bank_deals = LIMITED, 0
            self.lays += 1
        elif kind == "respond":
            self.kind, self.bank_deals = RESPONSIBLE, 0
            self.fresh = self.fresh or value
        elif kind == "talia":
            self.talia, self.fresh, self.cut, self.left = value, False, False, SHOE
        elif kind in ("card", "turn"):
            self.left -= 1
        elif kind == "cut":
            self.cut = True
        elif kind == "missing":
            self.fresh = True
        elif kind == "end":
            self.bank_deals += 1
            if self.cut or self.left < DEAL_CARDS:
                self.fresh = True

    def _open(self, number):
        r = base("club", number, self.seed, self.options)
        r.update({"banker": self.banker, "talia": self.talia, "bank_events": self.pending,
                  "stakes": [], "tableaux": [[], [], [], []], "trump": None, "results": [],
                  "tricks": [], "short": [], "settlement": [], "broken": False, "cut": False, "laws": [],
                  "balances": list(self.balances), "bank": self.bank, "house": self.house})
        r["start"] = {"balances": list(self.balances), "bank": self.bank, "house": self.house,
                      "kind": self.kind, "lays": self.lays, "bank_deals": self.bank_deals,
                      "talia": self.talia, "fresh": self.fresh, "cut": self.cut}
        self.pending = []
        self.current, self.events = r, [("deal", self.banker, number)]


def at_start(record, evaluator=None):
    """A game positioned where the record's deal began (the bank as the deal opened it),
    and a recorder that goes on from there (`tapis replay`)."""
    from tapis.simulator.kits.schema import options_from

    options = options_from(game, record["options"])
    kw = {"duel": evaluator} if evaluator is not None else {}
    g = game.Rules(options, **kw)
    s = record["start"]
    g.banker, g.balances, g.deal_no = record["banker"], list(s["balances"]), record["deal"] - 1
    for k in ("bank", "house", "kind", "lays", "bank_deals", "talia", "fresh", "cut"):
        setattr(g, k, s[k])
    g.open_deal()  # the rules open a deal themselves after the bank's decision or the last deal
    recorder = ClubRecorder(record["seed"], options)
    recorder.begin(record)
    return g, recorder
