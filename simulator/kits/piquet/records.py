# Piquet's deal records (docs/records.md): the event log folded into one JSON-ready
# object per deal (a deal ends with its "end" event; the last deal of a partie carries
# the Rubicon `result`), with what the deal began from and its inputs, for `tapis replay`.
from tapis.firmware.cards import RANKS, name
from tapis.firmware.games import piquet as game
from tapis.firmware.games.piquet.events import CATEGORIES, CUT, EVENTS
from tapis.firmware.games.piquet.table import describe
from tapis.firmware.games.rules import LAW
from tapis.simulator.kits.schema import Records, base, cards_text, thawed


class Recorder(Records):
    """feed(events) -> the deal records completed by those events."""
    EVENTS = EVENTS

    def __init__(self, seed, options=None):
        self.seed = seed
        self.options = options or game.Options()
        self.current = None
        self.events = []  # the events of the record being made (and of the cut before it)
        self.cut = []
        self.scores = [0, 0]  # in the partie, as the rules keep them
        self.partie = 1
        self.in_partie = 0  # deals of the partie begun (a void one dealt again counts once)
        self.again = False  # the deal that begins next is a void one dealt again

    def resume(self, frozen):
        """Go on from the rules' state at a partie's beginning (the journal's snapshot)."""
        state = thawed(frozen)
        self.scores, self.partie = list(state["scores"]), state["partie_no"]
        self.in_partie = state["in_partie"]
        if state["phase"] != CUT:
            self.in_partie -= 1
            self._open(state["dealer"], state["deal_no"])

    def begin(self, record):
        """Go on from what a record says its deal began from (`tapis replay`)."""
        self.scores, self.partie = list(record["start"]["scores"]), record["partie"]
        self.in_partie = record["start"]["partie_deal"] - 1
        if "cut" not in record:
            self._open(record["dealer"], record["deal"])

    def feed(self, events):
        done = []
        for e in events:
            kind, seat, value = e
            if kind == "deal":
                self._open(seat, value)
                continue
            self.events.append(e)
            if kind == "cut":
                self.cut.append([seat, name(value)])
                self.again = False
                continue
            r = self.current
            if kind == "score":
                self.scores[seat] += value[0]
            if r is None:
                continue
            if kind == "card":
                r["dealt"][seat].append(name(value))
                r["hands"][seat].append(name(value))
            elif kind == "talon":
                r["talon"].append(name(value))
            elif kind == "blanche" and value:
                r["carte_blanche"].append(seat)
            elif kind == "exchange":
                r["exchanges"].append({"seat": seat, "discarded": [name(c) for c in value], "drawn": []})
                for c in value:
                    r["hands"][seat].remove(name(c))
            elif kind == "draw":
                [x for x in r["exchanges"] if x["seat"] == seat][-1]["drawn"].append(name(value))
                r["hands"][seat].append(name(value))
            elif kind == "look" and value:
                r["looked"].append(seat)
            elif kind in ("declare", "sink"):
                d = r["declarations"][value]
                if d["verdict"] is None:
                    d["calls"].append([seat, kind])
                else:  # the winner's other sequences or sets (003:80, 003:84)
                    d["others"] = kind == "declare"
            elif kind == "holding":
                r["declarations"][value[0]]["holdings"].append([seat, describe(value[0], value[1])])
            elif kind == "verdict":
                d = r["declarations"][value[0]]
                d["winner"] = seat if seat >= 0 else None
                d["verdict"] = value[1]
            elif kind == "play":
                r["plays"].append([seat, name(value)])
            elif kind == "trick":
                r["tricks"][seat] += 1
            elif kind == "score":
                pts, reason = value
                r["points"][seat] += pts
                r["scores"] = list(self.scores)
                r["scoring"].append([seat, pts, reason])
                if reason in r["declarations"]:
                    r["declarations"][reason]["score"] = pts
            elif EVENTS[kind] & LAW:  # a misdeal and the void deal
                r["laws"].append([kind, seat, cards_text(value)])
                if kind == "void":
                    r["ended_by"] = "void"
                    self.again = True
                    done.append(self.finish())
            elif kind == "partie":
                v, a, b = value
                r["result"] = {"winner": seat if seat >= 0 else None, "value": v, "scores": [a, b]}
                self.scores = [0, 0]
                self.partie += 1
                self.in_partie = 0
            elif kind == "end":
                done.append(self.finish())
        return done

    def finish(self):
        for h in self.current["hands"]:
            h.sort(key=_order)
        return Records.finish(self)

    def _open(self, dealer, number):
        if not self.again:
            self.in_partie += 1
        self.again = False
        r = base("piquet", number, self.seed, self.options)
        r.update({"partie": self.partie, "dealer": dealer, "elder": 1 - dealer,
                  "dealt": [[], []], "talon": [], "exchanges": [], "looked": [], "hands": [[], []],
                  "carte_blanche": [],
                  "declarations": dict((c, {"calls": [], "holdings": [], "winner": None, "verdict": None,
                                            "score": 0, "others": None}) for c in CATEGORIES),
                  "plays": [], "tricks": [0, 0], "points": [0, 0], "scores": list(self.scores),
                  "scoring": [], "laws": []})
        r["start"] = {"scores": list(self.scores), "partie_deal": self.in_partie}
        if self.cut:
            r["cut"], self.cut = self.cut, []
        self.current = r
        self.events = self.events if r.get("cut") else []
        self.events.append(("deal", dealer, number))


def _order(text):
    return "SHDC".index(text[1]), RANKS.index(text[0])


def at_start(record, evaluator=None):
    """A game positioned where the record's deal began, and a recorder that goes on from
    there (`tapis replay`): the first deal of a partie is replayed from its cut."""
    from tapis.simulator.kits.schema import options_from

    options = options_from(game, record["options"])
    kw = {"evaluator": evaluator} if evaluator is not None else {}
    s = record["start"]
    if "cut" in record:
        g = game.Rules(options, **kw)
        g.deal_no, g.in_partie = record["deal"] - 1, s["partie_deal"] - 1
    else:
        g = game.Rules(options, first_dealer=record["dealer"], **kw)
        g.deal_no, g.in_partie = record["deal"], s["partie_deal"]
    g.scores, g.partie_no = list(s["scores"]), record["partie"]
    recorder = Recorder(record["seed"], options)
    recorder.begin(record)
    return g, recorder
