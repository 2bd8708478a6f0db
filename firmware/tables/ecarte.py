# Écarté on the table: each seat's view and the meaning of its panel buttons.
from firmware import panel as B
from firmware.rules import ecarte as R

SEATS = 2
PACK = 32


class EcarteTable:
    SEATS = SEATS

    def __init__(self, game):
        self.game = game
        self.selected = [[], []]  # places (1-based) selected on each panel
        self.msg = ["", ""]

    def hand(self, seat):
        """The hand in display order: the panel's SELECT n means the n-th card here."""
        return sorted(self.game.hands[seat])

    def cards_due(self):
        """(cards the shoe should deliver now, size of a fresh pack to load first or 0)."""
        g = self.game
        return len(g.pending), PACK if g.phase == R.DEAL and g.delivered == 0 else 0

    def press(self, seat, button, arg):
        """Turn a button into a rules action, or None while a selection is being made."""
        g = self.game
        if button == B.STAND:
            return ("stand", seat, None)
        if button == B.PROPOSE:
            return ("propose", seat, None)
        if button == B.ACCEPT:
            return ("accept", seat, None)
        if button == B.REFUSE:
            return ("refuse", seat, None)
        if button == B.KING:
            return ("king", seat, None)
        hand = self.hand(seat)
        sel = self.selected[seat]
        if button == B.SELECT:
            if not 1 <= arg <= len(hand):
                raise R.IllegalAction("no card %d in a hand of %d" % (arg, len(hand)))
            if g.phase == R.PLAY:
                sel[:] = [arg]
            elif arg in sel:
                sel.remove(arg)
            else:
                sel.append(arg)
            return None
        if button == B.CONFIRM:
            cards = tuple(hand[i - 1] for i in sorted(sel))
            if g.phase == R.PLAY:
                if len(cards) != 1:
                    raise R.IllegalAction("select one card to play, then CONFIRM")
                return ("play", seat, cards[0])
            return ("discard", seat, cards)
        raise R.IllegalAction("button %r does nothing in écarté" % (button,))

    def shoe_fault(self, code):
        """A shoe fault as a rules action; none is defined yet, so the controller only
        records it and asks the shoe again."""
        return None

    def done(self, seat):
        self.selected[seat] = []
        self.msg[seat] = ""

    def refuse(self, seat, why):
        self.selected[seat] = []
        self.msg[seat] = why

    def view(self, seat):
        g = self.game
        v = {"seat": seat, "hand": self.hand(seat), "trump": g.turned,
             "phase": R.PHASE_NAMES[g.phase], "turn": g.to_act == seat,
             "dealer": g.dealer, "scores": g.scores, "games": g.games,
             "tricks": g.tricks, "led": g.led, "stock": g.stock,
             "selected": self.selected[seat], "msg": self.msg[seat],
             "king": g.can(("king", seat, None))}
        if g.to_act == seat:
            if g.phase == R.PLAY:
                v["legal"] = g.legal_cards(seat)
            elif g.phase == R.DISCARD:
                v["discard"] = list(g.discard_range(seat))
        return v

    @staticmethod
    def public(event):
        """What the table display may show of an event: dealt cards stay face down."""
        if event[0] in ("card", "draw"):
            return [event[0], event[1], None]
        return list(event)
