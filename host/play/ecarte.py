# Écarté at the person's seat: the keys of the panel, what the seat's display shows
# (firmware/tables/ecarte.py `view`), what to do now, and the hint. Everything here is
# read from the seat's view; nothing else of the game.
from tapis.firmware.games import panel as B
from tapis.firmware.cards import suit

from tapis.host.play import look
from tapis.simulator.kits.show import seat_name

KEYS = {str(n): (B.SELECT, n) for n in range(1, 10)}
KEYS.update({"enter": (B.CONFIRM, 0), "s": (B.STAND, 0), "p": (B.PROPOSE, 0),
             "a": (B.ACCEPT, 0), "r": (B.REFUSE, 0), "k": (B.KING, 0),
             "x": (B.ABANDON, 0), "c": (B.CLAIM, 0), "d": (B.DOUBLE, 0), "o": (B.OFFER, 0),
             "plus": (B.BET_PLUS, 1), "minus": (B.BET_MINUS, 1),
             "right_square_bracket": (B.BET_PLUS, 10), "left_square_bracket": (B.BET_MINUS, 10)})
HELP = (("1-9", "SELECT card n (the number above it); a choice n of the laws"),
        ("Enter", "CONFIRM: play the selected card, or discard the selected cards"),
        ("s", "STAND: \"I play\" (elder, instead of proposing)"),
        ("p", "PROPOSE: ask for cards (elder)"),
        ("a / r", "ACCEPT / REFUSE a proposal (dealer), a double or an offer"),
        ("k", "MARK KING: announce the king of trumps"),
        ("x / c", "ABANDON the hand / CLAIM the point (lay the cards down)"),
        ("d / o", "DOUBLE / OFFER the point (in those variants)"),
        ("1 2, + / -", "gallery seat: back player 1 or 2, raise or lower the bet by 1 (it starts at 1)"),
        ("] / [", "gallery seat: raise or lower the bet by 10 (1 to the largest bet)"),
        ("r", "gallery seat: no bet, the next game sat out (said on a line)"))


def me(view):
    return view.get("position", view["seat"])


def screen(view, board):
    """The seat's display as lines of text."""
    if view.get("gallery"):
        return _gallery(view, board)
    pos = me(view)
    opp = board.who(1 - pos)
    legal = view.get("legal") if view["turn"] else None
    if view["phase"] == "discard" and view["turn"]:
        legal = list(view["hand"])
    top, row = look.hand(view["hand"], legal, view["selected"])
    out = [look.line(("Trump  ", "bold"), look.card(view["trump"]) if view["trump"] is not None else "—",
                     "    stock %d    " % view["stock"],
                     "you deal" if view["dealer"] == pos else "%s deals, you are elder" % opp),
           look.line(("Your hand", "bold")), top, row,
           look.cloth(board, board.who),
           look.line(("Tricks  ", "bold"), "you %d · %s %d" % (view["tricks"][pos], opp, view["tricks"][1 - pos])),
           look.line(("Score   ", "bold"), "you %d · %s %d   (game to 5)    games %d–%d" % (
               view["scores"][pos], opp, view["scores"][1 - pos], view["games"][pos], view["games"][1 - pos])),
           look.line(("Stakes  ", "bold"), "balances: you %+d · %s %+d%s" % (
               _balance(view, view["seat"]), opp, _balance(view, board.seat_at(1 - pos)),
               "   · this hand is DOUBLED" if view.get("doubled") else ""))]
    lim = _limits(view)
    if lim:
        out.append(lim)
    return out


def _limits(view):
    """The stake a game and the largest bet in force; the supervisor's next, if any."""
    lim, pend = view.get("limits"), view.get("pending")
    if not lim:
        return None
    return look.line(("Limits  ", "bold"), "stake %d a game · bets up to %d" % tuple(lim),
                     " · from the next game: stake %d, bets up to %d" % tuple(pend) if pend else "")


def _balance(view, seat):
    b = view["balances"]
    return b[seat] if 0 <= seat < len(b) else 0


def _gallery(view, board):
    side, bet = view["side"], view["bet"]
    return [look.line(("Gallery", "bold"), " · you back a player between the games"),
            look.line("Backing %s (SELECT %d) · %s" % (
                board.who(side), side + 1, "your bet %d on %s" % (bet[1], board.who(bet[0])) if bet[1] else
                "no bet: + bets 1 (the least), ] bets 10")),
            look.line(("Score   ", "bold"), "%s %d · %s %d" % (board.who(0), view["scores"][0],
                                                              board.who(1), view["scores"][1])),
            look.line(("Balances ", "bold"), " · ".join(
                "%s %+d" % ("you" if i == view["seat"] else seat_name(i), b) for i, b in enumerate(view["balances"])))] + \
        [x for x in (_limits(view),) if x]


