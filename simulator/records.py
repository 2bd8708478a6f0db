# Deal records: the event log folded into one JSON-ready object per deal.
from firmware.cards import name


class Recorder:
    """feed(events) -> the deal records completed by those events."""

    def __init__(self, seed):
        self.seed = seed
        self.current = None
        self.scores = [0, 0]
        self.game = 1

    def feed(self, events):
        done = []
        for kind, seat, value in events:
            if kind == "deal":
                if self.current:
                    done.append(self.current)
                self.current = self._start(seat, value)
                continue
            r = self.current
            if kind == "card":
                r["hands"][seat].append(name(value))
            elif kind == "turn":
                r["trump"] = name(value)
            elif kind in ("propose", "stand", "accept", "refuse", "king"):
                r["actions"].append([kind, seat])
            elif kind == "discard":
                r["exchanges"].append([seat, [name(c) for c in value]])
            elif kind == "trick":
                r["tricks"][seat] += 1
            elif kind == "score":
                r["points"][seat] += value[0]
                r["ended_by"] = value[1]
                self.scores[seat] += value[0]
                r["scores"] = list(self.scores)
            elif kind == "game":
                r["game_over"] = {"winner": seat, "value": value}
                self.scores = [0, 0]
                self.game += 1
            elif kind == "rubber":
                r["rubber_over"] = {"winner": seat, "games": list(value)}
        return done

    def _start(self, dealer, number):
        return {"deal": number, "seed": self.seed, "game": self.game, "dealer": dealer, "hands": [[], []],
                "trump": None, "actions": [], "exchanges": [], "tricks": [0, 0],
                "points": [0, 0], "scores": list(self.scores)}
