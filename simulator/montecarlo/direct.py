# The table without its devices, for Monte Carlo: the game's rules and its table adapter,
# a bot per seat, and a shoe that deals a seeded shuffle, with no frames, links or
# controller in between. What the emulated table (simulator/table/emulated.py) does, done directly:
# - after each round of actions every seat's view is encoded as the controller's display
#   would send it (JSON), and a bot is shown its seat's view, decoded, only when it
#   changed: it sees exactly what its display would show, and nothing else;
# - the bots shown a new view answer together, and their presses go through the table
#   adapter (press, done, refuse) seat by seat in the controller's polling order;
# - the shoe is the emulated one: a fresh pack shuffled with deck.shuffle and the given
#   randbelow, the cut card where the emulated shoe puts it, its faults turned into
#   actions by the adapter.
# Played from the same seed it plays the emulated table's game event for event
# (tests/simulator/montecarlo/test_simulate.py); about three times as fast (docs/performance.md).
import json

from tapis.firmware.offboard import deck
from tapis.firmware import wire as W
from tapis.firmware.games import find
from tapis.firmware.offboard.rng import source
from tapis.firmware.games.rules import CHANCE, IllegalAction
from tapis.simulator import kits
from tapis.simulator.table.emulated import StalledTable


class DirectTable:
    def __init__(self, seed=None, game="ecarte", options=None, evaluator=None, players=None,
                 randbelow=None, rules=None, keep_log=True):
        """seed: the emulated shoe's Seeded(seed) (None: os.urandom), or randbelow(n) for another source;
        rules: a game already built (for a start the kit's new_game does not offer);
        keep_log False: the game's log is cut once on_events has seen it (long runs)."""
        self.name = game
        self.kit = kits.find(game)
        self.game = rules if rules is not None else self.kit.new_game(options, evaluator)
        self.table = find(game).Table(self.game)
        seats = self.table.SEATS
        self.players = players or [self.kit.Bot() for _ in range(seats)]
        if len(self.players) != seats:
            raise ValueError("%s seats %d players here, got %d bots" % (game, seats, len(self.players)))
        self.below = randbelow or source(seed).below
        self.shown = [None] * seats  # the JSON each seat's display last showed
        self.pack, self.dealt, self.cut = [], 0, None
        self.keep_log = keep_log
        # presses, and those the table refused per seat: `late` when another seat's press
        # made the view they answered stale (a king that ended the game while the other
        # chose his card), `refused` otherwise, the bot's own mistakes
        self.presses, self.refused, self.late = 0, [0] * seats, [0] * seats

    def run(self, until, on_events=None):
        """Play until until(game) is true; on_events(new events) as they come."""
        game = self.game
        seen = len(game.log)
        if on_events and seen:
            on_events(game.log[:seen])
        while not until(game):
            if game.to_act == CHANCE:
                self._deal()
            elif not self._round():
                raise StalledTable("no bot acts: %s" % game.whose_turn())
            if on_events and len(game.log) > seen:
                on_events(game.log[seen:])
            seen = len(game.log)
            if not self.keep_log and seen > 1024:
                del game.log[:]
                seen = 0

    def run_deals(self, n, on_events=None):
        self.run(lambda g: g.finished_deals() >= n, on_events)

    def run_games(self, n, on_events=None):
        self.run(lambda g: g.finished_games() >= n, on_events)

    def _deal(self):
        """The shoe answers what the rules ask for: load and shuffle, then deliver."""
        game = self.game
        n, size = game.cards_due()
        if size:
            self.pack = deck.shuffle(deck.pack(size), self.below)
            self.dealt = 0
            span = deck.CUT_SPAN.get(size)
            self.cut = span[0] + self.below(span[1] - span[0] + 1) if span else None
        for _ in range(n):
            if self.dealt == self.cut:
                self.cut = None
                return self._fault(W.CUT)
            if self.dealt >= len(self.pack):
                return self._fault(W.EMPTY)
            game.apply(("shoe", CHANCE, self.pack[self.dealt]))
            self.dealt += 1

    def _fault(self, code):
        action = self.table.shoe_fault(bytes((code,)))
        if action is None and code == W.EMPTY:
            raise StalledTable("the shoe is empty and the rules want more cards")
        if action is not None:
            self.game.apply(action)

    def _round(self):
        """Every seat whose view changed is shown it; the presses are applied. False if
        no seat had anything new to see."""
        t = self.table
        asked = []
        for s in range(t.SEATS):
            data = json.dumps(t.view(s))
            if data != self.shown[s]:
                self.shown[s] = data
                asked.append((s, self.players[s].presses(json.loads(data))))
        for s, presses in asked:
            late = presses and json.dumps(t.view(s)) != self.shown[s]
            for button, arg in presses:
                self.presses += 1
                try:
                    action = t.press(s, button, arg)
                    if action is not None:
                        self.game.apply(action)
                        t.done(s)
                except IllegalAction as e:
                    (self.late if late else self.refused)[s] += 1
                    t.refuse(s, str(e))
        return bool(asked)
