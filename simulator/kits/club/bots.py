# The club écarté bot behind a panel, and the staking pattern it follows (the Monte Carlo
# of simulator/montecarlo.py follows it too).
from tapis.firmware import panel as B

UNIT = 2  # the bots' stake when no minimum applies
HOLD_TALIAS = 1  # talias a bot keeps a standing bank after the first


def stake_for(order, lo, hi, unit=UNIT):
    """The stated staking pattern: the k-th punter from the banker's left backs tableau
    k mod 3 + 1 with `unit` (the minimum when the rules ask for more), within what the
    bank and his balance allow; with nothing allowed he sits out."""
    if hi <= 0:
        return None
    return order % 3 + 1, min(max(lo, unit), hi)


def bank_choice(choices, holds, respond=True):
    """The bots' banking: lay a limited bank (again after a first break); after a second
    break go responsible; keep a standing bank for HOLD_TALIAS more talias, then pass."""
    if "lay" in choices:
        return "lay"
    if "respond" in choices and respond:
        return "respond"
    if "hold" in choices and holds < HOLD_TALIAS:
        return "hold"
    return "pass"


class ClubBot:
    def __init__(self):
        self.acted = None
        self.holds = 0

    def presses(self, view):
        if not view["turn"]:
            return []
        point = (view["phase"], view["deal"], view["banker"], view["lays"], view["talia"],
                 tuple(view.get("choices", ())))
        if point == self.acted:
            return []
        self.acted = point
        if view["phase"] == "bank":
            choices = view["choices"]
            if view["kind"] is None:  # a new bank
                self.holds = 0
            c = bank_choice(choices, self.holds)
            if c == "hold":
                self.holds += 1
            if c == "pass":
                self.holds = 0
                return [(B.REFUSE, 0)]
            return [(B.SELECT, choices.index(c) + 1), (B.CONFIRM, 0)]
        if view["phase"] == "stake":
            lo, hi = view["range"]
            # the table bots' unit grows with what they have: 2, or a 50th of it
            s = stake_for(view["order"], lo, hi, max(UNIT, view["balances"][view["seat"]] // 50))
            if s is None:
                return [(B.REFUSE, 0)]
            out = [(B.SELECT, s[0])]
            a = s[1]
            while a > 0:
                out.append((B.BET_PLUS, min(a, 255)))
                a -= min(a, 255)
            out.append((B.CONFIRM, 0))
            return out
        return []
