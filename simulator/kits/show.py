# What every game's renderer and recorder share: cards and seats in words.
from tapis.firmware.cards import RANKS, is_card, name, rank, suit

SYMBOLS = "♠♥♦♣"
SEAT_NAMES = ("West", "East", "North")  # table seats; more are "Seat n" (the gallery)


def seat_name(seat):
    return SEAT_NAMES[seat] if 0 <= seat < len(SEAT_NAMES) else "Seat %d" % seat


def pretty(c, symbols=True):
    if c is None:
        return "??"
    return RANKS[rank(c)] + SYMBOLS[suit(c)] if symbols else name(c)


def card_names(v):
    """Cards by name, tuples as lists, anything else as it is."""
    if isinstance(v, (tuple, list)):
        return [card_names(x) for x in v]
    return name(v) if is_card(v) else v


def as_json(v):
    """Tuples as lists."""
    if isinstance(v, (tuple, list)):
        return [as_json(x) for x in v]
    return v


class Narrator:
    """What every game's renderer shares: it tells a game's events as readable lines,
    either the table display's public events (`on_view`: dealt cards face down, an
    exchange by its count), or, for a watcher who sees everything, the whole event log
    (`feed`: the rules' or the journal's, with the hands dealt and the cards exchanged).
    `line(kind, seat, value)` is one event's text or None; a line the next events
    complete (an exchange and its draws, a trick and the points it made) is held in
    `pending` while `extends(kind)` and written when another event comes (or `flush`); a
    section's heading is written with the section's first line."""

    SILENT = ()  # the declared events it shows no line of

    def __init__(self, write, hands=None, symbols=True, watcher=False):
        self.write, self.hands, self.symbols, self.watcher = write, hands, symbols, watcher
        self.pending = None  # a function giving the held line
        self.heading = None  # a section's heading, until the section has a line

    def on_view(self, view):
        for e in view.get("events", ()):
            if e and len(e) >= 3:  # what the display is not shown is left out (None)
                self.event(e[0], e[1], e[2])

    def feed(self, events):
        for kind, seat, value in events:
            self.event(kind, seat, value)

    def event(self, kind, seat, value):
        if self.pending is not None and not self.extends(kind):
            self.flush()
        self._say(self.line(kind, seat, value))

    def _say(self, text):
        """Write a line; a section's heading ("\n── Deal 6 ..."), once the section has one."""
        if not text:
            return
        if text.startswith("\n"):
            self.heading = text
            return
        if self.heading:
            text, self.heading = self.heading + "\n" + text, None
        self.write(text)

    def extends(self, kind):
        return False

    def opening(self, state):
        """A game the journal begins from a snapshot (`state`): its first section opened in
        the step that ended the game before, so its heading is told from the state."""

    def flush(self):
        """Write the line held, if any (a heading whose section has no line yet stays held)."""
        if self.pending is not None:
            text, self.pending = self.pending(), None
            self._say(text)

    def cards(self, cs):
        return " ".join(pretty(c, self.symbols) for c in cs)

    def score_line(self):
        """The score as it stands, in one line (the watch mode's status line)."""
        return ""


def meters_lines(m):
    """The table display's meters screen (a view's "meters", firmware/operator/commands.py SCREEN)
    as lines of text, each a short line or one that wraps at its spaces: the table's
    counts, the tilts by class, a line a seat (wagered, won, lost, pushed, commission),
    club's banks and tableaux."""
    cols = ("wagered", "won", "lost", "pushed", "commission")
    out = ["METERS  deals %d  games %d  voids %d  power-ups %d  overrides %d  house %d" % tuple(
        m.get(k, 0) for k in ("deals", "games", "voids", "power_ups", "overrides", "house")),
        "tilts  " + "  ".join("%s %d" % kv for kv in sorted(m.get("tilts", {}).items()))]
    rows = [("seat %d" % s, r) for s, r in enumerate(m.get("seats", ()))]
    if "bank" in m:
        out.append("banks laid %d  broken %d  bank won %d  lost %d" % tuple(m["bank"]))
        rows += [("tab. %d" % (t + 1), r) for t, r in enumerate(m.get("tableaux", ())) if r[0]]
    for label, r in rows:
        out.append(label + "  " + "  ".join("%s %d" % cv for cv in zip(cols, r)))
    return out
