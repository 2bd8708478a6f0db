"""Seeded écarté under real MicroPython gives exactly CPython's event logs and decks.

tests/ecarte_driver.py runs unchanged under both interpreters: its __main__ prints each
seeded match's event log as JSON. The shuffle (firmware.rng + firmware.deck) is compared
deck by deck for every pack size the table uses.
"""
import json

from ecarte_driver import jsonable, play

from firmware import deck
from firmware.rng import Seeded
from simulator import micropython

HERE = micropython.REPO / "tests"
GAMES = 6  # seeds 0..5, 30 deals each (the driver's __main__)


def mp(script=None, code=None, args=()):
    micropython.ensure_installed()
    argv = micropython.command(code=code, script=script, roots=(micropython.FIRMWARE_DIR, HERE),
                               paths=("/tests",), args=args)
    import subprocess
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120, input="")
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_seeded_ecarte_matches_give_the_same_event_logs_under_micropython():
    lines = mp(script=HERE / "ecarte_driver.py", args=[str(GAMES)]).splitlines()
    assert len(lines) == GAMES
    for seed, line in enumerate(lines):
        expected = jsonable(play(seed, 30).log)
        assert len(expected) > 300  # 30 whole deals, not a stub
        assert json.loads(line) == json.loads(json.dumps(expected)), "seed %d differs" % seed


SHUFFLE_CODE = """
import json
from firmware import deck
from firmware.rng import Seeded
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
