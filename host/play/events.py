# The table display, as the person sees it: its public events (what the controller sends
# to the table display, cards dealt face down) turned into lines by the game's own
# renderer (the one `tapis table` prints), the trick on the cloth, and how many games
# the table has finished by what it showed.
import re

from tapis.simulator.kits.show import meters_lines, seat_name

_EMPTY_HAND = re.compile(r":\s*$")  # "  East: " - a hand the person may not see


class Board:
    def __init__(self, game, kit):
        self.name, self.kit = game, kit
        self.lines = []  # every line shown, oldest first
        self.fresh = []  # lines not yet drawn on the screen
        self.held = []  # section headings, shown once their section has a line
        self.trick = []  # [(position, card)] on the cloth
        self.last_trick = None  # ([(position, card)], winner)
        self.games = 0  # games the table finished
        self.events = 0  # public events seen
        self._partie = False  # piquet: the partie ended, its last deal's "end" follows
        self._bankers = 0  # club: banks opened (the first, and one each time it passes)
        self.mode = None  # the table display's mode line (locked, recall, meters...)
        self.screen = None  # the supervisor's meters screen on it, as lines (None: not shown)
        self.renderer = kit.Renderer(self._write, self._no_hands, True)

    @staticmethod
    def _no_hands():
        return [[] for _ in range(8)]  # the person sees no hand on the table display

    def _write(self, text):
        for ln in text.split("\n"):
            if not ln:
                continue
            if ln.startswith(("──", "══")):
                self.held.append(ln)
                continue
            if _EMPTY_HAND.search(ln):
                continue
            for h in self.held:
                self._add(h)
            self.held = []
            self._add(ln)

    def _add(self, ln):
        self.lines.append(ln)
        self.fresh.append(ln)

    def on_view(self, view):
        self.mode = view.get("mode")
        m = view.get("meters")  # firmware/operator/commands.py SCREEN: the supervisor asked
        self.screen = meters_lines(m) if isinstance(m, dict) else None
        for e in view.get("events", ()):
            if e and len(e) == 3:
                self._track(*e)
        self.renderer.on_view(view)

    def seat_at(self, position):
        """The table seat at a position in play (écarté's pool seats rotate)."""
        seated = getattr(self.renderer, "seated", None)
        return seated[position] if seated and 0 <= position < len(seated) else position

    def who(self, position):
        """The name of a player by position."""
        if self.name == "club":
            return "Seat %d" % position
        return seat_name(self.seat_at(position))

    def _track(self, kind, seat, value):
        self.events += 1
        if kind == "deal":
            self.trick, self.last_trick = [], None
        elif kind == "play":
            self.trick.append((seat, value))
        elif kind == "trick":
            self.last_trick, self.trick = (self.trick, seat), []
        name = self.name
        if name == "ecarte" and kind == "game":
            self.games += 1
        elif name == "piquet" and kind == "partie":
            self._partie = True
        elif name == "piquet" and kind == "end" and self._partie:
            self._partie = False
            self.games += 1
        elif name == "club" and kind == "banker":
            self._bankers += 1
            self.games = self._bankers - 1

    def take(self):
        out, self.fresh = self.fresh, []
        return out
