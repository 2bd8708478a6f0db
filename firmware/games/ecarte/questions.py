# pyright: reportAttributeAccessIssue=false
# (a mixin of the game's rules, rules.py: the state it reads and writes is declared there)
#
# Écarté's variants played inside a hand (SPEC §4, seed 000 "Ставки", seed 001):
# doubling before the third trick, offering the point, and the quick 4-card game. Each is
# switched on by an Options field; pool écarté and rubbers are in play.py's score.
from ...cards import rank, suit
from ..rules import CHANCE, IllegalAction
from .events import ANSWER, DISCARD, PHASE_NAMES, PLAY, PROPOSE, RESPOND


class Questions:
    def hand_points(self, tricks):
        """(winner, points, reason) for a hand played (or claimed) to its end."""
        w, points = self.ev.ecarte_points(tricks, self.vulnerable)
        reason = "vole" if tricks[w] == self.hand_size else "point"
        if self.must_vole >= 0 and tricks[self.must_vole] != self.hand_size:
            # the point was offered and refused: the refuser had to win the vole
            w, points, reason = 1 - self.must_vole, 2, "vole missed"
        return w, points * self.multiplier, reason

    def verify_question(self, kind, seat):
        o = self.options
        if kind == "double":
            if not o.doubling:
                raise IllegalAction("seat %d cannot double: this table does not play the "
                                    "'doubling' variant" % seat)
            self._in_play(kind, seat)
            if self.doubled:
                raise IllegalAction("seat %d cannot double: doubling was already proposed in this hand" % seat)
            done = self.tricks[0] + self.tricks[1]
            if done > 2 or (done == 2 and self.led is not None):
                raise IllegalAction("seat %d cannot double: doubling is proposed before the third "
                                    "trick begins" % seat)
        else:
            if not o.offer_point:
                raise IllegalAction("seat %d cannot offer the point: this table does not play the "
                                    "'offer-point' variant" % seat)
            self._in_play(kind, seat)
            if self.offered:
                raise IllegalAction("seat %d cannot offer the point: it was offered in this hand" % seat)
            if self.played[0] or self.played[1]:
                raise IllegalAction("seat %d cannot offer the point: it is offered before the first "
                                    "card is played (000:113)" % seat)

    def _in_play(self, kind, seat):
        """Once the trump is turned, at a player's turn: the exchange (000:109: "at any
        time before the third trick"; 000:113: the point is offered "before the play") or
        the play; not while the shoe deals, the laws wait, or a question is pending."""
        if self.phase not in (PROPOSE, RESPOND, DISCARD, PLAY):
            raise IllegalAction("seat %d cannot %s now: the table is at the %s" % (
                seat, kind, PHASE_NAMES[self.phase]))

    def ask(self, kind, seat):
        if kind == "double":
            self.doubled = True
        else:
            self.offered = True
        self.question, self.resume = (kind, seat), (self.phase, self.to_act)
        self.phase, self.to_act = ANSWER, 1 - seat

    def answer(self, seat, yes):
        kind, asker = self.question or ("", -1)  # ask() set it
        self.question = None
        self.emit(("accept" if yes else "refuse", seat, None))
        self.phase, self.to_act = self.resume
        if kind == "double":
            if yes:  # the hand's points are doubled for whoever wins it
                self.multiplier = 2
            else:  # the hand ends, scored as the point for the proposer
                self.end_hand(asker, 2 if self.vulnerable == seat else 1, "double refused")
        elif yes:  # the hand ends, scored as the point won by the one who accepted
            self.end_hand(seat, 2 if self.vulnerable == asker else 1, "point offered")
        else:  # refused: he must win the vole, or the offerer scores 2
            self.must_vole = seat

    def showdown(self):
        """The quick game (001:18): 4 cards each, the 9th turned; the higher trump wins the
        deal (1 point); with no trump on either side nobody scores."""
        best = [-1, -1]
        for s in (0, 1):
            for c in self.hands[s]:
                if suit(c) == self.trump_suit and self.strength[rank(c)] > best[s]:
                    best[s] = self.strength[rank(c)]
        shown = (tuple(self.hands[0]), tuple(self.hands[1]))  # both hands are shown
        if best[0] == best[1]:
            self.emit(("showdown", CHANCE, ("no trump",) + shown))
            self.new_deal()
            return
        w = 0 if best[0] > best[1] else 1
        self.emit(("showdown", w, ("higher trump",) + shown))
        self.end_hand(w, 1, "higher trump")
