# The Textual app: the person's seat display (left), the table display's public events
# (right), what to do now, the controller's refusal, the hint. Keys are the seat's panel
# buttons (each game's KEYS) plus h (hint), ? (keys), n (next game), q (quit).
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import RichLog, Static

from tapis.host.play import club, ecarte, piquet
from tapis.host.play.events import Board
from tapis.host.play.table import BOT_PAUSE_S, PlayTable
from tapis.simulator import kits
from tapis.simulator.kits.show import seat_name

SCREENS = {"ecarte": ecarte, "piquet": piquet, "club": club}
TICK_S = 1 / 30  # how often the table is stepped and the screen redrawn
MOST_STEPS = 500  # virtual ms stepped in one tick at most, however busy the table
COMMON_KEYS = (("h", "hint: what the advisor or the house bot would do"), ("?", "these keys"),
               ("n", "after the settlement: play another game"),
               ("V", "the operator's supervisor device: void the deal in play (écarté, piquet)"),
               ("M", "the supervisor's meters screen (tapis meters: the table's accounting meters)"),
               ("L", "écarté, club, the supervisor device: double the limits (écarté: the stake and "
                     "the largest bet, from the next game; club: from the next bank)"),
               ("A G", "club, the supervisor device: authorise your responsible bank, give you the bank"),
               ("q, Ctrl-C", "quit"))


OPERATOR = {"L": "limits", "shift+l": "limits", "A": "authorise", "shift+a": "authorise",
            "G": "give", "shift+g": "give"}


class KeysScreen(ModalScreen):
    """`?`: the keys of this game's panel; any key closes it (q still quits)."""
    CSS = "KeysScreen { align: center middle; } #keys-box { width: 84; height: auto; " \
          "border: thick $accent; background: $surface; padding: 1 2; }"

    def __init__(self, title, rows):
        super().__init__()
        self.title_text, self.rows = title, rows

    def compose(self) -> ComposeResult:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold yellow", no_wrap=True)
        grid.add_column()
        for keys, what in self.rows:
            grid.add_row(keys, what)
        yield Static(Group(Text(self.title_text + "\n", style="bold"), grid,
                           Text("\nany key closes this", style="dim")), id="keys-box")

    def on_key(self, event):
        event.stop()
        if event.key in ("q", "ctrl+c"):
            self.app.exit()
        else:
            self.dismiss()


