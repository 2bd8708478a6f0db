# The laws of écarté for the irregularities a table can produce (seed 000, the London
# club laws, lines 43-79; seed 002 where it adds detail), and abandoned or claimed hands.
# Loaded on the first one.
# docs/rules.md maps each law to the function here and to its seed line.
#
# The shoe reports what went wrong as a chance action (kind, CHANCE, value):
#   ("unread", CHANCE, None)      a card came out that the shoe could not read
#   ("exposed", CHANCE, card)     a card came out face up
#   ("double feed", CHANCE, (a, b)) two cards came out together: a wrong number dealt, an
#                                 over-draw, or two cards turned for trump
#   ("missing", CHANCE, None)     the shoe ran empty while the pack should hold cards
#   ("outofturn", CHANCE, seat)   the shoe is being dealt from the wrong seat
# and a card the shoe delivers twice is an imperfect pack. Where the laws give the
# non-dealer a choice, the state waits in the CHOOSE phase for his ("choose", seat, text).
from ...cards import name
from ..rules import CHANCE, IllegalAction
from .events import CHOOSE, CUT, DEAL, DRAW, PHASE_NAMES, PLAY

NEW_DEAL = "new deal"
CORRECT = "correct"
TAKE = "take"
SET_ASIDE = "set aside"
DISCARD_ONE = "discard "  # + a card: 000:65, the non-dealer given too many sets it aside
DRAW_ONE = "draw "  # + its place: 000:67, he draws it blindly from the dealer's hand


def verify_fault(g, kind, value):
    if kind == "outofturn":
        if value not in (0, 1):
            raise IllegalAction("the shoe reports a deal from seat %r, not a player's seat" % (value,))
        if g.phase == CUT:
            raise IllegalAction("the shoe reports a deal out of turn, but the players are cutting")
        return
    if g.phase not in (DEAL, DRAW, CUT) or g.to_act != CHANCE:
        raise IllegalAction("the shoe reported %s but no card is due (%s)" % (kind, PHASE_NAMES[g.phase]))
    out = 2 if kind == "double feed" else 0 if kind == "missing" else 1
    if out > g.stock:
        raise IllegalAction("the shoe reported %s but only %d card(s) are left in the pack" % (kind, g.stock))
    if kind == "exposed":
        g.verify_card(value)
    elif kind == "double feed":
        try:
            a, b = value
        except (TypeError, ValueError):
            raise IllegalAction("a double feed reports the two cards, got %r" % (value,))
        g.verify_card(a)
        g.verify_card(b)
    elif kind not in ("unread", "missing"):
        raise IllegalAction("unknown shoe fault %r" % (kind,))


def on_fault(g, kind, value):
    g.emit((kind, CHANCE, value))
    if g.phase == CUT:
        _cut_fault(g, kind, value)
        return
    if kind == "outofturn":
        # 000:48: void if found before the trump is turned; after it, too late: it stands
        if g.phase == DEAL:
            void(g, "deal out of turn: seat %d dealt" % value)
        return
    if kind == "missing":  # 000:79, 002:4: an imperfect pack voids the deal, earlier deals stand
        void(g, "imperfect pack: a card is missing")
        return
    if kind == "unread":  # set aside unseen, the next card in its place (SPEC §4; 000:69)
        g.out_of_shoe(None)
        g.dead.append(None)
        _short(g)
        return
    cards = tuple(value) if kind == "double feed" else (value,)
    for c in cards:
        if c in g.seen or cards.count(c) > 1:
            g.emit(("duplicate", CHANCE, c))
            void(g, "imperfect pack: %s twice" % name(c))
            return
    for c in cards:
        g.out_of_shoe(c)
    to = g.pending[0]
    if kind == "exposed":
        if to == g.elder:  # 000:47, 000:69-70, 002:17: he may take it, or not, or a new deal
            g.dead.append(value)
            _ask(g, ("exposed", value), (TAKE, SET_ASIDE, NEW_DEAL))
        else:  # the dealer's own card stands (000:70, 002:17); the turn-up is face up anyway
            g.place(value, g.pending.pop(0))
        return
    a, b = value
    g.pending.pop(0)
    if to == CHANCE:  # two cards turned (000:45, 002:3): he chooses the trump, or a new deal
        g.dead.extend(cards)
        _ask(g, ("turn", a, b), ("trump " + name(a), "trump " + name(b), NEW_DEAL))
        return
    # a wrong number dealt / over-draw: the seat got one card too many
    # (000:43 and 000:49-51 in the deal, 000:63-67 in the exchange)
    g.hands[to].append(a)
    g.emit((g.dealt_kind(), to, a))
    g.hands[to].append(b)
    g.emit(("extra", to, b))
    if g.phase == DEAL:  # 000:43: corrected (the extra set aside unseen) or a new deal
        _ask(g, ("count", b, to), (CORRECT, NEW_DEAL))
    else:  # in the exchange the non-dealer decides once the draw is complete (over_drawn)
        g.advance()


def over_drawn(g):
    """The draw is complete and the seat drawing holds a card too many: the non-dealer
    may demand a new deal, or play: given too many himself, he discards the extra card,
    the one he chooses, unseen by the dealer (000:65); when the dealer gave himself too
    many, he draws the extra card blindly from the dealer's hand (000:67, 002:1)."""
    to = g.drawing
    if to == g.elder:
        choices = tuple(DISCARD_ONE + name(c) for c in g.hands[to])
    else:
        choices = tuple(DRAW_ONE + str(i + 1) for i in range(len(g.hands[to])))
    _ask(g, ("count", None, to), choices + (NEW_DEAL,))


