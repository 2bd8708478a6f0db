# pyright: reportAttributeAccessIssue=false
# Piquet's misdeals (SPEC §4 "Misdeals"), the shoe's faults: loaded only when the shoe reports a fault or a card
# twice, so its names stay off the board's heap in an ordinary deal (docs/performance.md).
from ... import wire as W
from ...cards import name
from ..rules import CHANCE, IllegalAction
from .events import CUT, DEAL, PHASE_NAMES

_WHY = {"unread": "the shoe could not read a card", "double feed": "two cards came out together",
        "missing": "a short pack: a card is missing", "outofturn": "a deal out of turn"}


def shoe_fault(g, code):
    """A FAULT payload as a rules action, or None for a jam or the cut card: the controller
    asks the shoe again for what is still due (PiquetTable.shoe_fault)."""
    from .. import faults as common

    k, n = code[0] if code else -1, len(code)
    if g.to_act != CHANCE:
        return None
    a = common.shoe_fault(code)
    if a:
        return a
    if k == W.EMPTY:
        return ("missing", CHANCE, None)
    if k == W.OUT_OF_TURN and n == 2 and code[1] in (0, 1) and code[1] != g.dealer:
        return ("outofturn", CHANCE, code[1])
    return None


def verify(g, kind, value):
    if g.phase not in (CUT, DEAL):
        raise IllegalAction("the shoe reported %s but no card is due (%s)" % (kind, PHASE_NAMES[g.phase]))
    if kind == "exposed":
        g._verify_card(value)
    elif kind == "double feed":
        try:
            a, b = value
        except (TypeError, ValueError):
            raise IllegalAction("a double feed reports the two cards, got %r" % (value,))
        g._verify_card(a)
        g._verify_card(b)
    elif kind == "outofturn" and (value not in (0, 1) or g.phase == CUT):
        raise IllegalAction("the shoe reports a deal by seat %r out of turn, but %s" % (
            value, "the players are cutting" if g.phase == CUT else "it is not a seat"))


def apply(g, kind, value):
    """A misdeal never stops the table (SPEC §4): seed 003 gives no lighter remedy, so the
    deal is void and the same dealer deals again from a fresh pack, as in écarté (000:79).
    A card twice ("duplicate") is an imperfect pack. In the cut, a card out face up is a
    cut card anyway; any other fault, and the players cut again."""
    g.emit((kind, CHANCE, value))
    if g.phase == CUT:
        if kind == "exposed":
            g._on_card(value)
            return
        g.emit(("void", CHANCE, "the players cut again"))
        g._start_cut()
        return
    if kind == "duplicate":
        why = "imperfect pack: %s twice" % name(value)
    elif kind == "exposed":
        why = "%s was exposed in the deal" % name(value)
    else:
        why = _WHY[kind]
    g.emit(("void", CHANCE, why))
    g._new_deal(True)
