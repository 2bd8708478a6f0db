# Piquet in the simulator: the bot behind a panel, the deal recorder and the table
# display renderer.
from tapis.firmware import panel as B
from tapis.firmware.cards import JACK, KING, QUEEN, RANKS, TEN, name, rank, suit
from tapis.firmware.declarations import sequences
from tapis.firmware.rules import piquet as R
from tapis.firmware.tables.piquet import PiquetTable, describe
from tapis.simulator.render import SEAT_NAMES, pretty

# How much a card is worth keeping, by rank (6..A): high cards win tricks.
_RANK_KEEP = {4: 0, 5: 0, 6: 1, 7: 2, 8: 4, 9: 5, 10: 6, 11: 8, 12: 10}


def keep_values(hand):
    """A keep value per card: its rank, + sequences it belongs to, + set prospects,
    + stoppers (a guarded king or queen), + length in the suit (the point)."""
    in_seq = set()
    for length, top, s in sequences(hand):
        for r in range(top - length + 1, top + 1):
            in_seq.add(s << 4 | r)
    by_rank, by_suit = {}, {}
    for c in hand:
        by_rank[rank(c)] = by_rank.get(rank(c), 0) + 1
        by_suit[suit(c)] = by_suit.get(suit(c), 0) + 1
    out = {}
    for c in hand:
        r, n = rank(c), by_suit[suit(c)]
        v = _RANK_KEEP.get(r, 0)
        if c in in_seq:
            v += 7
        elif any((suit(c) << 4 | r2) in hand for r2 in (r - 1, r + 1)):
            v += 2  # a sequence in the making
        if r >= TEN and by_rank[r] >= 2:
            v += 2 * by_rank[r]  # trio or quatorze in prospect
        if (r == KING and n >= 2) or (r == QUEEN and n >= 3) or (r == JACK and n >= 4):
            v += 3  # a stopper against the opponent's long suit
        if n >= 4:
            v += n - 3
        out[c] = v
    return out


def piquet_discard(hand, lo, hi, elder):
    """Elder takes his whole part (the usual advice); younger throws his weak cards,
    between lo and hi. The lowest keep values go first (seed 003:155)."""
    values = keep_values(hand)
    order = sorted(hand, key=lambda c: (values[c], rank(c)))
    if elder:
        n = hi
    else:
        n = max(lo, min(hi, sum(1 for c in hand if values[c] < 6)))
    return order[:n]


def piquet_card(view):
    """Lead a master card (the best left in its suit) from the longest suit, else the
    lowest of the longest suit. Follow: win as cheaply as possible, else throw the
    lowest card, keeping stoppers."""
    legal, hand = view["legal"], view["hand"]
    gone = set(view["played"]) | set(hand)
    length = lambda c: sum(1 for x in hand if suit(x) == suit(c))
    if view["led"] is None:
        masters = [c for c in legal if all((suit(c) << 4 | r) in gone for r in range(rank(c) + 1, 13))]
        if masters:
            return max(masters, key=lambda c: (length(c), rank(c)))
        return min(legal, key=lambda c: (-length(c), rank(c)))
    led = view["led"]
    winners = [c for c in legal if suit(c) == suit(led) and rank(c) > rank(led)]
    if winners:
        return min(winners, key=rank)
    values = keep_values(hand)
    return min(legal, key=lambda c: (values[c], rank(c)))


class PiquetBot:
    def __init__(self):
        self.acted = None  # the decision point last answered, so each is answered once

    def presses(self, view):
        if not view["turn"]:
            return []
        point = (view["deal"], view["phase"], tuple(view["hand"]), view["led"],
                 tuple(view["tricks"]), view.get("category"), view["talon"])
        if point == self.acted:
            return []
        self.acted = point
        phase, hand = view["phase"], view["hand"]
        if phase in ("blanche", "look", "declare"):
            return [(B.ACCEPT, 0)]  # declare everything, and always look
        out = []
        if phase == "exchange":
            lo, hi = view["exchange"]
            for c in piquet_discard(hand, lo, hi, view["seat"] == view["elder"]):
                out.append((B.SELECT, hand.index(c) + 1))
        elif phase == "play":
            out.append((B.SELECT, hand.index(piquet_card(view)) + 1))
        out.append((B.CONFIRM, 0))
        return out


