# The emulated table display, rendered in the terminal: one readable line per event.
from firmware.cards import RANKS, name, rank, suit

SYMBOLS = "♠♥♦♣"
SEAT_NAMES = ("West", "East")
VERBS = {"propose": "proposes: \"Cards\"", "accept": "accepts: \"How many?\"",
         "refuse": "refuses: \"Play\"", "stand": "plays: \"I play\""}


def pretty(c, symbols=True):
    if c is None:
        return "??"
    return RANKS[rank(c)] + SYMBOLS[suit(c)] if symbols else name(c)


class Renderer:
    """Watches the table display's views; `hands()` gives each seat's hand as its own
    display shows it (the watcher sees the players' displays too)."""

    def __init__(self, write, hands, symbols=True):
        self.write, self.hands, self.symbols = write, hands, symbols
        self.trick = []
        self.scores = [0, 0]

    def cards(self, cs):
        return " ".join(pretty(c, self.symbols) for c in sorted(cs))

    def on_view(self, view):
        for kind, seat, value in view.get("events", ()):
            line = self.line(kind, seat, value)
            if line:
                self.write(line)

    def line(self, kind, seat, value):
        who = SEAT_NAMES[seat] if seat in (0, 1) else ""
        if kind == "deal":
            return "\n── Deal %d · %s deals ──" % (value, who)
        if kind == "turn":
            h = self.hands()
            return "  %s: %s   %s: %s\n  Trump turned: %s" % (
                SEAT_NAMES[0], self.cards(h[0]), SEAT_NAMES[1], self.cards(h[1]), pretty(value, self.symbols))
        if kind in VERBS:
            return "  %s %s" % (who, VERBS[kind])
        if kind == "discard":
            return "  %s discards %d" % (who, len(value))
        if kind == "king":
            return "  %s announces the king" % who
        if kind == "play":
            self.trick.append("%s %s" % (who, pretty(value, self.symbols)))
            return None
        if kind == "trick":
            line = "  Trick %d: %s → %s" % (value, ", ".join(self.trick), who)
            self.trick = []
            return line
        if kind == "score":
            self.scores[seat] += value[0]
            return "  %s scores %d (%s) · %s %d – %s %d" % (
                who, value[0], value[1], SEAT_NAMES[0], self.scores[0], SEAT_NAMES[1], self.scores[1])
        if kind == "game":
            self.scores = [0, 0]
            return "★ %s wins the game (%s)" % (who, {3: "treble", 2: "double", 1: "single"}[value])
        if kind == "rubber":
            return "★★ %s wins the rubber, %d games to %d" % (who, max(value), min(value))
        return None
