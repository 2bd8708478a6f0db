# The pieces under `tapis play`: the paced bots, the table that rests while the person
# thinks, the bot factory per seat, and the command's refusals.
import subprocess
import sys

import pytest

from tapis.firmware.games import panel as B
from tapis.cython_core.twins import evaluate
from tapis.host.play.seats import Paced
from tapis.host.play.table import QUIET_STEPS, PlayTable
from tapis.simulator import kits


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


class Echo:
    def presses(self, view):
        return [(B.CONFIRM, 0)] if view.get("turn") else []


def test_a_paced_bot_presses_only_after_its_pause():
    clock = Clock()
    bot = Paced(Echo(), 0.5, clock)
    assert bot.presses({"turn": True}) == []  # held back, not pressed on the view
    assert bot.take(1) == []
    clock.t += 0.49
    assert bot.take(2) == []
    clock.t += 0.02
    assert bot.take(3) == [(B.CONFIRM, 0)]
    assert bot.take(4) == []


def test_the_table_rests_while_the_person_thinks_and_no_stall_is_declared():
    def resting(seed):  # the table 50 ticks in, and whether West is to play (the person thinks)
        t = PlayTable(seed, "ecarte", 0, evaluator=evaluate, pause_s=0)
        for _ in range(50):
            t.advance(500)
        return t, t.view()["turn"] and t.view()["phase"] == "play"

    t = next(t for t, ok in map(resting, range(16, 60)) if ok)  # the first seed from 16 that gives it
    view = t.view()
    assert view["turn"] and view["phase"] == "play"
    assert t.quiet >= QUIET_STEPS and t.advance(500) == 1  # at rest: one step a tick
    steps = sum(t.advance(500) for _ in range(5000))  # 5000 ticks: the heartbeats come and go
    assert 5000 < steps < 2 * 5000  # a short burst for each heartbeat, not 500 steps a tick
    assert t.controller.faults == [] and t.view()["turn"] and t.view()["phase"] == "play"


def test_a_bot_factory_is_asked_for_every_other_seat():
    asked = []

    def bots(seat):
        asked.append(seat)
        return kits.find("club").Bot()

    t = PlayTable(1, "club", 2, evaluator=evaluate, bots=bots, pause_s=0)
    assert asked == [0, 1, 3]
    assert t.person.seat == 2 and t.person.player is t.panel


def test_a_seat_the_game_does_not_have_is_refused():
    with pytest.raises(ValueError, match="seats 0 to 1"):
        PlayTable(1, "piquet", 2)


def run(*args):
    return subprocess.run([sys.executable, "-m", "tapis", "play"] + list(args), capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60)


def test_without_a_terminal_it_says_so_and_exits_2():
    p = run("--seed", "1")
    assert p.returncode == 2 and not p.stdout
    assert p.stderr.strip().splitlines() == [
        "tapis play: needs a terminal (stdin and stdout a TTY); to watch bots without one, use `tapis table`"]


@pytest.mark.parametrize("args, message", [
    (["--game", "poker"], "invalid choice: 'poker'"),
    (["--seat", "2"], "écarté seats players 0 to 1, not 2"),
    (["--game", "club", "--seat", "-1"], "club écarté seats players 0 to 3, not -1"),
    (["--seat", "x"], "invalid int value"),
    (["--seed", "-3"], "between 0"),
    (["--variant", "nope"], "ecarte has no variant 'nope'"),
    (["--pause", "-1"], "--pause is 0 to 10 seconds"),
])
def test_bad_arguments_exit_2_with_a_message(args, message):
    p = run(*args)
    assert p.returncode == 2 and message in p.stderr.splitlines()[-1] and not p.stdout
