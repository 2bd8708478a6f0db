# Club écarté at the person's seat: the keys of the panel, what the seat's display shows
# (firmware/tables/club.py `view`), what to do now, and the hint. The tableaux play
# themselves; a seat banks or stakes. Everything here is read from the seat's view.
from tapis.firmware.games import panel as B

from tapis.host.play import look

KEYS = {str(n): (B.SELECT, n) for n in range(1, 10)}
KEYS.update({"enter": (B.CONFIRM, 0), "r": (B.REFUSE, 0),
             "plus": (B.BET_PLUS, 1), "minus": (B.BET_MINUS, 1),
             "right_square_bracket": (B.BET_PLUS, 10), "left_square_bracket": (B.BET_MINUS, 10)})
HELP = (("1-5", "banker: SELECT choice n (lay, respond, hold, pass…)"),
        ("1-3", "punter: SELECT the tableau to back"),
        ("+ / -", "BET+ / BET-: the stake up or down by 1"),
        ("] / [", "BET+ / BET-: the stake up or down by 10"),
        ("Enter", "CONFIRM: the banker's choice (the first if none picked), or the stake"),
        ("r", "REFUSE: the banker passes the bank; a punter sits the deal out (said on a line)"))
CHOICES = {"lay": "lay a limited bank", "respond": "hold a responsible bank",
           "respond-fresh": "responsible bank, fresh shoe", "hold": "keep the bank another talia",
           "pass": "pass the bank"}
OUTCOMES = {1: "banker wins", 0: "en carte (push)", -1: "punter wins", 2: "off"}


def _who(view, s):
    return "you" if s == view["seat"] else "seat %d" % s


def screen(view, board):
    kind = view["kind"]
    bank = "deciding" if kind is None else (
        "limited bank holding %d (laid %s)" % (view["bank"], "once" if view["lays"] == 1 else "twice")
        if kind == "limited"
        else "responsible bank")
    banker = "You bank" if view["banker"] == view["seat"] else "Seat %d banks" % view["banker"]
    out = [look.line(("%s · %s" % (banker, bank), "bold"), " · deal %d · talia %d" % (view["deal"], view["talia"])),
           look.line(("Balances  ", "bold"), " · ".join(
               "%s %d" % (_who(view, s), b) for s, b in enumerate(view["balances"])))]
    lim = view.get("limits")
    if lim:  # the limits in force (the supervisor's, once set: firmware/operator/commands.py)
        pend = view.get("pending")
        out.append(look.line(("Limits    ", "bold"), "bank %d · minimums %d and %d" % tuple(lim),
                             " · from the next bank: bank %d, minimums %d and %d" % tuple(pend) if pend else ""))
    stakes = ", ".join("%s %d on tableau %d" % (_who(view, s), a, t) for s, t, a in view["stakes"])
    out.append(look.line(("Stakes    ", "bold"), stakes or "—"))
    last = view.get("last")
    if last:
        out.append(look.line(("Last deal %d" % last["deal"], "bold"), "  trump ", look.card(last["trump"])))
        names = ["Banker   "] + ["Tableau %d" % t for t in (1, 2, 3)]
        for t, cs in enumerate(last["tableaux"]):
            tail = ""
            if t:
                on = [(s, a) for s, tab, a in last["stakes"] if tab == t]
                tail = "   %s" % OUTCOMES.get(last["results"][t - 1], "?") + "".join(
                    " · %s staked %d" % (_who(view, s), a) for s, a in on)
            out.append(look.line("  %s  " % names[t], look.cards(cs), tail))
    if view["turn"] and view["phase"] == "stake":
        lo, hi = view["range"]
        tabs = look.line(*[("[%d]" % t, "reverse") if t == (view["pick"] or 1) else " %d " % t for t in (1, 2, 3)])
        out.append(look.line(("Your stake  ", "bold"), "tableau ", tabs,
                             "   amount %d   (you may stake %s to %d)" % (view["amount"], max(lo, 1), hi)))
    if view["turn"] and view["phase"] == "bank":
        pick = view["pick"] or 1
        out.append(look.line(("Your bank   ", "bold"), *[
            ("%d %s  " % (i + 1, CHOICES.get(c, c)), "reverse" if i + 1 == pick else "underline")
            for i, c in enumerate(view["choices"])]))
    return out


def prompt(view, board):
    if not view["turn"]:
        if view["phase"] == "deal":
            return "The shoe deals the tableaux…"
        return "Waiting for seat %d…" % view["banker"] if view["phase"] == "bank" else "Waiting for the other punters…"
    if view["phase"] == "bank":
        return "Choose with 1-%d, then Enter (Enter alone: the first); r passes the bank" % len(view["choices"])
    lo = view["range"][0]
    must = " (you must stake at least %d on this first deal)" % lo if lo else "; r sits this deal out"
    return "Stake: 1-3 picks the tableau, + - ] [ set the amount, Enter stakes it%s" % must


def confirm(view, key):
    """The line that confirms a key whose effect the seat's view does not show: r sitting a
    deal out (Enter always stakes: the amount starts at the least stake, never 0)."""
    if key == "r" and view and view["turn"] and view["phase"] == "stake":
        return "You sit deal %d out: nothing staked. (Enter stakes the amount shown instead.)" % view["deal"]
    return None


def hint(view):
    """The house bots' banking and staking (simulator/club.py), from the view alone."""
    from tapis.simulator.kits.club import bots as C
    if not view["turn"]:
        return "Nothing to decide now."
    if view["phase"] == "bank":
        c = C.bank_choice(view["choices"], 0)
        return "The house bots would %s (key %d, then Enter)." % (
            CHOICES.get(c, c), view["choices"].index(c) + 1)
    lo, hi = view["range"]
    s = C.stake_for(view["order"], lo, hi)
    if s is None:
        return "Sit this deal out (r): nothing may be staked."
    return "The house bots would stake %d on tableau %d (key %d, + to %d, Enter)." % (s[1], s[0], s[0], s[1])


def result(lines):
    """The settlement, from the table display's lines: the bank passes, the balances."""
    out = [ln.strip() for ln in lines if "passes the bank" in ln or "bank ends" in ln][-1:]
    out += [ln.strip() for ln in lines if ln.lstrip().startswith("Balances")][-1:]
    return " · ".join(out)
