# Club écarté's table display, rendered in the terminal: one readable line per event.
from tapis.firmware.cards import rank, suit
from tapis.simulator.kits.show import Narrator, pretty


class ClubRenderer(Narrator):
    """Club écarté's events as lines (kits/show.py Narrator). Everything the deal shows is
    public (the tableaux are opened together with the trump), so a watcher of the whole
    log sees what the table display shows; the money's moves stay in the log."""

    SILENT = ("skip",)  # the declared events it shows no line of: a punter sitting out

    def __init__(self, write, hands=None, symbols=True, watcher=False):
        Narrator.__init__(self, write, hands, symbols, watcher)
        self.trump = None
        self.balances = None
        self.bank = None  # (banker, what the bank holds)

    def score_line(self):
        if self.balances is None:
            return ""
        out = "Balances " + ", ".join("seat %d %d" % (i, b) for i, b in enumerate(self.balances))
        if self.bank is not None:
            out += " · seat %d banks, the bank holds %d" % self.bank
        return out

    def opening(self, state):
        self.balances = list(state["balances"])
        self.event("banker", state["banker"], None)

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
        if kind == "limits":  # the supervisor's (firmware/operator/commands.py): who, then what
            return "  SUPERVISOR %s: a bank of %d, minimums %d and %d, from the next bank laid" % value
        if kind == "in_force":
            return "  The limits now: a bank of %d, minimums %d and %d" % value
        if kind == "authorise":
            return "  SUPERVISOR %s: seat %d may hold a responsible bank" % value
        if kind == "give":
            return "  SUPERVISOR %s: the bank to seat %d, out of rotation" % value
        if kind == "talia":
            return "  ── Talia %d: a fresh shoe of 104 cards ──" % value
        if kind == "cut":
            return "  The cut card is out: this is the talia's last deal"
        if kind == "missing":
            return "  The shoe is empty with %d cards of the talia still due: the talia is over, a fresh shoe" % value
        if kind == "void":
            return "  ★ The deal is void (%s): its stakes stand, it is dealt again" % value
        if kind == "deal":
            return "\n── Deal %d · seat %d banks ──" % (value, seat)
        if kind == "stake":
            return "  Seat %d stakes %d on tableau %d" % (seat, value[1], value[0])
        if kind == "tableaux":
            names = ["Banker  "] + ["Tableau %d" % t for t in (1, 2, 3)]
            return "\n".join("  %-9s %s" % (names[t], self.cards(cs)) for t, cs in enumerate(value))
        if kind == "turn":
            self.trump = suit(value)
            return "  Trump turned: %s" % pretty(value, self.symbols)
        if kind == "result":
            what = {1: "banker wins", 0: "en carte (push)", -1: "punter wins"}[value[0]]
            return "  Tableau %d: %s · tricks %d–%d" % (seat, what, value[1], value[2])
        if kind == "settle":
            what = {2: "off (the bank was broken): stake back", 0: "en carte: stake back"}.get(
                value[2], "%+d" % value[3])
            return "  Seat %d on tableau %d: %s" % (seat, value[0], what)
        if kind == "short":
            return "  Seat %d wins %d on tableau %d, but the bank holds %d: paid %d, the bank is broken" % (
                seat, value[2], value[0], value[1], value[1])
        if kind == "broken":
            return "  ★ The bank is broken (laid %d time%s)" % (value, "" if value == 1 else "s")
        if kind == "end":
            self.balances, self.bank = list(value[1]), (seat, value[2])
            return "  Balances: %s · bank %d" % (" ".join("%d:%d" % (i, b) for i, b in enumerate(value[1])), value[2])
        return None
