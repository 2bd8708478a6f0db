# Piquet on the table: each seat's view and the meaning of its panel buttons.
# ACCEPT / REFUSE answer the yes-or-no questions (carte blanche, looking at the talon,
# declaring or sinking a category); SELECT + CONFIRM exchange or play cards.
# Declarations reach the displays as the terminal's verdicts: "good", "not good", "equal".
from .. import panel as B
from ..rules import IllegalAction
from . import events as R
from .declare import shown

SEATS = 2
SEQUENCE_NAMES = ("", "", "", "tierce", "quart", "quint", "sixième", "septième", "huitième", "neuvième")
SET_NAMES = ("", "", "", "trio", "quatorze")
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "ten", "jack", "queen", "king", "ace")


def describe(category, key):
    """A declared holding in words: 'point of 5 (49)', 'quint to the king', 'quatorze of
    aces'; what declaring did not bring out is left unsaid: 'point of 5', 'quint'."""
    if category == "point":  # (strings over 10 characters: not interned on the board)
        if key & 255:
            return "point of %d (%d)" % (key >> 8, key & 255)
        return "point of %d" % (key >> 8)
    if category == "sequence":
        n = key >> 4
        name = SEQUENCE_NAMES[n] if n < len(SEQUENCE_NAMES) else "%d cards" % n
        return "%s to the %s" % (name, RANK_NAMES[key & 15]) if key & 15 else name
    return "%s of %ss" % (SET_NAMES[key >> 4], RANK_NAMES[key & 15])


class PiquetTable:
    SEATS = SEATS

    def __init__(self, game):
        self.game = game
        self.selected = [[], []]  # places (1-based) selected on each panel
        self.msg = ["", ""]

    def hand(self, seat):
        """The hand in display order: the panel's SELECT n means the n-th card here."""
        return sorted(self.game.hands[seat])

    def press(self, seat, button, arg):
        """Turn a button into a rules action, or None while a selection is being made."""
        g = self.game
        if button in (B.ACCEPT, B.REFUSE):
            yes = button == B.ACCEPT
            if g.phase == R.BLANCHE:
                return ("blanche", seat, yes)
            if g.phase == R.LOOK:
                return ("look", seat, yes)
            if g.phase == R.DECLARE:
                return ("declare" if yes else "sink", seat, R.CATEGORIES[g.cat])
            raise IllegalAction("ACCEPT/REFUSE answer nothing now: the table is at the %s"
                                % R.PHASE_NAMES[g.phase])
        hand = self.hand(seat)
        sel = self.selected[seat]
        if button == B.SELECT:
            B.select(sel, arg, hand, g.phase == R.PLAY)
            return None
        if button == B.CONFIRM:
            cards = B.chosen(sel, hand, g.phase == R.PLAY)
            return ("play", seat, cards[0]) if g.phase == R.PLAY else ("exchange", seat, cards)
        raise IllegalAction("button %r does nothing in piquet" % (button,))

    def shoe_fault(self, code):
        """A shoe fault as a rules action (a misdeal: deal.py), or None for a jam or the
        cut card: the controller asks the shoe again for what is still due."""
        from . import faults  # loaded on a fault only
        return faults.shoe_fault(self.game, code)

    def done(self, seat):
        """`seat`'s press moved the game: every selection was of the table as it stood
        (after a hand is thrown in, a CONFIRM would play a place of the next hand)."""
        for s in self.selected:
            s.clear()
        self.msg[seat] = ""

    def refuse(self, seat, why):
        self.selected[seat] = []
        self.msg[seat] = why

    def declarations(self):
        """The declarations so far this deal, as the displays show them: what declaring
        brought out (declare.shown), never whether a seat sank or held nothing."""
        g = self.game
        out = []
        for i, cat in enumerate(R.CATEGORIES):
            v = g.verdicts[i]
            if not v[1]:
                break
            calls = []
            said = shown(i, g.declared[g.elder][i], g.declared[g.younger][i])
            for s, key in zip((g.elder, g.younger), said):
                if key:
                    calls.append([s, describe(cat, key)])
            out.append({"category": cat, "calls": calls, "verdict": v[1], "winner": v[0]})
        return out

    def view(self, seat):
        g = self.game
        other = 1 - seat
        v = {"seat": seat, "hand": self.hand(seat), "phase": R.PHASE_NAMES[g.phase],
             "turn": g.to_act == seat, "dealer": g.dealer, "elder": g.elder,
             "deal": g.deal_no, "partie": g.partie_no, "scores": g.scores, "points": g.points,
             "tricks": g.tricks, "led": g.led, "talon": len(g.talon) - g.taken[0] - g.taken[1],
             "played": g.played[0] + g.played[1], "selected": self.selected[seat],
             "msg": self.msg[seat], "declarations": self.declarations(),
             "rest": list(g.rest_seen[seat]),
             "shown": list(g.dealt[other]) if g.shown[other] else None}
        if g.to_act == seat:
            if g.phase == R.PLAY:
                v["legal"] = g.legal_cards(seat)
            elif g.phase == R.EXCHANGE:
                v["exchange"] = list(g.exchange_range(seat))
            elif g.phase == R.DECLARE:
                v["category"] = R.CATEGORIES[g.cat]
                if g.verdicts[g.cat][1]:  # he won it: does he declare his other ones too?
                    v["category"] = "his other sequences" if g.cat == 1 else "his other sets"
        return v