def _cut_fault(g, kind, value):
    """A fault while the players cut for the first deal: a card out face up is a cut card
    anyway, and one not read is set aside and the next cut in its place; two cards at
    once (000:38: "a player who exposes more than one card must cut again") or a shoe run
    empty: the players cut again, from a fresh pack."""
    if kind == "exposed":
        g.cut_card(value)
    elif kind == "unread" and g.stock > len(g.pending):
        g.delivered += 1
        g.dead.append(None)  # set aside unseen, as in the deal
    else:
        g.start_cut()
        g.emit(("void", CHANCE, "the players cut again"))


def _ask(g, law, choices):
    """The non-dealer chooses; his display hides his hand while the deal is incomplete."""
    g.law, g.choices, g.resume = law, choices, (g.phase, g.to_act)
    g.phase, g.to_act = CHOOSE, g.elder
    g.emit(("choices", g.elder, choices))


def on_choice(g, seat, choice):
    g.emit(("choose", seat, choice))
    law = g.law
    g.law, g.choices = None, ()
    g.phase, g.to_act = g.resume
    if choice == NEW_DEAL:
        void(g, "new deal at the non-dealer's demand")
        return
    if law[0] == "exposed":
        c = law[1]
        if choice == TAKE:
            g.dead.remove(c)
            g.place(c, g.pending.pop(0))
        else:  # set aside: both have seen it; the next card takes its place
            _short(g)
    elif law[0] == "count":  # corrected: an extra card set aside, as the laws say which
        c, to = law[1], law[2]
        if choice.startswith(DISCARD_ONE):  # the one he names (000:65)
            c = [x for x in g.hands[to] if DISCARD_ONE + name(x) == choice][0]
        elif choice.startswith(DRAW_ONE):  # the one he draws blindly (000:67)
            c = g.hands[to][int(choice[len(DRAW_ONE):]) - 1]
        elif g.phase == DEAL:  # 000:53: the turned king will not score
            g.miscount = True
        g.hands[to].remove(c)
        g.dead.append(c)
        g.emit(("set aside", to, c))
        g.advance()
    else:  # the trump he chose; the other turned card is set aside
        a, b = law[1], law[2]
        keep = a if choice == "trump " + name(a) else b
        g.dead.remove(keep)
        g.turn_up(keep)  # two cards turned is no wrong number dealt: a king scores (SPEC §4)


def _short(g):
    """A card was set aside: if the stock can no longer supply the draw, each seat takes
    back the last of its discards (002:9); a deal the pack cannot complete is void."""
    if len(g.pending) <= g.stock:
        return
    if g.phase == DEAL:
        void(g, "the pack cannot complete the deal")
        return
    while len(g.pending) > g.stock:
        s = g.pending.pop()
        c = g.discards[s].pop()
        g.hands[s].append(c)
        g.emit(("retake", s, c))
    g.advance()


def void(g, why):
    """The deal is void: its points are taken back, earlier deals stand (000:79, 002:4),
    and the same dealer deals again from a fresh pack."""
    for s in (0, 1):
        p = g.deal_points[s]
        if p:
            g.scores[s] -= p
            g.emit(("score", s, (-p, "void")))
    g.emit(("void", CHANCE, why))
    g.new_deal(True)


# ---- abandoned, conceded and claimed hands (000:76, 000:83, 002:27, SPEC §4) --------------
def on_abandon(g, seat, claim, concede=None):
    """A hand thrown in gives the opponent the vole if the abandoner took no trick, the
    point after one or two (2 if the abandoner was vulnerable, 000:83); after three or four
    the abandoner has won the point and scores it, giving up only the vole (000:76). A
    concession of the point is no penalty when the opponent cannot win more (002:27): all
    cards seen, the conceder is sure of a trick. A claim is checked with every card seen:
    justified, it is scored as the hand would end with both sides playing perfectly,
    without penalty; otherwise the hand is abandoned."""
    mine = g.tricks[seat]
    if claim or concede:
        sure = mine + sure_tricks(g, seat)
        if claim:
            g.emit(("claimed", seat, sure))
        if claim and sure * 2 > g.hand_size or concede and sure:
            tricks = [0, 0]
            tricks[seat] = sure if claim else min(sure, g.hand_size // 2)
            tricks[1 - seat] = g.hand_size - tricks[seat]
            w, points, reason = g.hand_points(tricks)
            g.end_hand(w, points, reason if claim else "conceded: " + reason)
            return
    if mine * 2 > g.hand_size:  # he has won the point: it stands, the vole is given up
        tricks = [0, 0]
        tricks[seat], tricks[1 - seat] = mine, g.hand_size - mine
        w, points, reason = g.hand_points(tricks)
        g.end_hand(w, points, "abandoned: point won" if reason == "point" else "abandoned: " + reason)
        return
    vole = mine == 0
    points = 2 if vole or g.vulnerable == seat else 1
    g.end_hand(1 - seat, points * g.multiplier, "abandoned: vole" if vole else "abandoned: point")


def sure_tricks(g, seat):
    """Tricks `seat` takes from here whatever the other does, all cards seen."""
    if g.phase != PLAY:
        return 0
    return _best(g, [list(g.hands[0]), list(g.hands[1])], g.to_act, g.led, seat)


def _best(g, hands, to_act, led, seat):
    if not hands[to_act]:
        return 0
    best = -1
    for c in g.ev.legal_plays(hands[to_act], led, g.trump_suit, g.strength):
        hands[to_act].remove(c)
        if led is None:
            v = _best(g, hands, 1 - to_act, c, seat)
        else:
            w = to_act if g.ev.trick_winner(led, c, g.trump_suit, g.strength) else 1 - to_act
            v = (1 if w == seat else 0) + _best(g, hands, w, None, seat)
        hands[to_act].append(c)
        if best < 0 or (v > best if to_act == seat else v < best):
            best = v
    return best
