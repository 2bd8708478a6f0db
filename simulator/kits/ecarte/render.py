# Écarté's table display, rendered in the terminal: one readable line per event.
from tapis.simulator.kits.show import Narrator, pretty, seat_name

VERBS = {"propose": "proposes: \"Cards\"", "accept": "accepts: \"How many?\"",
         "refuse": "refuses: \"Play\"", "stand": "plays: \"I play\"",
         "abandon": "throws in the hand", "claim": "lays down his cards, claiming",
         "double": "proposes to double", "offer": "offers the point"}
# the shoe's faults and the laws applied (firmware/games/ecarte/laws.py)
FAULTS = {"unread": "The shoe could not read a card: it is set aside unseen",
          "missing": "The shoe ran empty: a card is missing from the pack",
          "double feed": "Two cards came out of the shoe together"}


class Renderer(Narrator):
    """Écarté's events as lines (kits/show.py Narrator). Public: `hands()` gives each
    seat's hand as its own display shows it (the watcher of `tapis table` sees the
    players' displays too; None: no hand is shown). A watcher of the whole log sees the
    hands dealt and the cards exchanged."""

    # the declared events it shows no line of: face down (or, to a watcher, gathered into
    # the hands and the exchange's line), or gathered into the trick's line
    SILENT = ("card", "draw", "extra", "play")

    def __init__(self, write, hands=None, symbols=True, watcher=False):
        Narrator.__init__(self, write, hands, symbols, watcher)
        self.trick = []
        self.scores = [0, 0]
        self.games = {}  # games won, by table seat
        self.balances = None
        self.seated = [0, 1]  # the table seats at positions 0 and 1 (pool écarté rotates them)
        self.dealt = [[], []]  # a watcher's: the hands by position, as dealt
        self.drawn = []  # a watcher's: the cards of the exchange being drawn
        self.told = False  # the hands are told with this deal's turn-up

    def cards(self, cs):
        return " ".join(pretty(c, self.symbols) for c in sorted(cs))

    def extends(self, kind):
        return kind == "draw"

    def score_line(self):
        at = self.seated
        out = "%s %d – %s %d (game to 5)" % (seat_name(at[0]), self.scores[0], seat_name(at[1]), self.scores[1])
        if self.games:
            out += " · games " + ", ".join("%s %d" % (seat_name(s), n) for s, n in sorted(self.games.items()))
        if self.balances:
            out += " · " + ", ".join("%s %+d" % (seat_name(i), b) for i, b in enumerate(self.balances) if b or i < 2)
        return out

    def opening(self, state):
        self.seated, self.scores = list(state["seated"]), list(state["scores"])
        self.event("deal", state["dealer"], state["deal_no"])

    def _hands(self):
        """Both hands by table seat, as far as this renderer may show them."""
        if self.watcher:
            h = [[] for _ in range(8)]
            for pos, seat in enumerate(self.seated):
                h[seat] = self.dealt[pos]
            return h
        return self.hands() if self.hands else [[] for _ in range(8)]

    def line(self, kind, seat, value):
        at = self.seated
        who = seat_name(at[seat]) if seat in (0, 1) else ""
        if kind == "cut":
            return "  %s cuts %s" % (seat_name(seat), pretty(value, self.symbols))
        if kind == "deal":
            self.dealt, self.trick = [[], []], []
            return "\n── Deal %d · %s deals ──" % (value, who)
        if kind == "card":
            if self.watcher and seat in (0, 1) and value is not None:
                self.dealt[seat].append(value)
            return None
        if kind == "draw":
            if self.watcher and value is not None:
                self.drawn.append(value)
                if seat in (0, 1):
                    self.dealt[seat].append(value)
            return None
        if kind == "turn":
            h = self._hands()
            self.told = bool(h[at[0]] or h[at[1]])
            if not self.told:  # the quick game's public display: the hands are shown at the showdown
                return "  Trump turned: %s" % pretty(value, self.symbols)
            return "  %s: %s   %s: %s\n  Trump turned: %s" % (
                seat_name(at[0]), self.cards(h[at[0]]), seat_name(at[1]), self.cards(h[at[1]]),
                pretty(value, self.symbols))
        if kind == "abandon" and value:
            return "  %s concedes the %s" % (who, value)
        if kind in VERBS:
            return "  %s %s" % (who, VERBS[kind])
        if kind in FAULTS:
            return "  ! " + FAULTS[kind]
        if kind == "exposed":
            return "  ! A card came out face up: %s" % pretty(value, self.symbols)
        if kind == "duplicate":
            return "  ! %s came out twice: the pack is imperfect" % pretty(value, self.symbols)
        if kind == "outofturn":
            return "  ! The shoe is being dealt by %s, out of turn" % who
        if kind == "choices":
            return "  %s may choose: %s" % (who, " / ".join(value))
        if kind == "choose":
            return "  %s chooses: %s" % (who, value)
        if kind == "void":
            return "  The deal is void (%s)" % value
        if kind == "king lost":
            return "  The turned king does not score: %s" % value
        if kind == "set aside":
            return "  %s's extra card is set aside unseen" % who
        if kind == "retake":
            return "  %s takes back a discard: the stock is out" % who
        if kind == "claimed":
            return "  %s is sure of %d tricks" % (who, value)
        if kind == "showdown":
            line = "  Showdown: %s" % (("%s has the higher trump" % who) if who else value[0])
            if self.told:  # the hands, told with the turn-up
                return line
            return "  %s: %s   %s: %s\n" % (
                seat_name(at[0]), self.cards(value[1]), seat_name(at[1]), self.cards(value[2])) + line
        if kind == "bet":
            return "  %s backs %s for %d" % (seat_name(seat), seat_name(at[value[0]]), value[1])
        if kind == "limits":  # the supervisor's (firmware/games/ecarte/limits.py): who, then what
            return "  SUPERVISOR %s: a stake of %d a game, bets of at most %d, from the next game" % value
        if kind == "in_force":
            return "  The limits now: a stake of %d a game, bets of at most %d" % value
        if kind == "pay":
            to = "into the pool" if value[0] == "pool" else seat_name(value[0])
            return "  %s pays %s %d" % (seat_name(seat), to, value[1])
        if kind == "balances":
            self.balances = list(value)
            return "  Balances: " + ", ".join("%s %+d" % (seat_name(i), b) for i, b in enumerate(value))
        if kind == "pool":
            return "★★ %s wins the pool of %d: two games running" % (seat_name(seat), value)
        if kind == "seats":
            self.seated = list(value[:2])
            return "  In play: %s and %s; %s watches" % tuple(seat_name(x) for x in value)
        if kind == "discard":
            if not self.watcher or isinstance(value, int):
                return "  %s discards %d" % (who, value if isinstance(value, int) else len(value))
            gone = list(value)
            if seat in (0, 1):
                self.dealt[seat] = [c for c in self.dealt[seat] if c not in gone]
            self.drawn = []
            self.pending = lambda: "  %s discards %s and draws %s" % (
                who, self.cards(gone), self.cards(self.drawn) if self.drawn else "nothing")
            return None
        if kind == "king":
            return "  %s announces the king" % who
        if kind == "play":
            if seat in (0, 1) and value in self.dealt[seat]:
                self.dealt[seat].remove(value)
            self.trick.append("%s %s" % (who, pretty(value, self.symbols)))
            return None
        if kind == "trick":
            line = "  Trick %d: %s → %s" % (value, ", ".join(self.trick), who)
            self.trick = []
            return line
        if kind == "score":
            self.scores[seat] += value[0]
            return "  %s scores %d (%s) · %s %d – %s %d" % (
                who, value[0], value[1], seat_name(at[0]), self.scores[0], seat_name(at[1]), self.scores[1])
        if kind == "game":
            self.scores = [0, 0]
            self.games[at[seat]] = self.games.get(at[seat], 0) + 1
            return "★ %s wins the game (%s)" % (who, {3: "treble", 2: "double", 1: "single"}[value])
        if kind == "rubber":
            return "★★ %s wins the rubber, %d games to %d" % (who, max(value), min(value))
        return None
