# Piquet at the person's seat: the keys of the panel, what the seat's display shows
# (firmware/tables/piquet.py `view`), what to do now, and the hint. Everything here is
# read from the seat's view; nothing else of the game.
from tapis.firmware.games import panel as B

from tapis.host.play import look

KEYS = {k: (B.SELECT, i + 1) for i, k in enumerate(
    [str(n) for n in range(1, 10)] + ["0", "minus", "equals_sign"])}
KEYS.update({"enter": (B.CONFIRM, 0), "a": (B.ACCEPT, 0), "r": (B.REFUSE, 0)})
HELP = (("1-9 0 - =", "SELECT card 1..12 (the key above it; again to put it back)"),
        ("Enter", "CONFIRM: exchange the selected cards, or play the selected card"),
        ("a", "ACCEPT: declare carte blanche, look at the talon, declare the category"),
        ("r", "REFUSE: keep quiet, leave the talon, sink the category"))
NAMES = ("West", "East")


def screen(view, board):
    seat, opp = view["seat"], NAMES[1 - view["seat"]]
    legal = None
    if view["turn"] and view["phase"] == "play":
        legal = view["legal"]
    elif view["turn"] and view["phase"] == "exchange":
        legal = list(view["hand"])
    top, row = look.hand(view["hand"], legal, view["selected"])
    role = "elder" if view["elder"] == seat else "younger (you deal)"
    out = [look.line(("Partie %d · deal %d" % (view["partie"], view["deal"]), "bold"),
                     " · you are %s · talon %d left" % (role, view["talon"])),
           look.line(("Your hand", "bold")), top, row]
    if view.get("rest"):
        out.append(look.line(("Rest of the talon (seen) ", "bold"), look.cards(view["rest"])))
    if view.get("shown"):
        out.append(look.line(("%s's carte blanche " % opp, "bold"), look.cards(view["shown"])))
    for d in view["declarations"]:
        calls = ", ".join("%s: %s" % ("you" if s == seat else opp, what) for s, what in d["calls"])
        if calls or d["verdict"]:
            verdict = ""
            if d["verdict"]:
                verdict = " → %s" % d["verdict"] + (
                    " (%s)" % ("you" if d["winner"] == seat else opp) if d["winner"] is not None else "")
            out.append(look.line(("%-9s" % d["category"], "bold"), calls or "—", verdict))
    out += [look.cloth(board, lambda s: NAMES[s]),
            look.line(("Tricks  ", "bold"), "you %d · %s %d" % (view["tricks"][seat], opp, view["tricks"][1 - seat])),
            look.line(("Points  ", "bold"), "this deal: you %d · %s %d" % (
                view["points"][seat], opp, view["points"][1 - seat])),
            look.line(("Score   ", "bold"), "partie: you %d · %s %d   (the Rubicon is 100)" % (
                view["scores"][seat], opp, view["scores"][1 - seat]))]
    return out


def prompt(view, board):
    phase = view["phase"]
    if not view["turn"]:
        if phase in ("cut", "deal"):
            return "The shoe deals…"
        return "Waiting for %s…" % NAMES[1 - view["seat"]]
    if phase == "blanche":
        return "You hold carte blanche: a = declare it (10 points), r = keep quiet"
    if phase == "exchange":
        lo, hi = view["exchange"]
        return "Exchange: select %d to %d cards to discard, then Enter" % (lo, hi)
    if phase == "look":
        return "a = look at the rest of the talon, r = leave it unseen"
    if phase == "declare":
        return "Your %s: a = declare it, r = sink it" % view["category"]
    if phase == "play":
        return ("Your lead" if view["led"] is None else "Follow") + \
            ": select a card (underlined = legal), then Enter"
    return phase


def hint(view):
    """Advice from the seat's view alone: the house bot's discard (simulator/piquet.py
    `piquet_discard`) and card, and what to answer."""
    from tapis.simulator.kits.piquet import bots as P
    if not view["turn"]:
        return "Nothing to decide now."
    phase, hand = view["phase"], view["hand"]
    if phase == "exchange":
        lo, hi = view["exchange"]
        throw = P.piquet_discard(hand, lo, hi, view["seat"] == view["elder"])
        keys = " ".join(look.KEY_LABELS[hand.index(c)] for c in throw)
        return "Discard %s (keys %s, then Enter): %s." % (
            " ".join(look.card(c).plain for c in throw), keys,
            "elder takes his whole part" if view["seat"] == view["elder"] else "throw the weak cards")
    if phase == "play":
        c = P.piquet_card(view)
        return "Play %s (key %s, then Enter)." % (look.card(c).plain, look.KEY_LABELS[hand.index(c)])
    if phase == "blanche":
        return "Declare it (a): carte blanche scores 10."
    if phase == "look":
        return "Look (a): knowing the rest of the talon costs nothing."
    if phase == "declare":
        return "Declare (a): the table tells you whether it is good."
    return "Nothing to decide now."


def result(lines):
    """The settlement, from the table display's lines."""
    won = [ln.strip() for ln in lines if "the partie" in ln and ln.lstrip().startswith("★")]
    return won[-1] if won else ""
