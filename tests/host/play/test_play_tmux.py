# `tapis play` in a real terminal: tmux runs it, send-keys types, capture-pane reads the
# screen. Skipped, with the reason, where tmux is not installed.
import itertools
import os
import re
import shutil
import subprocess
import sys
import time

import pytest

TMUX = shutil.which("tmux")
_SERVERS = itertools.count(1)
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed: the real-terminal test of `tapis play` needs it "
                         "(apt-get install tmux)")


class Terminal:
    """One tmux server of our own (its own socket), one session running `command`."""

    def __init__(self, command, width=110, height=34):
        self.socket = "tapis-play-test-%d-%d" % (os.getpid(), next(_SERVERS))  # a server each
        env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", TERM="xterm-256color")
        for name in ("COLUMNS", "LINES"):  # set under pytest-xdist; Textual would take them for the size
            env.pop(name, None)
        self.tmux(["new-session", "-d", "-s", "play", "-x", str(width), "-y", str(height),
                   command + "; echo EXIT=$?; sleep 120"], env=env)

    def tmux(self, args, env=None):
        p = subprocess.run([TMUX, "-u", "-L", self.socket] + args, cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=30)
        assert p.returncode == 0, "tmux %s: %s" % (" ".join(args[:1]), p.stderr.strip())
        return p.stdout

    def keys(self, *keys):
        self.tmux(["send-keys", "-t", "play"] + list(keys))

    def screen(self):
        return self.tmux(["capture-pane", "-p", "-t", "play"])

    def wait_for(self, text, seconds=30, gone=False):
        """The screen once `text` is on it (or, with gone, off it)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            s = self.screen()
            if (text in s) != gone:
                return s
            time.sleep(0.1)
        raise AssertionError("%r never %s the screen:\n%s" % (
            text, "left" if gone else "came on", self.screen()))

    def close(self):
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


def tapis_play(*args):
    return " ".join([sys.executable, "-m", "tapis", "play"] + list(args))


def follow_seed(start=16):
    """The first seed from `start` whose first turn for West (seat 0) is to follow a card
    East led without proposing (the same table `tapis play` runs, in process)."""
    from tapis.cython_core.twins import evaluate
    from tapis.host.play.table import PlayTable

    for seed in range(start, start + 60):
        t = PlayTable(seed, "ecarte", 0, evaluator=evaluate, pause_s=0)
        for _ in range(400):
            t.advance(500)
            if t.view()["turn"]:
                break
        v = t.view()
        if v["turn"] and v["phase"] == "play" and v["led"] is not None:
            return seed
    raise AssertionError("no seed from %d gives West a card to follow first" % start)


def test_a_person_plays_in_a_real_terminal_and_quits_with_q():
    seed = follow_seed()
    t = Terminal(tapis_play("--game", "ecarte", "--seed", str(seed), "--pause", "0"))
    try:
        s = t.wait_for("Your hand")
        assert "Tapis · écarté · you are West (seat 0) · seed %d" % seed in s
        s = t.wait_for("▶ Follow")  # West deals, East plays without proposing and leads
        assert re.search(r"Trump  \S+", s)
        t.keys("h")
        hint = re.search(r"Hint: Play (\S+) \(key (\d), then Enter\)\.", t.wait_for("Hint:"))
        assert hint, "no card hinted"
        t.keys("9")
        t.wait_for("✗ no card 9 in a hand of 5")
        t.keys(hint.group(2), "Enter")
        s = t.wait_for("Trick 1: East ")
        assert re.search(r"Trick 1: East \S+, West %s" % re.escape(hint.group(1)), s), s
        t.keys("?")
        t.wait_for("MARK KING")
        t.keys("Escape")  # a lone Escape: the terminal waits a moment for a sequence after it
        t.wait_for("MARK KING", gone=True)
        t.keys("q")
        s = t.wait_for("EXIT=0")
        assert "tapis play: écarté, seed %d" % seed in s and "Traceback" not in s
    finally:
        t.close()


def test_ctrl_c_quits_cleanly_in_a_real_terminal():
    t = Terminal(tapis_play("--game", "piquet", "--seed", "4"))
    try:
        t.wait_for("Your hand")
        t.keys("C-c")
        s = t.wait_for("EXIT=")
        assert "EXIT=0" in s and "Traceback" not in s
    finally:
        t.close()


def tapis_table(*args):
    return " ".join([sys.executable, "-m", "tapis", "table"] + list(args))


def test_watching_in_a_real_terminal_pause_step_quit_unechoed_in_colour():
    t = Terminal(tapis_table("--game", "piquet", "--seed", "3", "--delay", "0.2"))
    try:
        t.wait_for("space pause · s step")
        t.keys("x", "y", "z")  # not echoed into the game's lines
        t.keys("Space")
        paused = t.wait_for("PAUSED")
        time.sleep(1.0)  # not a wait: the span over which nothing may move
        assert t.screen() == paused  # nothing moves while paused
        t.keys("s")  # one line more, still paused
        stepped = t.wait_for("PAUSED")
        for _ in range(50):
            if stepped != paused:
                break
            time.sleep(0.1)
            stepped = t.screen()
        assert stepped != paused and "PAUSED" in stepped
        colours = t.tmux(["capture-pane", "-p", "-e", "-t", "play"])
        assert re.search(r"\x1b\[[0-9;]*31m(?:10|[2-9TJQKA])[♥♦]", colours), "no red suit on the screen"
        t.keys("q")
        s = t.wait_for("EXIT=0")
        assert "(stopped: q)" in s and "xyz" not in s and "Traceback" not in s
    finally:
        t.close()


def test_ctrl_c_while_watching_is_one_line_and_gives_the_terminal_back():
    t = Terminal(tapis_table("--game", "ecarte", "--seed", "5", "--delay", "0.3"))
    try:
        t.wait_for("space pause")
        t.keys("C-c")
        s = t.wait_for("EXIT=")
        assert "EXIT=130" in s and "tapis table: stopped (Ctrl-C), seed 5" in s and "Traceback" not in s
        t.keys("e", "c", "h", "o")  # the terminal echoes again (cbreak mode undone)
        t.wait_for("echo")
    finally:
        t.close()


def test_table_interactive_is_a_person_at_seat_0():
    t = Terminal(tapis_table("--interactive", "--game", "piquet", "--seed", "4", "--bots", "random"))
    try:
        s = t.wait_for("Your hand")
        assert "you are West (seat 0) · seed 4" in s
        t.keys("q")
        s = t.wait_for("EXIT=0")
        assert "tapis play: piquet, seed 4" in s and "Traceback" not in s
    finally:
        t.close()