class PlayApp(App):
    TITLE = "tapis play"
    CSS = """
    #title { height: 1; background: $primary; color: $text; text-style: bold; padding: 0 1; }
    #body { height: 1fr; }
    #left { width: 3fr; min-width: 56; height: 100%; }  /* twelve piquet cards fit */
    #seat { height: auto; border: round $accent; padding: 0 1; }
    #right { width: 2fr; height: 100%; }
    #events { height: 1fr; border: round $secondary; }
    #screen { height: auto; border: round $warning; display: none; }
    #prompt { height: auto; padding: 1 1 0 1; text-style: bold; }
    #msg { height: auto; padding: 0 1; color: $error; text-style: bold; }
    #hint { height: auto; padding: 0 1; color: $success; }
    #keybar { height: 1; background: $panel; padding: 0 1; }
    """
    BINDINGS = [Binding("ctrl+c", "quit", "Quit", show=False, priority=True)]

    def __init__(self, game="ecarte", seat=0, seed=0, options=None, evaluator=None, bots=None,
                 pause_s=BOT_PAUSE_S, tick_s=TICK_S, on_record=None):
        """on_record(record): each deal's record (tapis.record/2, as tapis table --json) once
        the deal is complete."""
        super().__init__()
        self.game_name, self.kit, self.ui = game, kits.find(game), SCREENS[game]
        self.seed, self.tick_s = seed, tick_s
        self.board = Board(game, self.kit)
        self.table = PlayTable(seed, game, seat, options, evaluator, bots, pause_s, self.board.on_view)
        self.target = 1  # games to play: n adds one after each settlement
        self.hint_text = ""
        self.said = ""  # the confirmation of what a key did that leaves no trace on the seat (club's r)
        self.drawn = None  # (view, table events, over) when last drawn
        self.decision = None  # the decision point the hint was given for
        self.screen_drawn = None  # the table display's meters screen as last drawn
        self.on_record, self.recorder, self.fed = on_record, None, (None, 0)
        if on_record is not None:
            self.recorder = self.kit.Recorder(seed, options)

    @property
    def over(self):
        return self.board.games >= self.target

    def compose(self) -> ComposeResult:
        seat = self.table.seat
        name = "seat %d" % seat if self.game_name == "club" else "%s (seat %d)" % (seat_name(seat), seat)
        yield Static("Tapis · %s · you are %s · seed %d" % (self.kit.TITLE, name, self.seed), id="title")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Static(id="seat")
                yield Static(id="prompt")
                yield Static(id="msg")
                yield Static(id="hint")
            with Vertical(id="right"):
                yield Static(id="screen")  # the table display's meters screen, while it shows
                yield RichLog(id="events", wrap=True, markup=False, max_lines=2000, min_width=20)
        yield Static(Text.from_markup("[b]?[/b] keys  [b]h[/b] hint  [b]q[/b] quit   " + self._keybar()),
                     id="keybar")

    def _keybar(self):
        return {"ecarte": "1-9 select · Enter confirm · s stand · p propose · a/r accept/refuse · k king",
                "piquet": "1-9 0 - = select · Enter confirm · a accept/declare · r refuse/sink",
                "club": "1-5 choose/tableau · +/- ]/[ stake · Enter confirm · r pass/sit out"}[self.game_name]

    def on_mount(self):
        # kept: queries go to the screen on top, which is the keys screen while it shows
        self.w = {name: self.query_one("#" + name) for name in ("seat", "events", "prompt", "msg", "hint", "screen")}
        self.w["seat"].border_title = "Your display"
        self.w["events"].border_title = "The table"
        self.set_interval(self.tick_s, self.tick)
        self.draw()

    def tick(self):
        if not self.over:
            self.table.advance(MOST_STEPS, lambda: self.over)
        if self.recorder is not None:
            self._record()
        self.draw()

    def _record(self):
        """Feed the recorder the game's events since the last tick; hand on what it completes."""
        game, n = self.fed
        log = self.table.game.log
        if self.table.game is not game:
            game, n = self.table.game, 0
        for record in self.recorder.feed(log[n:]) if len(log) > n else ():
            self.on_record(record)
        self.fed = (game, len(log))

    def draw(self):
        w = self.w
        log = w["events"]
        for ln in self.board.take():
            log.write(Text(ln, style="bold" if ln.startswith(("★", "──", "══")) else ""))
        self._table_screen()
        view = self.table.view()
        now = (view, self.board.events, self.over)  # what the screen depends on
        if self.drawn is not None and all(a is b or a == b for a, b in zip(now, self.drawn)):
            return
        self.drawn = now
        if view is None:
            w["seat"].update("Waiting for the table…")
            return
        point = (view.get("phase"), view.get("turn"), tuple(view.get("hand", ())), view.get("led"))
        if point != self.decision:
            self.decision, self.hint_text = point, ""
            if view.get("turn"):
                self.said = ""
        w["seat"].update(Group(*self.ui.screen(view, self.board)))
        w["prompt"].update(self._prompt(view))
        msg = view.get("msg") or ""
        w["msg"].update(Text("✗ " + msg) if msg else Text("✓ " + self.said) if self.said else "")
        w["hint"].update(Text("Hint: " + self.hint_text) if self.hint_text else "")

    def _table_screen(self):
        """The table display's mode line (its pane's title) and its meters screen."""
        b, w = self.board, self.w
        title = "The table" + (" · " + b.mode if b.mode else "")
        if w["events"].border_title != title:
            w["events"].border_title = title
        if b.screen is self.screen_drawn:
            return
        self.screen_drawn = b.screen
        if b.screen is not None:
            w["screen"].border_title = "The table display · meters"
            w["screen"].update(Text("\n".join(b.screen)))
        w["screen"].display = b.screen is not None

    def _prompt(self, view):
        if self.over:
            return Text("Game over. %s   n: another game · q: quit" % self.ui.result(self.board.lines),
                        style="bold yellow")
        return Text("▶ " + self.ui.prompt(view, self.board), style="bold" if view.get("turn") else "dim")

    def _meters_closed(self, _result=None):
        """The supervisor's screen closed: the table display's too, if it still shows (play
        resuming closes it by itself)."""
        if self.board.screen is not None and not self.over:
            self.table.screen()

    def on_key(self, event):
        key = event.key
        if key == "q":
            self.exit()
        elif key == "question_mark":
            self.push_screen(KeysScreen("Keys · %s" % self.kit.TITLE, self.ui.HELP + COMMON_KEYS))
        elif key == "h":
            view = self.table.view()
            self.hint_text = self.ui.hint(view) if view else "Nothing to decide yet."
            self.drawn = None
        elif key in ("M", "shift+m"):  # the supervisor's meters screen (host/memory/meters.py),
            # and the supervisor device asks the table display for its own (supervise.py SCREEN)
            self.push_screen(KeysScreen("Meters · the supervisor's screen", [(ln, "") for ln in self.table.meters()]),
                             self._meters_closed)
            if self.board.screen is None and not self.over:  # (over: the table is not stepped)
                self.table.screen()
        elif key in ("V", "shift+v") and not self.over:  # the operator's key: the supervisor device
            self.table.void()
        elif key in OPERATOR and not self.over:  # the supervisor's other commands (L: écarté too)
            self.table.supervise(OPERATOR[key])
        elif key == "n" and self.over:
            self.target += 1
            self.drawn = None
        elif key in self.ui.KEYS and not self.over:
            said = getattr(self.ui, "confirm", None)
            said = said(self.table.view(), key) if said else None
            self.table.panel.press(*self.ui.KEYS[key])
            if said:
                self.said, self.drawn = said, None
        else:
            return
        event.stop()
        self.draw()
