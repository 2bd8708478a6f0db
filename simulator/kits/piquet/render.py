# Piquet's table display, rendered in the terminal: one readable line per event.
from tapis.firmware.cards import rank, suit
from tapis.firmware.games.piquet.table import describe
from tapis.simulator.kits.show import SEAT_NAMES, pretty


# the shoe's faults (firmware/games/piquet/deal.py): each makes the deal void
MISDEALS = {"unread": "The shoe could not read a card", "missing": "The shoe ran empty: the pack is short",
            "double feed": "Two cards came out of the shoe together",
            "outofturn": "The shoe is being dealt out of turn"}


class Renderer:
    """Watches the table display's views; `hands()` gives each seat's hand as its own
    display shows it (the watcher sees the players' displays too)."""

    # the declared events it shows no line of: face down; gathered into the trick's line;
    # said by the holding that follows; a look declined; the partie, said after the deal
    SILENT = ("card", "draw", "rest", "talon", "play", "declare", "look", "partie")

    def __init__(self, write, hands, symbols=True):
        self.write, self.hands, self.symbols = write, hands, symbols
        self.trick = []
        self.scores = [0, 0]
        self.partie = 1
        self.result = None

    def cards(self, cs):
        return " ".join(pretty(c, self.symbols) for c in sorted(cs, key=lambda c: (suit(c), -rank(c))))

    def on_view(self, view):
        for e in view.get("events", ()):
            if not e:  # what the display is not shown (a seat's answer when declaring)
                continue
            line = self.line(*e)
            if line:
                self.write(line)

    def line(self, kind, seat, value):
        who = SEAT_NAMES[seat] if seat in (0, 1) else ""
        if kind == "cut":
            return "  %s cuts %s" % (who, pretty(value, self.symbols))
        if kind == "deal":
            return "\n── Partie %d · deal %d · %s deals, %s is elder ──" % (
                self.partie, value, who, SEAT_NAMES[1 - seat])
        if kind in MISDEALS:
            return "  ! " + MISDEALS[kind]
        if kind == "exposed":
            return "  ! A card came out face up: %s" % pretty(value, self.symbols)
        if kind == "duplicate":
            return "  ! %s came out twice: the pack is imperfect" % pretty(value, self.symbols)
        if kind == "void":
            return "  The deal is void (%s)" % value
        if kind == "blanche":
            return "  %s %s" % (who, "declares carte blanche" if value else "keeps quiet")
        if kind == "show":
            return "  %s shows: %s" % (who, self.cards(value))
        if kind == "exchange":
            return "  %s exchanges %d" % (who, value)
        if kind == "look" and value:
            return "  %s looks at the rest of the talon" % who
        if kind == "holding":
            return "  %s: \"%s\"" % (who, describe(value[0], value[1]))
        if kind == "sink":
            return "  %s sinks the %s" % (who, value)
        if kind == "verdict":
            cat, word = value
            line = "    %s: %s" % (cat, word) + ("" if seat < 0 else " (%s)" % SEAT_NAMES[seat])
            if cat == "sets":
                h = self.hands()
                line += "\n  %s: %s\n  %s: %s" % (SEAT_NAMES[0], self.cards(h[0]),
                                                  SEAT_NAMES[1], self.cards(h[1]))
            return line
        if kind == "play":
            self.trick.append("%s %s" % (who, pretty(value, self.symbols)))
            return None
        if kind == "trick":
            line = "  Trick %d: %s → %s" % (value, ", ".join(self.trick), who)
            self.trick = []
            return line
        if kind == "score":
            self.scores[seat] += value[0]
            if value[1] in ("lead", "trick"):
                return None  # the trick lines carry these; the totals follow at the end
            return "  %s scores %d (%s) · %s %d – %s %d" % (
                who, value[0], value[1], SEAT_NAMES[0], self.scores[0], SEAT_NAMES[1], self.scores[1])
        if kind == "end":
            line = "  after the deal: %s %d – %s %d" % (
                SEAT_NAMES[0], self.scores[0], SEAT_NAMES[1], self.scores[1])
            if self.result:
                line, self.result = line + "\n" + self.result, None
                self.scores = [0, 0]
                self.partie += 1
            return line
        if kind == "partie":
            v, a, b = value
            if seat < 0:
                self.result = "★ The partie is drawn, %d – %d" % (a, b)
            else:
                self.result = "★ %s wins the partie %d – %d and scores %d (%s)" % (
                    who, max(a, b), min(a, b), v, "difference" if v == abs(a - b) else "Rubicon")
        return None
