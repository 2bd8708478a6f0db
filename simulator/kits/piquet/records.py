# Piquet's deal records: the event log folded into one JSON-ready object per deal.
from tapis.firmware.cards import RANKS, name
from tapis.firmware.games.piquet.table import describe


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
