# Watching a game: the lines a game's renderer tells (simulator/kits/<game>/render.py),
# printed with rich. On a terminal: suits in colour (hearts and diamonds red), headings
# and results bold, a score line kept at the bottom, and keys while it plays: space
# pauses, s steps one line, + and - change the speed, q quits; the keys are not echoed.
# Off a terminal (a pipe, a file) or with NO_COLOR: plain lines, no pacing, no keys.
# `tapis table` watches a game live; `tapis recall` prints a past one the same way.
import os
import re
import select
import sys
import time

from rich.console import Console
from rich.text import Text

DELAY = 0.35  # seconds a line stays before the next, on a terminal
FASTEST, SLOWEST = 0.01, 5.0
_CARD = re.compile(r"(?<![\w])(?:10|[2-9TJQKA])(?:[♠♥♦♣]|[SHDC](?![\w]))")
_RED = set("♥♦HD")
HELP = "space pause · s step · + − speed · q quit"


class Quit(Exception):
    """The watcher pressed q."""


def styled(text):
    """Rendered lines as rich Text: red hearts and diamonds, bold headings and results."""
    return Text("\n").join(_styled(line) for line in text.split("\n"))


def _styled(line):
    text = Text(line)
    bare = line.lstrip()
    if bare.startswith(("──", "══")):
        text.stylize("bold cyan")
    elif bare.startswith("★"):
        text.stylize("bold yellow")
    elif bare.startswith("!"):
        text.stylize("magenta")
    for m in _CARD.finditer(line):
        text.stylize("bold red" if m.group()[-1] in _RED else "bold", m.start(), m.end())
    return text


class Keys:
    """Single key presses from a terminal, unechoed (cbreak mode: Ctrl-C still interrupts);
    `live` False where stdin is not a terminal (or has no termios): no keys then."""

    def __init__(self, stream=None):
        stream = stream or sys.stdin
        self.fd, self.saved = None, None
        try:
            import termios  # noqa: F401  (not on Windows)
            if stream.isatty():
                self.fd = stream.fileno()
        except (ImportError, AttributeError, ValueError, OSError):
            self.fd = None

    @property
    def live(self):
        return self.fd is not None

    def __enter__(self):
        if self.fd is not None:
            import termios
            import tty
            self.saved = termios.tcgetattr(self.fd)
            tty.setcbreak(self.fd)
        return self

    def __exit__(self, *exc):
        if self.saved is not None:
            import termios
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
            self.saved = None

    def read(self, timeout):
        """The keys typed within `timeout` seconds ("" if none); sleeps when there are no keys."""
        if self.fd is None:
            if timeout > 0:
                time.sleep(timeout)
            return ""
        ready, _w, _x = select.select([self.fd], [], [], max(0.0, timeout))
        return os.read(self.fd, 32).decode("utf-8", "replace") if ready else ""


class Watch:
    """Prints a game's lines to `out`. `delay`: seconds between lines (None: DELAY on a
    terminal, 0 off one); `keys`: read the watcher's keys (on a terminal only), or a
    Keys-like source of them;
    `score()` gives the score line, shown at the bottom of a terminal."""

    def __init__(self, out=None, delay=None, keys=True, score=None, clock=time.monotonic):
        self.out = out or sys.stdout
        self.console = Console(file=self.out, highlight=False, soft_wrap=True)
        self.terminal = self.console.is_terminal
        self.delay = (DELAY if self.terminal else 0.0) if delay is None else delay
        if hasattr(keys, "read"):  # a source of key presses of its own (tests)
            self.keys = keys
        else:
            self.keys = Keys() if keys and self.terminal else Keys(_NoStream())
        self.score = score or (lambda: "")
        self.paused = False
        self.clock = clock
        self.live = None

    def __enter__(self):
        self.keys.__enter__()
        if self.terminal:
            from rich.live import Live
            self.live = Live(self._status(), console=self.console, auto_refresh=False, transient=True)
            self.live.__enter__()
        return self

    def __exit__(self, *exc):
        try:
            if self.live is not None:
                self.live.__exit__(*exc)
                self.live = None
        finally:
            self.keys.__exit__(*exc)

    def _status(self):
        line = Text(self.score() or "", style="bold")
        if self.keys.live:
            line.append("   %s%s (%.2f s a line)" % ("PAUSED · " if self.paused else "", HELP, self.delay),
                        style="reverse" if self.paused else "dim")
        return line

    def line(self, text):
        """Print one rendered line (it may hold several), then wait as the watcher asks."""
        if self.live is not None:
            self.live.console.print(styled(text))
            self.live.update(self._status(), refresh=True)
        else:
            self.console.print(styled(text))
        self.out.flush()
        self._pace()

    def _pace(self):
        if not self.delay and not self.paused:
            return
        end = self.clock() + self.delay
        while True:
            left = end - self.clock()
            if not self.paused and left <= 0:
                return
            typed = self.keys.read(0.1 if self.paused else min(left, 0.1))
            for k in typed:
                if k in "qQ":
                    raise Quit()
                if k in " pP":
                    self.paused = not self.paused
                elif k in "sSn" and self.paused:
                    self._refresh()
                    return  # one line more
                elif k in "+=":
                    self.delay = max(FASTEST, self.delay / 2)
                    end = self.clock() + min(left, self.delay)
                elif k in "-_":
                    self.delay = min(SLOWEST, self.delay * 2 or DELAY)
                self._refresh()

    def _refresh(self):
        if self.live is not None:
            self.live.update(self._status(), refresh=True)


class _NoStream:
    def isatty(self):
        return False


def watch_game(renderer_class, run, out=None, delay=None, keys=True, symbols=None, clock=time.monotonic):
    """Watch one run: `run(on_events)` plays the game, handing its events over as they come
    (the whole log: the watcher sees every hand and every exchange). Returns 0, or 0 after
    q; a KeyboardInterrupt (Ctrl-C) is the caller's, with the terminal given back."""
    out = out or sys.stdout
    if symbols is None:
        symbols = (getattr(out, "encoding", "") or "").lower().replace("-", "") == "utf8"
    holder = []
    with Watch(out, delay, keys, score=lambda: holder[0].score_line() if holder else "", clock=clock) as w:
        renderer = renderer_class(w.line, None, symbols, watcher=True)
        holder.append(renderer)
        try:
            run(renderer.feed)
            renderer.flush()
        except Quit:
            w.console.print(Text("(stopped: q)", style="dim"))
    return 0


def print_lines(lines, out=None):
    """Lines rendered elsewhere, printed as the watch prints them (no pacing, no keys)."""
    w = Watch(out, delay=0, keys=False)
    for ln in lines:
        w.console.print(styled(ln))
