# Club écarté in the simulator: which duel core the host uses, the bot at the panel,
# the deal recorder and the terminal renderer.
from tapis.firmware import panel as B
from tapis.firmware.cards import RANKS, name, rank, suit
from tapis.firmware.rules import club as R
from tapis.firmware.tables.club import ClubTable
from tapis.host import core

UNIT = 2  # the bots' stake when no minimum applies
HOLD_TALIAS = 1  # talias a bot keeps a standing bank after the first


def stake_for(order, lo, hi, unit=UNIT):
    """The stated staking pattern: the k-th punter from the banker's left backs tableau
    k mod 3 + 1 with `unit` (the minimum when the rules ask for more), within what the
    bank and his balance allow; with nothing allowed he sits out."""
    if hi <= 0:
        return None
    return order % 3 + 1, min(max(lo, unit), hi)


def bank_choice(choices, holds, respond=True):
    """The bots' banking: lay a limited bank (again after a first break); after a second
    break go responsible; keep a standing bank for HOLD_TALIAS more talias, then pass."""
    if "lay" in choices:
        return "lay"
    if "respond" in choices and respond:
        return "respond"
    if "hold" in choices and holds < HOLD_TALIAS:
        return "hold"
    return "pass"


class ClubBot:
    def __init__(self):
        self.acted = None
        self.holds = 0

    def presses(self, view):
        if not view["turn"]:
            return []
        point = (view["phase"], view["deal"], view["banker"], view["lays"], view["talia"],
                 tuple(view.get("choices", ())))
        if point == self.acted:
            return []
        self.acted = point
        if view["phase"] == "bank":
            choices = view["choices"]
            if view["kind"] is None:  # a new bank
                self.holds = 0
            c = bank_choice(choices, self.holds)
            if c == "hold":
                self.holds += 1
            if c == "pass":
                self.holds = 0
                return [(B.REFUSE, 0)]
            return [(B.SELECT, choices.index(c) + 1), (B.CONFIRM, 0)]
        if view["phase"] == "stake":
            lo, hi = view["range"]
            # the table bots' unit grows with what they have: 2, or a 50th of it
            s = stake_for(view["order"], lo, hi, max(UNIT, view["balances"][view["seat"]] // 50))
            if s is None:
                return [(B.REFUSE, 0)]
            out = [(B.SELECT, s[0])]
            a = s[1]
            while a > 0:
                out.append((B.BET_PLUS, min(a, 255)))
                a -= min(a, 255)
            out.append((B.CONFIRM, 0))
            return out
        return []


class ClubRecorder:
    """feed(events) -> the deal records completed by those events."""

    def __init__(self, seed):
        self.seed = seed
        self.current = None
        self.pending = []  # bank events since the last deal
        self.talia = 0

    def feed(self, events):
        done = []
        for kind, seat, value in events:
            r = self.current
            if kind == "deal":
                self.current = {"deal": value, "seed": self.seed, "banker": seat, "talia": None,
                                "bank_events": self.pending, "tableaux": [[], [], [], []],
                                "trump": None, "results": [], "tricks": [], "stakes": [],
                                "settlement": []}
                self.pending = []
            elif kind in ("banker", "lay", "respond", "hold", "pass", "rotate"):
                self.pending.append([kind, seat] + ([] if value is None else [value]))
            elif r is None:
                continue
            elif kind == "talia":
                self.talia = value
            elif kind == "card":
                r["tableaux"][seat].append(name(value))
            elif kind == "turn":
                r["trump"] = name(value)
            elif kind == "cut":
                r["cut"] = True
            elif kind == "result":
                r["results"].append(R_NAMES[value[0]])
                r["tricks"].append([value[1], value[2]])
            elif kind == "stake":
                r["stakes"].append([seat, value[0], value[1]])
            elif kind == "settle":
                r["settlement"].append({"seat": seat, "tableau": value[0], "amount": value[1],
                                        "outcome": R_NAMES[value[2]], "net": value[3]})
            elif kind == "broken":
                r["broken"] = True
            elif kind == "end":
                r["talia"] = self.talia
                r["balances"] = list(value[1])
                r["bank"] = value[2]
                r["house"] = value[3]
                done.append(r)
                self.current = None
        return done


R_NAMES = {1: "banker", 0: "push", -1: "punter", 2: "off"}
SYMBOLS = "♠♥♦♣"


def pretty(c, symbols=True):
    return RANKS[rank(c)] + SYMBOLS[suit(c)] if symbols else name(c)


class ClubRenderer:
    """The table display in the terminal: one readable line per event."""

    def __init__(self, write, hands=None, symbols=True):
        self.write, self.symbols = write, symbols
        self.trump = None

    def on_view(self, view):
        for e in view.get("events", ()):
            if not e or len(e) < 3:  # what the display is not shown (money moves, cards face down)
                continue
            line = self.line(e[0], e[1], e[2])
            if line:
                self.write(line)

    def cards(self, cs):
        out = []
        for c in sorted(cs, key=lambda c: (suit(c) != self.trump, -rank(c), suit(c))):
            t = pretty(c, self.symbols)
            out.append(t + "*" if suit(c) == self.trump else t + " ")
        return " ".join(out)

    def line(self, kind, seat, value):
        if kind == "banker":
            return "\n══ Seat %d takes the bank ══" % seat
        if kind == "lay":
            return "  Seat %d lays a limited bank of %d" % (seat, value)
        if kind == "respond":
            return "  Seat %d holds a responsible bank%s" % (seat, ", fresh shoe" if value else "")
        if kind == "hold":
            return "  Seat %d keeps the bank for another talia" % seat
        if kind == "pass":
            return "  Seat %d passes the bank" % seat
        if kind == "rotate":
            return "  Seat %d's responsible bank ends after %s" % (seat, value)
        if kind == "talia":
            return "  ── Talia %d: a fresh shoe of 104 cards ──" % value
        if kind == "cut":
            return "  The cut card is out: this is the talia's last deal"
        if kind == "deal":
            return "\n── Deal %d · seat %d banks ──" % (value, seat)
        if kind == "stake":
            return "  Seat %d stakes %d on tableau %d" % (seat, value[1], value[0] + 1)
        if kind == "tableaux":
            names = ["Banker  "] + ["Tableau %d" % (t + 1) for t in (1, 2, 3)]
            return "\n".join("  %-9s %s" % (names[t], self.cards(cs)) for t, cs in enumerate(value))
        if kind == "turn":
            self.trump = suit(value)
            return "  Trump turned: %s" % pretty(value, self.symbols)
        if kind == "result":
            what = {1: "banker wins", 0: "en carte (push)", -1: "punter wins"}[value[0]]
            return "  Tableau %d: %s · tricks %d–%d" % (seat + 1, what, value[1], value[2])
        if kind == "settle":
            what = {2: "off (the bank was broken): stake back", 0: "en carte: stake back"}.get(
                value[2], "%+d" % value[3])
            return "  Seat %d on tableau %d: %s" % (seat, value[0] + 1, what)
        if kind == "broken":
            return "  ★ The bank is broken (laid %d time%s)" % (value, "" if value == 1 else "s")
        if kind == "end":
            return "  Balances: %s · bank %d" % (" ".join("%d:%d" % (i, b) for i, b in enumerate(value[1])), value[2])
        return None


class ClubKit:
    name = "club"
    title = "club écarté"
    Table = ClubTable
    Bot = ClubBot
    Recorder = ClubRecorder
    Renderer = ClubRenderer
    VARIANTS = {
        "eight-seats": lambda: R.Options(seats=8),
        "commission-5": lambda: R.Options(commission=5, balance=1000, bank=150, minimums=(60, 30)),
        "big-bank": lambda: R.Options(bank=60, minimums=(20, 10)),
    }

    @staticmethod
    def new_game(options=None, evaluator=None):
        # `evaluator` is écarté's trick evaluator; club settles with the duel core
        return R.Club(options, duel=core.duel)

    @staticmethod
    def finished_deals(game):
        return game.deals_done

    @staticmethod
    def finished_games(game):
        """A club "game" is one bank: it ends when the bank passes on."""
        return game.banks_done
