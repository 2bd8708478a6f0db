# The club écarté bot behind a panel, and the staking pattern it follows (the Monte Carlo
# of simulator/montecarlo/club_session.py follows it too).
from tapis.firmware.games import panel as B
from tapis.firmware.offboard.rng import Seeded

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
    """Rules of thumb ("rules"): the banking of bank_choice; as a punter the staking
    pattern of stake_for, its unit growing with what it has (2, or a 50th of it). A
    stronger or weaker bot overrides the decisions (bank, stake)."""

    def __init__(self, seed=None):  # plays the same whatever the seed
        self.acted = None
        self.holds = 0

    def presses(self, view):
        if not view["turn"]:
            self.acted = None  # the next turn is a new decision, even if it looks the same
            return []
        point = (view["phase"], view["deal"], view["banker"], view["lays"], view["talia"],
                 tuple(view.get("choices", ())), view.get("msg"))
        if point == self.acted:  # (a press refused says so: then it is a new decision)
            return []
        self.acted = point
        if view["phase"] == "bank":
            choices = view["choices"]
            if view["kind"] is None:  # a new bank
                self.holds = 0
            c = self.bank(view)
            if c == "hold":
                self.holds += 1
            if c == "pass":
                self.holds = 0
                return [(B.REFUSE, 0)]
            return [(B.SELECT, choices.index(c) + 1), (B.CONFIRM, 0)]
        if view["phase"] == "stake":
            s = self.stake(view)
            if s is None:
                return [(B.REFUSE, 0)]
            out = [(B.SELECT, s[0])]
            a = s[1] - view["amount"]  # from the amount shown: the least it may stake (issue 33.5)
            button = B.BET_PLUS if a > 0 else B.BET_MINUS
            a = abs(a)
            while a > 0:
                out.append((button, min(a, 255)))
                a -= min(a, 255)
            out.append((B.CONFIRM, 0))
            return out
        return []

    # ---- the decisions, from the seat's view alone --------------------------------
    def bank(self, view):
        """One of view["choices"] ("pass" gives the bank up)."""
        return bank_choice(view["choices"], self.holds)

    def stake(self, view):
        """(tableau 1..3, amount) within view["range"], or None to sit the deal out."""
        lo, hi = view["range"]
        return stake_for(view["order"], lo, hi, max(UNIT, view["balances"][view["seat"]] // 50))


class RandomBot(ClubBot):
    """Random legal play ("random"): the banker takes any of his choices; a punter sits
    out a third of the deals he may, else backs any tableau with any amount he may.
    Seeded: the same views get the same answers."""

    def __init__(self, seed=1):
        ClubBot.__init__(self)
        self.rng = Seeded(seed)

    def bank(self, view):
        choices = view["choices"]
        return choices[self.rng.below(len(choices))]

    def stake(self, view):
        lo, hi = view["range"]
        if hi <= 0 or (lo == 0 and self.rng.below(3) == 0):
            return None
        lo = max(lo, 1)
        return 1 + self.rng.below(3), lo + self.rng.below(hi - lo + 1)


class AdvisorBot(ClubBot):
    """What the odds advise ("advisor"). A single tableau against the banker's is a fair
    duel (`tapis odds club`: the punter wins exactly as often as the banker), so a stake's
    value comes from the bank's limits alone: a punter paid less than he won (what is left
    of a limited bank), or off because an earlier tableau broke the bank (when he was
    likelier to win: the earlier one beat the same banker), gives the banker an edge. As a
    punter it stakes only where no stake settled before it can reach the bank: on the
    first tableau, at most what the bank holds beyond the stakes already on it (a house
    commission, which every win pays, would make sitting out better still, but the seat's
    display does not show it); as the banker it lays a limited bank whenever it may, keeps a standing one, and never
    answers every stake (a responsible bank is a fair game, the commission aside), passing
    instead."""

    def bank(self, view):
        choices = view["choices"]
        for c in ("lay", "hold"):
            if c in choices:
                return c
        return "pass"

    def stake(self, view):
        lo, hi = view["range"]
        if hi <= 0:
            return None
        unit = max(UNIT, view["balances"][view["seat"]] // 50)
        if view["kind"] == "limited":
            before = sum(a for _s, t, a in view["stakes"] if t == 1)
            safe = min(hi, view["bank"] - before)
        else:
            safe = hi
        if lo == 0 and safe <= 0:
            return None
        if safe >= max(lo, 1):
            return 1, max(lo, min(unit, safe))
        return 1, max(lo, 1)  # the rules ask for more than is safe: the least on the first


BOTS = {"random": RandomBot, "rules": ClubBot, "advisor": AdvisorBot}  # weakest first
