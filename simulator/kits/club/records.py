# Club écarté's deal records: the event log folded into one JSON-ready object per deal.
from tapis.firmware.cards import name

R_NAMES = {1: "banker", 0: "push", -1: "punter", 2: "off"}


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
