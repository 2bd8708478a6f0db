# Écarté on the table: each seat's view and the meaning of its panel buttons.
# Seats 0 and 1 play (pool écarté: three seats, two in play and a watcher); the seats
# after them are the gallery, who back a player with SELECT 1/2 and BET+/BET-.
from .. import panel as B
from ... import wire as W
from ..rules import CHANCE, IllegalAction
from . import events as R

_SIMPLE = {B.STAND: "stand", B.PROPOSE: "propose", B.ACCEPT: "accept", B.REFUSE: "refuse",
           B.KING: "king", B.ABANDON: "abandon", B.CLAIM: "claim", B.DOUBLE: "double",
           B.OFFER: "offer"}


class EcarteTable:
    def __init__(self, game):
        self.game = game
        o = game.options
        self.SEATS = o.players + o.gallery
        self.selected = [[] for _ in range(self.SEATS)]  # places (1-based) selected on each panel
        self.msg = [""] * self.SEATS
        self.side = [0] * self.SEATS  # the player a gallery seat's BET+/- backs
        self.below = None  # below(n): a place at random for a blind draw (None: os.urandom)

    def position(self, seat):
        """0 or 1 for a seat in play, -1 for the pool's watcher and the gallery."""
        s = self.game.seated
        return 0 if s[0] == seat else 1 if s[1] == seat else -1

    def hand(self, pos):
        """The hand in display order: the panel's SELECT n means the n-th card here."""
        return sorted(self.game.hands[pos])

    def press(self, seat, button, arg):
        """Turn a button into a rules action, or None while a selection is being made."""
        g = self.game
        pos = self.position(seat)
        if pos < 0:
            return self._bet(seat, button, arg)
        if button == B.ABANDON and arg == 1:  # ABANDON 1: the point conceded (002:27)
            return ("abandon", pos, "point")
        if button in _SIMPLE:
            return (_SIMPLE[button], pos, None)
        sel = self.selected[seat]
        if g.phase == R.CHOOSE:
            offered = self.choices()
            if button == B.SELECT:
                if not 1 <= arg <= len(offered):
                    raise IllegalAction("no choice %d: the laws offer %d" % (arg, len(offered)))
                sel[:] = [arg]
                return None
            if button == B.CONFIRM:
                if len(sel) != 1 or g.to_act != pos:
                    raise IllegalAction("select one of the choices, then CONFIRM")
                c = offered[sel[0] - 1]
                if c == "draw blindly":  # the table draws for him, blindly (000:67)
                    n = len(g.choices) - 1  # the places in the dealer's hand: 6 at most
                    if self.below:
                        n = self.below(n)
                    else:  # the board's source, uniform by rejection
                        import os
                        i = 8
                        while i >= n:
                            i = os.urandom(1)[0] & 7
                        n = i
                    c = g.choices[n]
                return ("choose", pos, c)
        hand = self.hand(pos)
        if button == B.SELECT:
            B.select(sel, arg, hand, g.phase == R.PLAY)
            return None
        if button == B.CONFIRM:
            cards = B.chosen(sel, hand, g.phase == R.PLAY)
            return ("play", pos, cards[0]) if g.phase == R.PLAY else ("discard", pos, cards)
        raise IllegalAction("button %r does nothing in écarté" % (button,))

    def choices(self):
        """What the non-dealer's display offers: the laws' choices, a blind draw from the
        dealer's hand as one ("draw 1".."draw n" are its places, 000:67)."""
        g = self.game
        c = g.choices
        if g.law and g.law[0] == "count" and g.law[1] is None and g.law[2] != g.elder:
            return ["draw blindly", c[-1]]
        return list(c)

    def _bet(self, seat, button, arg):
        """A gallery seat: SELECT 1 or 2 picks the player to back, BET+/BET- the amount (from
        1), REFUSE withdraws the bet (the next game sat out)."""
        if button == B.SELECT:
            if arg not in (1, 2):
                raise IllegalAction("SELECT 1 or 2 picks the player to back, not %r" % (arg,))
            self.side[seat] = arg - 1
            return None
        w = self.game.wagers
        was = w.standing.get(seat)
        if button == B.REFUSE:  # sitting the next game out is its own key, as club's (issue 46.6)
            return ("bet", seat, (was[0], 0)) if was else None
        if button in (B.BET_PLUS, B.BET_MINUS):  # arg: how many units, 0 meaning 1
            side = self.side[seat]
            amount = was[1] if was and was[0] == side else 0
            step = arg or 1
            # a bet starts at the least (1) and BET- holds it there: 1 .. the largest bet, as
            # club's stakes are held to their range (issues 33.5, 46.6); none to lower: nothing
            if button == B.BET_MINUS and not amount:
                return None
            bet = min(amount + step, w.max_bet) if button == B.BET_PLUS else max(1, amount - step)
            if bet == amount or not bet:
                return None  # at the end of the range already (or no bet allowed): nothing changes
            return ("bet", seat, (side, bet))
        raise IllegalAction("seat %d bets: SELECT 1/2 picks a player, BET+/BET- sets the bet, REFUSE sits out" % seat)

    def shoe_fault(self, code):
        """A shoe fault as a rules action (laws.py), or None for a jam: the controller
        asks the shoe again for what is still due."""
        from ..faults import shoe_fault  # loaded on a fault only
        g, k, n = self.game, code[0] if code else -1, len(code)
        a = shoe_fault(code)
        if a:
            return a
        if k == W.EMPTY and g.to_act == CHANCE and g.stock > 0:
            return ("missing", CHANCE, None)
        if k == W.OUT_OF_TURN and n == 2:
            pos = self.position(code[1])
            if pos >= 0 and pos != g.dealer:
                return ("outofturn", CHANCE, pos)
        return None

    def done(self, seat):
        """`seat`'s press moved the game: every selection was of the table as it stood
        (after a hand is thrown in, a CONFIRM would play a place of the next hand)."""
        for s in self.selected:
            s.clear()
        self.msg[seat] = ""

    def refuse(self, seat, why):
        self.selected[seat] = []
        self.msg[seat] = why

    def view(self, seat):
        g = self.game
        pos = self.position(seat)
        if pos < 0:
            return self._gallery_view(seat)
        blind = g.phase in (R.DEAL, R.CUT) or (g.phase == R.CHOOSE and g.resume[0] == R.DEAL)
        v = {"seat": seat, "hand": [] if blind else self.hand(pos), "trump": g.turned,
             "phase": R.PHASE_NAMES[g.phase], "turn": g.to_act == pos,
             "dealer": g.dealer, "scores": g.scores, "games": g.games,
             "tricks": g.tricks, "led": g.led, "stock": g.stock,
             "selected": self.selected[seat], "msg": self.msg[seat],
             "king": g.king_open(pos), "balances": g.wagers.balances}
        self._limits(v)
        if pos != seat or g.options.pool:
            v["position"] = pos
        if g.options.doubling or g.options.offer_point:
            v["may"] = [k for k in ("double", "offer") if g.can((k, pos, None))]
        if g.options.pool:
            v["pool"] = g.wagers.pool
        if g.to_act == pos:
            if g.phase == R.PLAY:
                v["legal"] = g.legal_cards(pos)
            elif g.phase == R.DISCARD:
                v["discard"] = list(g.discard_range(pos))
            elif g.phase == R.CHOOSE:
                v["choices"] = self.choices()
            elif g.phase == R.ANSWER:
                v["question"] = g.question[0]
        if g.multiplier != 1:
            v["doubled"] = True
        return v

    def _gallery_view(self, seat):
        g = self.game
        bet = g.wagers.standing.get(seat, (self.side[seat], 0))
        return self._limits({"seat": seat, "gallery": True, "hand": [], "players": list(g.players()),
                             "side": self.side[seat], "bet": list(bet), "scores": g.scores,
                             "phase": R.PHASE_NAMES[g.phase], "balances": g.wagers.balances,
                             "msg": self.msg[seat]})

    def _limits(self, v):
        """The stake and the largest bet in force; the supervisor's, from the next game."""
        w = self.game.wagers
        v["limits"] = [w.stake, w.max_bet]
        if w.next:
            v["pending"] = w.next
        return v
