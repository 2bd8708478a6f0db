# pyright: reportAttributeAccessIssue=false
# (a mixin of the game's rules, rules.py: the state it reads and writes is declared there)
#
# Piquet's play and score (SPEC §4 "Play", "Rubicon scoring"): tricks, the lead and the
# trick points, pique, the cards and capot, the partie's end and its Rubicon value.
from ... import evaluate
from ...cards import TEN, name, rank
from ..rules import IllegalAction
from ..rules import show as _show
from . import declarations as D

TRICKS = 12


def rubicon(winner_score, loser_score):
    """The partie's value for its winner: (winner - loser) + 100 when the loser crossed
    the Rubicon (100), else winner + loser + 100. Seed 003: 105:101 -> 104, 97:89 -> 286."""
    if loser_score >= 100:
        return winner_score - loser_score + 100
    return winner_score + loser_score + 100


class Playing:
    def _verify_play(self, seat, c):
        if c not in self.hands[seat]:
            raise IllegalAction("seat %d cannot play %s: not in its hand" % (seat, _show(c)))
        legal = self.legal_cards(seat)
        if c not in legal:
            raise IllegalAction("seat %d cannot play %s: it must follow suit (legal: %s)" % (
                seat, name(c), " ".join(name(x) for x in legal)))

    def _on_play(self, seat, c):
        self.hands[seat].remove(c)
        self.played[seat].append(c)
        self.emit(("play", seat, c))
        if self.led is None:
            self.led, self.to_act = c, 1 - seat
            if not self.options.cent:
                self._play_score(seat, 1, "lead")
            return
        lead = self.led
        won = self.ev.trick_winner(lead, c, -1, evaluate.ACE_HIGH)
        winner = seat if won else 1 - seat
        self.tricks[winner] += 1
        n = sum(self.tricks)
        self.emit(("trick", winner, n))
        self.led, self.leader, self.to_act = None, winner, winner
        if self.options.cent:
            high = (1 if rank(lead) >= TEN else 0) + (1 if rank(c) >= TEN else 0)
            if high:
                self._play_score(winner, high, "trick")
        elif won:
            self._play_score(winner, 1, "trick")
        if n == TRICKS and self.options.last_trick:
            self._play_score(winner, self.options.last_trick, "last trick")
        e = self.elder
        if winner == e and self.tricks[e] == 7 and self.tricks[1 - e] == 0:
            self.cards_early = True  # seed 003:113: the 10 counts toward pique at once
            self._play_score(e, 10, "cards")
        if n == TRICKS:
            self._end_deal()

    def _play_score(self, seat, points, reason):
        self._score(seat, points, reason)
        e = self.elder
        if seat == e and self.pique < 0 and self.repique < 0 and \
                self.points[e] >= 30 and self.points[1 - e] == 0:
            self.pique = e
            self._score(e, D.PIQUE, "pique")

    def _end_deal(self):
        t = self.tricks
        for s in (0, 1):
            if t[s] == TRICKS:
                self._score(s, 30 if self.cards_early else 40, "capot")
            elif t[s] * 2 > TRICKS and not self.cards_early:
                self._play_score(s, 10, "cards")
        self.finished += 1
        o, n = self.options, self.in_partie
        if not o.deals:
            over = max(self.scores) >= o.target
        elif n == o.deals:  # a tie after six deals: two more, one dealt by each (SPEC §4)
            over = self.scores[0] != self.scores[1]
        else:
            over = n >= o.deals + 2  # then, still equal, the partie is drawn
        if over:
            self._end_partie()
        self.emit(("end", self.dealer, self.deal_no))
        if over and self.cuts:
            self._start_cut()
        else:
            self._new_deal()

    def _end_partie(self):
        a, b = self.scores
        if a == b:
            winner, value = -1, 0
        else:
            winner = 0 if a > b else 1
            w, l = max(a, b), min(a, b)
            value = w - l if self.options.cent else rubicon(w, l)
        # the last partie's result only: a session's are in its events ("partie"), and
        # a board that kept them all would fill its heap (and every snapshot) in a long session
        self.results[:] = [(winner, value, (a, b))]
        self.emit(("partie", winner, (value, a, b)))
        self.parties += 1
        self.partie_no += 1
        self.in_partie = 0
        self.scores = [0, 0]

    # ---- helpers ---------------------------------------------------------------------
    def _score(self, seat, points, reason):
        self.points[seat] += points
        self.scores[seat] += points
        self.emit(("score", seat, (points, reason)))
