# Club écarté on the table: each seat's view and the meaning of its panel buttons.
#
# The banker, when a decision is due, sees `choices` (lay, respond, respond-fresh, hold,
# pass): SELECT n picks the n-th, CONFIRM applies it (the first if none was picked),
# REFUSE gives the bank up. A punter, at his turn to stake, picks a tableau with
# SELECT 1..3, sets the amount with BET+ / BET- (arg: how many units, 0 meaning 1; it starts
# at the least he may stake, never 0, and stays in his range) and CONFIRMs; REFUSE sits
# the deal out (CONFIRM too, only where nothing may be staked).
from .. import panel as B
from ... import wire as W
from ..rules import CHANCE, IllegalAction
from . import events as R


class ClubTable:
    def __init__(self, game):
        self.game = game
        self.SEATS = game.options.seats
        n = self.SEATS
        self.pick = [0] * n  # banker's choice or punter's tableau, 1-based; 0 none
        self.amount = [0] * n  # the stake being set
        self.msg = [""] * n

    def banker_choices(self):
        out = []
        for c in self.game.choices():
            if c == "respond":
                out.extend(("respond", "respond-fresh"))
            else:
                out.append(c)
        return out

    def press(self, seat, button, arg):
        """Turn a button into a rules action, or None while a choice is being made."""
        g = self.game
        if not 0 <= seat < self.SEATS:
            raise IllegalAction("no seat %r at this table" % (seat,))
        if g.phase == R.BANK and seat == g.banker:
            choices = self.banker_choices()
            if button == B.SELECT:
                if not 1 <= arg <= len(choices):
                    raise IllegalAction("no choice %d: the banker may %s" % (arg, ", ".join(choices)))
                self.pick[seat] = arg
                return None
            if button == B.REFUSE:
                return ("pass", seat, None)
            if button == B.CONFIRM:
                c = choices[(self.pick[seat] or 1) - 1]
                if c.startswith("respond"):
                    return ("respond", seat, c == "respond-fresh")
                return (c, seat, None)
            raise IllegalAction("the banker chooses with SELECT and CONFIRM, or REFUSE to pass the bank")
        if button == B.SELECT:
            if not 1 <= arg <= 3:
                raise IllegalAction("no tableau %d: the punters' tableaux are 1, 2, 3" % arg)
            self.pick[seat] = arg
            return None
        if button in (B.BET_PLUS, B.BET_MINUS):
            step = arg or 1
            self.amount[seat] = self.stake(seat, self.stake(seat) + (step if button == B.BET_PLUS else -step))
            return None
        if button == B.REFUSE:
            return ("skip", seat, None)
        if button == B.CONFIRM:
            a = self.stake(seat)
            if a == 0:
                return ("skip", seat, None)
            return ("stake", seat, (self.pick[seat] or 1, a))
        raise IllegalAction("button %r does nothing in club écarté" % (button,))

    def stake(self, seat, a=None):
        """The amount `a` (default: the one being set) held to what the seat may stake: at
        its turn from the least stake (a first deal's minimum, else 1: sitting out is REFUSE,
        issue 46) to the most, so it starts at the least and BET+ / BET- never leave the
        range (issue 33.5); before its turn, 0 to its balance."""
        g = self.game
        lo, hi = g.stake_range(seat) if g.to_act == seat else (0, g.balances[seat])
        if g.to_act == seat and lo < 1 <= hi:
            lo = 1
        return max(0, lo, min(self.amount[seat] if a is None else a, hi))

    def shoe_fault(self, code):
        """The cut card reported by the shoe becomes the chance action that ends the talia
        after this deal, an empty shoe the one that ends it at once (rules.py "missing");
        other faults are only recorded by the controller."""
        g = self.game
        if code and code[0] == W.CUT and g.phase == R.DEAL and not g.cut:
            return ("cut", CHANCE, None)
        if code and code[0] == W.EMPTY and g.phase == R.DEAL and g.to_act == CHANCE and not g.fresh:
            return ("missing", CHANCE, None)
        return None

    def done(self, seat):
        self.pick[seat] = 0
        self.amount[seat] = 0
        self.msg[seat] = ""

    def refuse(self, seat, why):
        self.msg[seat] = why

    def view(self, seat):
        g = self.game
        lo, hi = g.stake_range(seat)
        v = {"seat": seat, "phase": R.PHASE_NAMES[g.phase], "turn": g.to_act == seat,
             "banker": g.banker, "kind": g.kind, "bank": g.bank, "lays": g.lays,
             "balances": g.balances, "deal": g.deal_no, "talia": g.talia,
             "stakes": [list(s) for s in g.stakes], "pick": self.pick[seat],
             "amount": self.stake(seat), "msg": self.msg[seat], "limits": g.lim}
        if g.pending:  # the supervisor's, from the next bank
            v["pending"] = g.pending
        last = g.last
        if last:
            v["last"] = last
        if g.to_act == seat:
            if g.phase == R.BANK:
                v["choices"] = self.banker_choices()
            elif g.phase == R.STAKE:
                v["range"] = [lo, hi]
                v["order"] = g.punters().index(seat)
        return v