class Recorder:
    """feed(events) -> the deal records completed by those events (a deal ends with
    its "end" event; the last deal of a partie carries the Rubicon `result`)."""

    def __init__(self, seed):
        self.seed = seed
        self.current = None
        self.scores = [0, 0]
        self.partie = 1
        self.cut = []

    def feed(self, events):
        done = []
        for kind, seat, value in events:
            if kind == "cut":
                self.cut.append([seat, name(value)])
                continue
            if kind == "deal":
                self.current = self._start(seat, value)
                continue
            r = self.current
            if r is None:
                continue
            if kind == "card":
                r["dealt"][seat].append(name(value))
                r["hands"][seat].append(name(value))
            elif kind == "blanche" and value:
                r["carte_blanche"].append(seat)
            elif kind == "exchange":
                r["exchanges"].append([seat, len(value)])
                for c in value:
                    r["hands"][seat].remove(name(c))
            elif kind == "draw":
                r["hands"][seat].append(name(value))
            elif kind in ("declare", "sink"):
                r["declarations"][value]["calls"].append([seat, kind])
            elif kind == "holding":
                r["declarations"][value[0]]["holdings"].append([seat, describe(value[0], value[1])])
            elif kind == "verdict":
                d = r["declarations"][value[0]]
                d["winner"] = seat if seat >= 0 else None
                d["verdict"] = value[1]
            elif kind == "trick":
                r["tricks"][seat] += 1
            elif kind == "score":
                pts, reason = value
                r["points"][seat] += pts
                self.scores[seat] += pts
                r["scores"] = list(self.scores)
                r["scoring"].append([seat, pts, reason])
                if reason in r["declarations"]:
                    r["declarations"][reason]["score"] = pts
            elif kind == "partie":
                v, a, b = value
                r["result"] = {"winner": seat if seat >= 0 else None, "value": v, "scores": [a, b]}
                self.scores = [0, 0]
                self.partie += 1
            elif kind == "end":
                for h in r["hands"]:
                    h.sort(key=_order)
                done.append(r)
                self.current = None
        return done

    def _start(self, dealer, number):
        r = {"deal": number, "seed": self.seed, "game": "piquet", "partie": self.partie,
             "dealer": dealer, "elder": 1 - dealer, "dealt": [[], []], "hands": [[], []],
             "carte_blanche": [], "exchanges": [],
             "declarations": {c: {"calls": [], "holdings": [], "winner": None, "verdict": None, "score": 0}
                              for c in ("point", "sequence", "sets")},
             "tricks": [0, 0], "points": [0, 0], "scores": list(self.scores), "scoring": []}
        if self.cut:
            r["cut"], self.cut = self.cut, []
        return r


def _order(text):
    return "SHDC".index(text[1]), RANKS.index(text[0])


class Renderer:
    """Watches the table display's views; `hands()` gives each seat's hand as its own
    display shows it (the watcher sees the players' displays too)."""

    def __init__(self, write, hands, symbols=True):
        self.write, self.hands, self.symbols = write, hands, symbols
        self.trick = []
        self.scores = [0, 0]
        self.partie = 1
        self.result = None

    def cards(self, cs):
        return " ".join(pretty(c, self.symbols) for c in sorted(cs, key=lambda c: (suit(c), -rank(c))))

    def on_view(self, view):
        for kind, seat, value in view.get("events", ()):
            line = self.line(kind, seat, value)
            if line:
                self.write(line)

    def line(self, kind, seat, value):
        who = SEAT_NAMES[seat] if seat in (0, 1) else ""
        if kind == "cut":
            return "  %s cuts %s" % (who, pretty(value, self.symbols))
        if kind == "deal":
            return "\n── Partie %d · deal %d · %s deals, %s is elder ──" % (
                self.partie, value, who, SEAT_NAMES[1 - seat])
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



class PiquetKit:
    """The registry entry (simulator/games.py): a game is a partie."""
    name = "piquet"
    title = "piquet"
    Table = PiquetTable
    Bot = PiquetBot
    Recorder = Recorder
    Renderer = Renderer
    # --variant NAME -> the Options it plays with
    VARIANTS = {
        "carte-rouge": lambda: R.Options(carte_rouge=20),
        "last-trick-10": lambda: R.Options(last_trick=10),
        "au-cent": R.cent,
    }

    @staticmethod
    def new_game(options=None, evaluator=None):
        kw = {"evaluator": evaluator} if evaluator is not None else {}
        return R.Piquet(options, **kw)

    @staticmethod
    def finished_deals(game):
        return game.finished

    @staticmethod
    def finished_games(game):
        return game.parties