def prompt(view, board):
    """What the seat is to do now, with its keys."""
    if view.get("gallery"):
        return "1 or 2 picks the player to back, + - ] [ set the bet (from 1)%s" % (
            "; r sits the next game out" if view["bet"][1] else "")
    phase, pos = view["phase"], me(view)
    king = "   k: mark the king (1 point)" if view.get("king") else ""
    if not view["turn"]:
        if phase in ("deal", "draw"):
            return "The shoe deals…" + king
        return "Waiting for %s…" % board.who(1 - pos) + king
    if phase == "propose":
        return "You are elder: s = \"I play\" (stand), p = propose an exchange"
    if phase == "respond":
        return "%s proposes: a = accept (exchange cards), r = refuse (play)" % board.who(1 - pos)
    if phase == "discard":
        lo, hi = view["discard"]
        return "Select %d to %d cards to discard (1-%d), then Enter" % (lo, hi, len(view["hand"]))
    if phase == "play":
        may = "".join("   %s: %s" % (k, w) for k, w in (("d", "double"), ("o", "offer the point"))
                      if w.split()[0] in view.get("may", ()))
        what = "Your lead: select a card" if view["led"] is None else \
            "Follow: select a card (underlined = legal)"
        return what + ", then Enter" + may + king
    if phase == "choose":
        return "The laws offer: " + "  ".join("%d %s" % (i + 1, c) for i, c in enumerate(view["choices"])) + \
            "  — select one, then Enter"
    if phase == "answer":
        return "%s asks to %s: a = accept, r = refuse" % (board.who(1 - pos), view["question"])
    return phase


def confirm(view, key):
    """The line that confirms a key whose effect the seat's view shows only as an absence: r
    at a gallery seat withdrawing its bet (as club's r sitting a deal out)."""
    if key == "r" and view and view.get("gallery") and view["bet"][1]:
        return "You sit the next game out: your bet of %d withdrawn. (+ bets again.)" % view["bet"][1]
    return None


def hint(view):
    """Advice from the seat's view alone: the exact advisor on standing or proposing (the
    odds over every hand the opponent may hold), the house bot's discard or card."""
    from tapis.simulator.kits.ecarte import bots
    if view.get("gallery") or not view["turn"]:
        return "Nothing to decide now."
    phase, hand, turned = view["phase"], view["hand"], view["trump"]
    if phase in ("propose", "respond"):
        from tapis.cython_core.twins import ecarte_solver
        leads = phase == "propose"
        try:
            stand, wins, voles, total, why = ecarte_solver.advice(hand, turned, leads)
        except ValueError as e:
            return "No advice here: %s" % e
        odds = "you take the point in %.0f%% (%d of %d hands the opponent may hold), the vole in %.0f%%" % (
            100.0 * wins / total, wins, total, 100.0 * voles / total)
        if leads:
            do = "stand (s, \"I play\")" if stand else "propose (p)"
        else:
            do = "refuse (r, play)" if stand else "accept (a)"
        return "Advisor: %s — %s. Exactly: %s." % (do, why, odds)
    if phase == "discard":
        lo, hi = view["discard"]
        throw = bots.ecarte_discard(hand, suit(turned), lo, hi)
        keys = " ".join(str(hand.index(c) + 1) for c in throw) or "nothing"
        return "Discard %s (keys %s, then Enter): keep trumps and kings." % (
            " ".join(look.card(c).plain for c in throw) or "nothing", keys)
    if phase == "play":
        c = bots.ecarte_card(view)
        return "Play %s (key %d, then Enter)." % (look.card(c).plain, hand.index(c) + 1)
    if phase == "answer":  # the house bot's rule, on its rough count of tricks
        est = bots.ecarte_estimate(hand, suit(turned))
        yes = est >= 2.5 if view["question"] == "double" else est < 3.5
        return "%s: about %.1f tricks in your hand." % ("Accept (a)" if yes else "Refuse (r)", est)
    if phase == "choose":
        return "Key 1 plays on (the first choice the laws offer)."
    return "Nothing to decide now."


def result(lines):
    """The settlement, from the table display's lines."""
    won = [ln.strip() for ln in lines if "wins the game" in ln or "wins the rubber" in ln]
    return won[-1] if won else ""
