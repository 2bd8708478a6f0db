"""Seeded écarté under real MicroPython gives exactly CPython's event logs and decks.

tests/ecarte_driver.py runs unchanged under both interpreters: its __main__ prints each
seeded match's event log as JSON. The shuffle (firmware.offboard.rng + firmware.offboard.deck) is compared
deck by deck for every pack size the table uses.
"""
import json
import os
import subprocess
import sys

from ecarte_driver import jsonable, play

from tapis.firmware.offboard import deck
from tapis.firmware.offboard.rng import Seeded
from tapis.simulator.boards import micropython

HERE = micropython.REPO / "tests"
GAMES = 6  # seeds 0..5, 30 deals each (the driver's __main__)


def mp(script=None, code=None, args=()):
    micropython.ensure_installed()
    argv = micropython.command(code=code, script=script, roots=(micropython.AS_TAPIS, HERE),
                               paths=("/tests",), args=args)
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120, input="")
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_seeded_ecarte_matches_give_the_same_event_logs_under_micropython():
    """The driver's __main__, unchanged, under both interpreters."""
    lines = mp(script=HERE / "ecarte_driver.py", args=[str(GAMES)]).splitlines()
    cpython = subprocess.run([sys.executable, str(HERE / "ecarte_driver.py"), str(GAMES)],
                             capture_output=True, text=True, timeout=120, check=True,
                             env=dict(os.environ, PYTHONPATH=str(micropython.REPO)))
    expected = cpython.stdout.splitlines()
    assert len(lines) == len(expected) == GAMES
    for seed, (got, want) in enumerate(zip(lines, expected)):
        assert len(json.loads(want)) > 300  # whole deals, not a stub
        assert json.loads(got) == json.loads(want), "seed %d differs" % seed


def test_the_driver_in_process_agrees_with_its_main():
    """What the CPython tests import (play) is what __main__ printed: 30 deals a seed."""
    line = mp(code="import sys\nsys.path.append('/tests')\nimport json\nfrom ecarte_driver import play, jsonable\n"
                   "print(json.dumps(jsonable(play(3, 30).log)))")
    assert json.loads(line) == json.loads(json.dumps(jsonable(play(3, 30).log)))


SHUFFLE_CODE = """
import json
from tapis.firmware.offboard import deck
from tapis.firmware.offboard.rng import Seeded
out = []
for seed in (0, 1, 7, 2 ** 31 + 5, 123456789):
    r = Seeded(seed)
    out.append([r.next32() for _ in range(5)])
    for make in (deck.deck32, deck.deck36, deck.deck52, deck.shoe):
        out.append(deck.shuffle(make(), r.below))
print(json.dumps(out))
"""


def test_the_seeded_shuffle_gives_the_same_decks_under_micropython():
    got = json.loads(mp(code=SHUFFLE_CODE))
    expected = []
    for seed in (0, 1, 7, 2 ** 31 + 5, 123456789):
        r = Seeded(seed)
        expected.append([r.next32() for _ in range(5)])
        for make in (deck.deck32, deck.deck36, deck.deck52, deck.shoe):
            expected.append(deck.shuffle(make(), r.below))
    assert got == expected
    assert sorted(expected[-1]) == sorted(deck.shoe())  # a permutation, nothing lost
