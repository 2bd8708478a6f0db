# Écarté's deal records (docs/records.md): the event log folded into one JSON-ready
# object per deal, with what the deal began from (`start`) and its inputs, so that
# `tapis replay` re-derives it from the record alone. What goes where follows the
# game's declaration of its events (firmware/games/ecarte/events.py).
from tapis.firmware.cards import name
from tapis.firmware.games import ecarte as game
from tapis.firmware.games.ecarte.events import CUT, EVENTS
from tapis.firmware.games.rules import INPUT, LAW
from tapis.simulator.kits.schema import Records, as_json, base, cards_text, thawed

# what the rules do with a first card out of the shoe: lock the gallery's bets (rules.py)
_OUT_OF_SHOE = ("card", "unread", "exposed", "double feed")


class Recorder(Records):
    """feed(events) -> the deal records completed by those events."""
    EVENTS = EVENTS

    def __init__(self, seed, options=None):
        self.seed = seed
        self.options = options or game.Options()
        self.current = None
        self.events = []  # the events of the record being made (and of the cut before it)
        self.cut = []
        # what a deal begins from, kept as the rules keep it (rules.py, wagers.py)
        self.scores = [0, 0]
        self.games = [0, 0]
        self.seated = list(range(self.options.players))
        self.streak = [-1, 0]
        self.balances = [0] * (self.options.players + self.options.gallery)
        self.pot = 0
        self.standing = {}
        self.locked = None
        self.game = 1

    def resume(self, frozen):
        """Go on from a game's state (the journal's snapshot of a game begun in a session):
        the deal it holds has just begun."""
        state = thawed(frozen)
        for k in ("scores", "games", "seated", "streak"):
            setattr(self, k, list(state[k]))
        w = thawed(frozen["wagers"])
        self.balances, self.pot, self.standing = list(w["balances"]), w["pool"], dict(w["standing"])
        self.locked = None if w["locked"] is None else [list(x) for x in w["locked"]]
        self.game = state["game_no"]
        if state["phase"] != CUT:
            self._open(state["dealer"], state["deal_no"])

    def begin(self, record):
        """Go on from what a record says its deal began from (`tapis replay`)."""
        s = record["start"]
        self.scores, self.games = list(s["scores"]), list(s["games"])
        self.seated, self.streak = list(s["seated"]), list(s["streak"])
        self.balances, self.pot = list(s["balances"]), s["pool"]
        self.standing = dict((b, (side, n)) for b, side, n in s["standing"])
        self.locked = s["locked"]
        self.game = record["game_no"]
        if "cut" not in record:
            self._open(record["dealer"], record["deal"])

    def feed(self, events):
        done = []
        for e in events:
            kind, seat, value = e
            if kind == "deal":
                if self.current:
                    done.append(self.finish())
                self._open(seat, value)
                continue
            self.events.append(e)
            self._keep(kind, seat, value)
            r = self.current
            if r is None:
                if kind == "cut":
                    self.cut.append([seat, name(value)])
                continue
            if kind in _OUT_OF_SHOE and self.locked is None:
                players = self.seated[:2]
                self.locked = [[b, players[side], players[1 - side], n]
                               for b, (side, n) in sorted(self.standing.items()) if b not in players]
            if kind == "card":
                r["hands"][seat].append(name(value))
            elif kind == "turn":
                r["trump"] = name(value)
            elif kind == "draw":
                r["exchanges"][-1]["drawn"].append(name(value))
            elif EVENTS[kind] & LAW:  # an irregularity and the laws' answer
                r["laws"].append([kind, seat, cards_text(value) if kind != "choices" else as_json(value)])
                if kind == "void":
                    r["ended_by"] = "void"
                elif kind == "extra" and r["exchanges"] and r["trump"]:
                    r["exchanges"][-1]["drawn"].append(name(value))  # drawn with the one before
            elif kind == "discard":
                r["exchanges"].append({"seat": seat, "discarded": [name(c) for c in value], "drawn": []})
            elif kind == "play":
                r["plays"].append([seat, name(value)])
            elif kind == "bet":
                r["bets"].append([seat, list(value)])
            elif EVENTS[kind] & INPUT:  # the players' other actions
                r["actions"].append([kind, seat] if value is None else [kind, seat, value])
            elif kind == "trick":
                r["tricks"][seat] += 1
            elif kind == "claimed":
                r["claimed"] = {"seat": seat, "tricks": value}
            elif kind == "showdown":
                r["ended_by"] = value[0]
                r["showdown"] = cards_text(list(value[1:]))
            elif kind == "score":
                r["points"][seat] += value[0]
                if value[1] != "void":
                    r["ended_by"] = value[1]
                r["scores"] = list(self.scores)
            elif kind == "game":
                r["game_over"] = {"winner": seat, "value": value}
            elif kind == "pay":
                r["payments"].append([seat, value[0], value[1]])
            elif kind == "rubber":
                r["rubber_over"] = {"winner": seat, "games": list(value)}
            elif kind == "pool":
                r["pool_over"] = {"winner": seat, "amount": value}
            elif kind == "balances":
                r["balances"] = list(value)
            if self.options.pool:
                r["pool"] = self.pot
        return done

    def _keep(self, kind, seat, value):
        """What the rules keep from one deal to the next, kept alike."""
        if kind == "score":
            self.scores[seat] += value[0]
        elif kind == "game":
            self.scores = [0, 0]
            self.game += 1
            self.locked = None  # the next game's bets are locked at its first card
            if self.options.pool:
                w = self.seated[seat]
                self.streak = [w, self.streak[1] + 1 if self.streak[0] == w else 1]
            else:
                self.games[seat] += 1
        elif kind == "rubber":
            self.games = [0, 0]
        elif kind == "pool":
            self.streak, self.pot = [-1, 0], 0
        elif kind == "pay" and value[0] == "pool":
            self.pot += value[1]
        elif kind == "balances":
            self.balances = list(value)
        elif kind == "seats":
            self.seated = list(value)
        elif kind == "bet":
            side, n = value
            if n:
                self.standing[seat] = (side, n)
            else:
                self.standing.pop(seat, None)

    def _open(self, dealer, number):
        r = base("ecarte", number, self.seed, self.options)
        r.update({"game_no": self.game, "dealer": dealer, "players": self.seated[:2],
                  "hands": [[], []], "trump": None, "actions": [], "exchanges": [], "plays": [],
                  "tricks": [0, 0], "laws": [], "bets": [], "payments": [], "points": [0, 0],
                  "scores": list(self.scores), "balances": list(self.balances)})
        r["start"] = {"scores": list(self.scores), "games": list(self.games),
                      "seated": list(self.seated), "streak": list(self.streak),
                      "balances": list(self.balances), "pool": self.pot,
                      "standing": [[b, side, n] for b, (side, n) in sorted(self.standing.items())],
                      "locked": None if self.locked is None else [list(x) for x in self.locked]}
        if self.options.pool:
            r["pool"] = self.pot
        if self.cut:
            r["cut"], self.cut = self.cut, []
        self.current = r
        self.events = self.events if r.get("cut") else []
        self.events.append(("deal", dealer, number))


def at_start(record, evaluator=None):
    """A game positioned where the record's deal began, and a recorder that goes on from
    there (`tapis replay`): a deal cut for is replayed from the cut."""
    from tapis.simulator.kits.schema import options_from

    options = options_from(game, record["options"])
    kw = {"evaluator": evaluator} if evaluator is not None else {}
    if "cut" in record:
        g = game.Rules(options, **kw)
    else:
        g = game.Rules(options, first_dealer=record["dealer"], **kw)
        s = record["start"]
        g.deal_no, g.game_no = record["deal"], record["game_no"]
        for k in ("scores", "games", "seated", "streak"):
            setattr(g, k, list(s[k]))
        w = g.wagers
        w.balances, w.pool = list(s["balances"]), s["pool"]
        w.standing = dict((b, (side, n)) for b, side, n in s["standing"])
        w.locked = None if s["locked"] is None else [tuple(x) for x in s["locked"]]
    recorder = Recorder(record["seed"], options)
    recorder.begin(record)
    return g, recorder
