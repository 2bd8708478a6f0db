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


def _score_of(hand, cat, everything):
    """What a winning declaration scores: the point's cards; the best sequence or set, and
    the others too when the winner declares them (`everything`, 003:80, 003:84)."""
    if cat == 0:
        return D.point_key(hand) >> 8
    if cat == 1:
        return D.sequence_score(hand) if everything else D.sequence_value(D.sequence_key(hand) >> 4)
    return D.set_score(hand) if everything else D.set_value(D.set_key(hand) >> 4)


def _cards_of(hand, cat, everything):
    """The cards a winning declaration uses (for carte rouge)."""
    if cat == 0:
        s = D.point_suit(hand)
        return [c for c in hand if c >> 4 == s]
    if cat == 1:
        out = []
        for length, top, s in D.sequences(hand)[:None if everything else 1]:
            out.extend(s << 4 | r for r in range(top - length + 1, top + 1))
        return out
    ranks = [r for _n, r in D.sets(hand)[:None if everything else 1]]
    return [c for c in hand if rank(c) in ranks]


def shown(cat, e, y):
    """What declaring brings out of elder's and younger's declared keys (0: nothing),
    SPEC §4 after 003:57-71: elder says his count (the point's cards, the sequence's
    length; a set is named whole, 003:84); younger's is said only when it wins or ties;
    only equal counts bring out the pip total or the top card. 0 for what stays unsaid."""
    low = 255 if cat == 0 else 15 if cat == 1 else 0
    tie = e and y and (e | low) == (y | low)
    es = (e if tie else e & ~low) if e else 0
    ys = (y if tie else y & ~low) if y and y >= e else 0
    return es, ys


class Declaring:
    def _next_category(self):
        """Ask both players at the next category, elder first, whatever they hold (an
        answer then says nothing, SPEC §4); score them all after the sets."""
        self.cat += 1
        if self.cat >= len(CATEGORIES):
            self._score_declarations()
            return
        self.phase, self.to_act = DECLARE, self.elder

    def _on_declare(self, seat, declares):
        cat = self.cat
        v = self.verdicts[cat]
        self.emit(("declare" if declares else "sink", seat, CATEGORIES[cat]))
        if v[1]:  # the winner, asked whether he declares his other ones (003:80, 003:84)
            self.verdicts[cat] = (v[0], v[1], declares)
            self._next_category()
            return
        self.declared[seat][cat] = self.holding(seat, cat) if declares else 0
        if seat == self.elder:
            self.to_act = self.younger
            return
        e, y = self.declared[self.elder][cat], self.declared[self.younger][cat]
        for s, key in zip((self.elder, self.younger), shown(cat, e, y)):
            if key:
                self.emit(("holding", s, (CATEGORIES[cat], key)))
        w = D.compare(e, y)
        if w == D.NOBODY:
            word = "equal" if e else "none"
        elif e:
            word = "good" if w == D.ELDER else "not good"
        else:
            word = "good"  # younger's declaration stood alone
        winner = -1 if w == D.NOBODY else (self.elder if w == D.ELDER else self.younger)
        self.verdicts[cat] = (winner, word, True)
        self.emit(("verdict", winner, (CATEGORIES[cat], word)))
        if winner >= 0 and cat > 0:  # asked whether he holds others or not: it says nothing
            self.to_act = winner
            return
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
            everything = self.verdicts[cat][2]
            self._declared_score(w, _score_of(self.hands[w], cat, everything), CATEGORIES[cat])
            if self.options.carte_rouge:
                self.covered[w].update(_cards_of(self.hands[w], cat, everything))
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
