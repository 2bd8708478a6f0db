# Piquet's table display, rendered in the terminal: one readable line per event.
from tapis.firmware.cards import rank, suit
from tapis.firmware.games.piquet.table import describe
from tapis.simulator.kits.show import SEAT_NAMES, Narrator, pretty

# the shoe's faults (firmware/games/piquet/deal.py): each makes the deal void
MISDEALS = {"unread": "The shoe could not read a card", "missing": "The shoe ran empty: the pack is short",
            "double feed": "Two cards came out of the shoe together",
            "outofturn": "The shoe is being dealt out of turn"}

class Renderer(Narrator):
    """Piquet's events as lines (kits/show.py Narrator). Public: `hands()` gives each
    seat's hand as its own display shows it (None: no hand is shown). A watcher of the
    whole log sees the hands dealt, the cards exchanged and drawn, the rest of the talon.
    Every point is said as it is scored: the declarations' in their own lines, the play's
    (the lead, the trick won second, the last trick, the cards, capot) with the trick."""

    # the declared events it shows no line of: face down (to a watcher: gathered into the
    # hands and the exchange's line); gathered into the trick's line; said by the holding
    # that follows; the partie, said after the deal
    SILENT = ("card", "draw", "rest", "talon", "play", "declare", "look", "partie")
    PLAY_POINTS = ("lead", "trick", "last trick", "cards", "capot")

    def __init__(self, write, hands=None, symbols=True, watcher=False):
        Narrator.__init__(self, write, hands, symbols, watcher)
        self.trick = []
        self.made = []  # the points the trick being told made: (seat, points, why)
        self.scores = [0, 0]
        self.partie = 1
        self.in_partie = 0  # the deals of the partie so far
        self.parties = [0, 0]
        self.result = None
        self.dealt = [[], []]  # a watcher's: the hands as they stand
        self.drawn = []  # a watcher's: the cards of the exchange being drawn
        self.opened = False  # a watcher's: the hands dealt are told
        self.held = None  # the kind of event that completes the line held
        self.told = ""  # the trick's line, until its points are in

    def cards(self, cs):
        return " ".join(pretty(c, self.symbols) for c in sorted(cs, key=lambda c: (suit(c), -rank(c))))

    def extends(self, kind):
        return kind == self.held  # "draw" after an exchange, "score" after a trick

    def score_line(self):
        out = "Partie %d: %s %d – %s %d (Rubicon 100)" % (
            self.partie, SEAT_NAMES[0], self.scores[0], SEAT_NAMES[1], self.scores[1])
        if any(self.parties):
            out += " · parties won %s %d, %s %d" % (SEAT_NAMES[0], self.parties[0], SEAT_NAMES[1], self.parties[1])
        return out

    def opening(self, state):
        self.partie, self.in_partie = state["partie_no"], state["in_partie"]  # its deal: its own first events

    def _hands(self):
        if self.watcher:
            return self.dealt
        return self.hands() if self.hands else [[], []]

    def _told(self):
        """The trick's line with the points it made and the score after them."""
        line, made = self.told, self.made
        self.trick, self.made, self.held = [], [], None
        if made:
            line += " · " + ", ".join("%s +%d %s" % (SEAT_NAMES[s], p, why) for s, p, why in made)
            line += " · %s %d – %s %d" % (SEAT_NAMES[0], self.scores[0], SEAT_NAMES[1], self.scores[1])
        return line

    def line(self, kind, seat, value):
        who = SEAT_NAMES[seat] if seat in (0, 1) else ""
        if kind == "cut":
            return "  %s cuts %s" % (who, pretty(value, self.symbols))
        if kind == "deal":  # value: the deals so far in the game; told: the deal in its partie
            self.dealt, self.trick, self.made, self.opened = [[], []], [], [], False
            self.in_partie += 1
            return "\n── Partie %d · deal %d · %s deals, %s is elder ──" % (
                self.partie, self.in_partie, who, SEAT_NAMES[1 - seat])
        if kind in MISDEALS:
            return "  ! " + MISDEALS[kind]
        if kind == "exposed":
            return "  ! A card came out face up: %s" % pretty(value, self.symbols)
        if kind == "duplicate":
            return "  ! %s came out twice: the pack is imperfect" % pretty(value, self.symbols)
        if kind == "void":
            return "  The deal is void (%s)" % value
        if kind in ("card", "draw"):
            if self.watcher and seat in (0, 1) and value is not None:
                self.dealt[seat].append(value)
                if kind == "draw":
                    self.drawn.append(value)
            return None
        head = ""
        if self.watcher and not self.opened and kind in ("blanche", "exchange"):
            self.opened = True  # the hands as dealt, before the first word of the deal
            head = "  %s: %s\n  %s: %s\n" % (SEAT_NAMES[0], self.cards(self.dealt[0]),
                                              SEAT_NAMES[1], self.cards(self.dealt[1]))
        if kind == "blanche":
            return head + "  %s %s" % (who, "declares carte blanche" if value else "keeps quiet")
        if kind == "show":
            return "  %s shows: %s" % (who, self.cards(value))
        if kind == "exchange":
            if not self.watcher or isinstance(value, int):
                return head + "  %s exchanges %d" % (who, value if isinstance(value, int) else len(value))
            gone = list(value)
            if seat in (0, 1):
                self.dealt[seat] = [c for c in self.dealt[seat] if c not in gone]
            self.drawn, self.held = [], "draw"
            if head:
                self._say(head.rstrip("\n"))
            self.pending = lambda: "  %s exchanges %d: discards %s, draws %s" % (
                who, len(gone), self.cards(gone), self.cards(self.drawn))
            return None
        if kind == "look" and value:
            return "  %s looks at the rest of the talon" % who
        if kind == "rest":
            return "  the rest of the talon, seen by %s: %s" % (who, self.cards(value)) \
                if self.watcher and value else None
        if kind == "talon":
            return None
        if kind == "holding":
            return "  %s: \"%s\"" % (who, describe(value[0], value[1]))
        if kind == "sink":
            return "  %s sinks the %s" % (who, value)
        if kind == "verdict":
            cat, word = value
            line = "    %s: %s" % (cat, word) + ("" if seat < 0 else " (%s)" % SEAT_NAMES[seat])
            if cat == "sets":
                h = self._hands()
                if h[0] or h[1]:
                    line += "\n  %s: %s\n  %s: %s" % (SEAT_NAMES[0], self.cards(h[0]),
                                                      SEAT_NAMES[1], self.cards(h[1]))
            return line
        if kind == "play":
            if seat in (0, 1) and value in self.dealt[seat]:
                self.dealt[seat].remove(value)
            self.trick.append("%s %s" % (who, pretty(value, self.symbols)))
            return None
        if kind == "trick":
            self.told = "  Trick %d: %s → %s" % (value, ", ".join(self.trick), who)
            self.held, self.pending = "score", self._told
            return None
        if kind == "score":
            pts, why = value
            self.scores[seat] += pts
            if why in self.PLAY_POINTS:  # told with its trick
                self.made.append((seat, pts, why))
                return None
            now = list(self.scores)  # less the play points held for their trick's line
            for s, p, _why in self.made:
                now[s] -= p
            return "  %s scores %d (%s) · %s %d – %s %d" % (
                who, pts, why, SEAT_NAMES[0], now[0], SEAT_NAMES[1], now[1])
        if kind == "end":
            line = "  after the deal: %s %d – %s %d" % (
                SEAT_NAMES[0], self.scores[0], SEAT_NAMES[1], self.scores[1])
            if self.result:
                line, self.result = line + "\n" + self.result, None
                self.scores = [0, 0]
                self.partie, self.in_partie = self.partie + 1, 0
            return line
        if kind == "partie":
            v, a, b = value
            if seat < 0:
                self.result = "★ The partie is drawn, %d – %d" % (a, b)
            else:
                self.parties[seat] += 1
                self.result = "★ %s wins the partie %d – %d and scores %d (%s)" % (
                    who, max(a, b), min(a, b), v, "difference" if v == abs(a - b) else "Rubicon")
        return None
