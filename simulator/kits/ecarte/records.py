# Écarté's deal records: the event log folded into one JSON-ready object per deal. What
# goes where follows the game's declaration of its events (firmware/games/ecarte/events.py).
from tapis.firmware.cards import name
from tapis.firmware.games.ecarte.events import EVENTS
from tapis.firmware.rules import INPUT, LAW
from tapis.simulator.kits.show import as_json, card_names


class Recorder:
    """feed(events) -> the deal records completed by those events."""

    def __init__(self, seed):
        self.seed = seed
        self.current = None
        self.scores = [0, 0]
        self.balances = [0, 0]
        self.players = None  # pool écarté: the seats at positions 0 and 1
        self.game = 1

    def feed(self, events):
        done = []
        for kind, seat, value in events:
            if kind == "deal":
                if self.current:
                    done.append(self.current)
                self.current = self._start(seat, value)
                continue
            if kind == "balances":
                self.balances = list(value)
                if self.current:
                    self.current["balances"] = list(value)
                continue
            if kind == "seats":
                self.players = list(value[:2])
                continue
            r = self.current
            if kind == "card":
                r["hands"][seat].append(name(value))
            elif kind == "turn":
                r["trump"] = name(value)
            elif EVENTS[kind] & LAW:  # an irregularity and the laws' answer
                r.setdefault("laws", []).append([kind, seat, card_names(value) if kind != "choices" else as_json(value)])
                if kind == "void":
                    r["ended_by"] = "void"
            elif kind == "discard":
                r["exchanges"].append([seat, [name(c) for c in value]])
            elif kind == "play":
                pass  # the tricks count the play
            elif kind == "bet":
                r.setdefault("bets", []).append([seat, list(value)])
            elif EVENTS[kind] & INPUT:  # the players' other actions
                r["actions"].append([kind, seat])
            elif kind == "trick":
                r["tricks"][seat] += 1
            elif kind == "claimed":
                r["claimed"] = {"seat": seat, "tricks": value}
            elif kind == "showdown":
                r["ended_by"] = value[0]
            elif kind == "score":
                r["points"][seat] += value[0]
                if value[1] != "void":
                    r["ended_by"] = value[1]
                self.scores[seat] += value[0]
                r["scores"] = list(self.scores)
            elif kind == "game":
                r["game_over"] = {"winner": seat, "value": value}
                self.scores = [0, 0]
                self.game += 1
            elif kind == "pay":
                r.setdefault("payments", []).append([seat, value[0], value[1]])
            elif kind == "rubber":
                r["rubber_over"] = {"winner": seat, "games": list(value)}
            elif kind == "pool":
                r["pool_over"] = {"winner": seat}
        return done

    def _start(self, dealer, number):
        r = {"deal": number, "seed": self.seed, "game": self.game, "dealer": dealer, "hands": [[], []],
             "trump": None, "actions": [], "exchanges": [], "tricks": [0, 0],
             "points": [0, 0], "scores": list(self.scores), "balances": list(self.balances)}
        if self.players is not None:
            r["players"] = list(self.players)
        return r
