# Bots against bots on the rules alone, with no links, devices or clock: a seeded shoe
# deals, each seat's bot sees its view (JSON round-tripped, as a display receives it)
# whenever it changes, and its presses go through the game's table adapter as a panel's
# would. About ten times the emulated table's speed; what the bots' strengths are
# measured with (benchmarks/bots.py) and their refusals counted.
import json

from tapis.firmware import deck
from tapis.firmware import wire as W
from tapis.firmware.games import find
from tapis.firmware.rng import Seeded
from tapis.firmware.rules import CHANCE, IllegalAction
from tapis.simulator import kits


class Stalled(RuntimeError):
    pass


class Match:
    """`players`: one bot per seat (None: the kit's Bot). `refused` counts the presses
    the table refused, per seat (`late` those made stale by another seat's); `presses`
    every press."""

    def __init__(self, game, seed, players=None, options=None, evaluator=None):
        self.kit = kits.find(game)
        self.game = self.kit.new_game(options, evaluator)
        self.table = find(game).Table(self.game)
        n = self.table.SEATS
        self.players = list(players) if players else [self.kit.Bot() for _ in range(n)]
        self.rng = Seeded(seed)
        self.pack, self.dealt, self.cut = [], 0, None
        self.shown = [None] * n  # the view each seat last saw (as JSON text)
        self.refused = [0] * n
        self.late = [0] * n
        self.presses = 0

    def _shoe(self):
        g, t = self.game, self.table
        n, size = g.cards_due()
        if size:
            self.pack = deck.shuffle(deck.pack(size), self.rng.below)
            self.dealt = 0
            span = deck.CUT_SPAN.get(size)
            self.cut = span[0] + self.rng.below(span[1] - span[0] + 1) if span else None
        for _ in range(n):
            if self.dealt == self.cut:  # the cut card: the shoe stops; the next ask goes on
                self.cut = None
                action = t.shoe_fault(bytes((W.CUT,)))
                if action is not None:
                    g.apply(action)
                return
            g.apply(("shoe", CHANCE, self.pack[self.dealt]))
            self.dealt += 1
            if g.to_act != CHANCE:
                return

    def step(self):
        """Deal what is due, or show every seat whose view changed its new view, then
        make the presses they answered with, seat by seat, as a table refreshes its
        displays and then reads the panels. A refusal of presses answering a view that
        the presses before them made stale (a king that ended the game while the other
        player chose his card) counts in `late`, the others in `refused`: those are the
        bot's own mistakes. False when nothing moved (a stall)."""
        if self.game.to_act == CHANCE:
            self._shoe()
            return True
        answers = []
        for s, bot in enumerate(self.players):
            text = json.dumps(self.table.view(s))
            if text != self.shown[s]:
                self.shown[s] = text
                answers.append((s, bot.presses(json.loads(text))))
        for s, presses in answers:
            late = presses and json.dumps(self.table.view(s)) != self.shown[s]
            for button, arg in presses:
                self.presses += 1
                try:
                    action = self.table.press(s, button, arg)
                    if action is not None:
                        self.game.apply(action)
                        self.table.done(s)
                except IllegalAction as e:
                    (self.late if late else self.refused)[s] += 1
                    self.table.refuse(s, str(e))
        return bool(answers)

    def run(self, until, most=10 ** 7):
        """Step until until(game); Stalled if the bots stop answering."""
        for _ in range(most):
            if until(self.game):
                return self.game
            if not self.step():
                raise Stalled("the bots stopped at %r" % (self.table.view(self.game.to_act)
                                                         if self.game.to_act >= 0 else None,))
        raise Stalled("no end after %d steps" % most)

    def run_deals(self, n):
        return self.run(lambda g: g.finished_deals() >= n)

    def run_games(self, n):
        return self.run(lambda g: g.finished_games() >= n)
