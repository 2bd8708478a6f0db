# pyright: reportAttributeAccessIssue=false
# (a mixin of the game's rules, rules.py: the state it reads and writes is declared there)
#
# Piquet's declarations, refereed by the terminal (SPEC §4, seed 003:57-107): point,
# sequence, sets, each declared or sunk, elder first; then scored in order, with carte
# blanche, carte rouge and the repique.
from ...cards import rank
from .events import CATEGORIES, DECLARE, PLAY
from .options import HAND
from . import declarations as D


def holding(hand, cat):
    """The key of a hand's best holding in a category (0: nothing to declare)."""
    if cat == 0:
        return D.point_key(hand)
    if cat == 1:
        return D.sequence_key(hand)
    return D.set_key(hand)


def _score_of(hand, cat):
    if cat == 0:
        return D.point_key(hand) >> 8
    if cat == 1:
        return D.sequence_score(hand)
    return D.set_score(hand)


def _cards_of(hand, cat):
    """The cards a winning declaration uses (for carte rouge)."""
    if cat == 0:
        s = D.point_suit(hand)
        return [c for c in hand if c >> 4 == s]
    if cat == 1:
        out = []
        for length, top, s in D.sequences(hand):
            out.extend(s << 4 | r for r in range(top - length + 1, top + 1))
        return out
    ranks = [r for _n, r in D.sets(hand)]
    return [c for c in hand if rank(c) in ranks]



class Declaring:
    def _next_category(self):
        """Move to the next category somebody holds; score them all after the sets."""
        while True:
            self.cat += 1
            if self.cat >= len(CATEGORIES):
                self._score_declarations()
                return
            for s in (self.elder, self.younger):
                if self.holding(s, self.cat):
                    self.phase, self.to_act = DECLARE, s
                    return
                self.declared[s][self.cat] = 0
            self.verdicts[self.cat] = (-1, "none")
            self.emit(("verdict", -1, (CATEGORIES[self.cat], "none")))

    def _on_declare(self, seat, declares):
        key = self.holding(seat, self.cat) if declares else 0
        self.declared[seat][self.cat] = key
        self.emit(("declare" if declares else "sink", seat, CATEGORIES[self.cat]))
        if declares:
            self.emit(("holding", seat, (CATEGORIES[self.cat], key)))
        other = 1 - seat
        if seat == self.elder and self.holding(other, self.cat):
            self.to_act = other
            return
        if seat == self.elder:
            self.declared[other][self.cat] = 0
        e, y = self.declared[self.elder][self.cat], self.declared[self.younger][self.cat]
        w = D.compare(e, y)
        if w == D.NOBODY:
            word = "equal" if e else "none"
        elif e:
            word = "good" if w == D.ELDER else "not good"
        else:
            word = "good"  # younger's declaration stood alone
        winner = -1 if w == D.NOBODY else (self.elder if w == D.ELDER else self.younger)
        self.verdicts[self.cat] = (winner, word)
        self.emit(("verdict", winner, (CATEGORIES[self.cat], word)))
        self._next_category()

    def _score_declarations(self):
        """Seed 003:100-107: carte blanche, point, sequence, sets, in that order; carte
        rouge the moment it is made; repique when 30 is reached before the other scores."""
        for s in (self.elder, self.younger):
            if self.blanche[s]:
                self._declared_score(s, D.CARTE_BLANCHE, "carte blanche")
        for cat in range(len(CATEGORIES)):
            w = self.verdicts[cat][0]
            if w < 0:
                continue
            self._declared_score(w, _score_of(self.hands[w], cat), CATEGORIES[cat])
            if self.options.carte_rouge:
                self.covered[w].update(_cards_of(self.hands[w], cat))
                if not self.rouge[w] and len(self.covered[w]) == HAND:
                    self.rouge[w] = True
                    self._declared_score(w, self.options.carte_rouge, "carte rouge")
        self.phase, self.to_act, self.leader = PLAY, self.elder, self.elder

    def _declared_score(self, seat, points, reason):
        other = self.points[1 - seat]
        self._score(seat, points, reason)
        if self.repique < 0 and self.points[seat] >= 30 and other == 0:
            self.repique = seat
            self._score(seat, D.REPIQUE, "repique")

    # ---- play -------------------------------------------------------------------------
