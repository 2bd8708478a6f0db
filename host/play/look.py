# How cards and hands look on the seat's screen: suits in colour, each card under the
# key that SELECTs it, legal cards bright, the others dim, the selected ones lifted.
from rich.text import Text

from tapis.firmware.cards import RANKS, rank, suit

SYMBOLS = "♠♥♦♣"
RED = (1, 2)  # hearts, diamonds
KEY_LABELS = "1234567890-="  # SELECT 1..12, the keyboard's top row


def card(c, style=""):
    """One card as text: 'K♠', hearts and diamonds in red; '??' for a card face down."""
    if c is None:
        return Text("??", style="dim")
    colour = "bold red" if suit(c) in RED else "bold"
    return Text(RANKS[rank(c)] + SYMBOLS[suit(c)], style=(colour + " " + style).strip())


def cards(cs, sep=" "):
    out = Text()
    for i, c in enumerate(cs):
        if i:
            out.append(sep)
        out.append_text(card(c))
    return out


def hand(cs, legal=None, selected=(), keys=KEY_LABELS):
    """Two lines: the keys, and the cards under them. `legal`: the cards that may go now
    (None: no choice is due, all shown plainly); `selected`: 1-based places."""
    top, row = Text(), Text()
    for i, c in enumerate(cs):
        place = i + 1
        lifted = place in selected
        style = "reverse" if lifted else ""
        if legal is not None and c not in legal:
            style += " dim"
        elif legal is not None:
            style += " underline"
        key = keys[i] if i < len(keys) else " "
        top.append(" %s%s " % (key, "▲" if lifted else " "), style="bold yellow" if lifted else "yellow")
        row.append(" ")
        row.append_text(card(c, style.strip()))
        row.append(" ")
    return top, row


def line(*parts):
    """A line from (text, style) pairs and plain strings or Texts."""
    out = Text()
    for p in parts:
        if isinstance(p, Text):
            out.append_text(p)
        elif isinstance(p, tuple):
            out.append(p[0], style=p[1])
        else:
            out.append(p)
    return out


def cloth(board, who):
    """The trick on the cloth; while it is empty, the last trick and who took it."""
    label = ("On the cloth  ", "bold")
    if board.trick or not board.last_trick:
        plays = [line("%s " % who(p), card(c), "  ") for p, c in board.trick]
        return line(label, *(plays or ["—"]))
    plays, winner = board.last_trick
    return line(label, "—   ", ("last trick ", "dim"),
                *[line("%s " % who(p), card(c), " ") for p, c in plays], "→ %s" % who(winner))
