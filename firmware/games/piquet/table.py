# Piquet on the table: each seat's view and the meaning of its panel buttons.
# ACCEPT / REFUSE answer the yes-or-no questions (carte blanche, looking at the talon,
# declaring or sinking a category); SELECT + CONFIRM exchange or play cards.
# Declarations reach the displays as the terminal's verdicts: "good", "not good", "equal".
from ... import panel as B
from ...rules import IllegalAction
from . import events as R

SEATS = 2
SEQUENCE_NAMES = ("", "", "", "tierce", "quart", "quint", "sixième", "septième", "huitième", "neuvième")
SET_NAMES = ("", "", "", "trio", "quatorze")
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "ten", "jack", "queen", "king", "ace")


def describe(category, key):
    """A declared holding in words: 'point of 5 (49)', 'quint to the king', 'quatorze of aces'."""
    if category == "point":
        return "point of %d (%d)" % (key >> 8, key & 255)
    if category == "sequence":
        n = key >> 4
        return "%s to the %s" % (SEQUENCE_NAMES[n] if n < len(SEQUENCE_NAMES) else "%d cards" % n,
                                 RANK_NAMES[key & 15])
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
        return None

    def done(self, seat):
        self.selected[seat] = []
        self.msg[seat] = ""

    def refuse(self, seat, why):
        self.selected[seat] = []
        self.msg[seat] = why

    def declarations(self):
        """The declarations so far this deal, as the displays show them."""
        g = self.game
        out = []
        for i, cat in enumerate(R.CATEGORIES):
            if i > g.cat and g.phase == R.DECLARE:
                break
            calls = []
            for s in (g.elder, g.younger):
                key = g.declared[s][i]
                if key > 0:
                    calls.append([s, describe(cat, key)])
                elif key == 0 and g.holding(s, i):
                    calls.append([s, "sinks"])
            v = g.verdicts[i]
            out.append({"category": cat, "calls": calls,
                        "verdict": v[1] or None, "winner": v[0] if v[1] else None})
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
        return v
