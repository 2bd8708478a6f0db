# Issue 33.2, the golden games (docs/records.md "Golden games"): every game, plain and under
# each variant, played whole on the seeds tests/golden/regen.py names, must give the deal
# records checked in beside it, byte for byte: on the twins this run uses (make test runs them
# compiled, then with TAPIS_PURE=1: they use a twin), and, for the first deal of each game, on the
# MicroPython virtual board. Each golden record replays to itself (`tapis replay`). A change
# of any rule, any record's key or its order shows up here; when it is meant, regenerate
# (.venv/bin/python tests/golden/regen.py) and the diff says what changed.
import io
import json
import os
from contextlib import redirect_stdout

import pytest

from golden import regen

CASES = regen.cases()
IDS = [regen.name(g, v) for g, v in CASES]
HOW = "if the change is meant: .venv/bin/python tests/golden/regen.py %s, and commit the diff"


def golden(game, variant):
    with open(regen.path(game, variant)) as f:
        return f.read()


def test_every_game_and_variant_has_its_golden_file_and_no_other_is_there():
    files = sorted(f for f in os.listdir(regen.HERE) if f.endswith(".jsonl"))
    assert files == sorted(n + ".jsonl" for n in IDS)


@pytest.mark.parametrize("game, variant", CASES, ids=IDS)
def test_the_table_plays_the_golden_games(game, variant):
    want, got = golden(game, variant), regen.generate(game, variant)
    assert got == want, "\n".join(["%s differs from its golden games:" % regen.name(game, variant)]
                                  + regen.changes(want, got) + [HOW % regen.name(game, variant)])


@pytest.mark.parametrize("game, variant", CASES, ids=IDS)
def test_tapis_replay_reproduces_every_golden_record(game, variant):
    from tapis.host import cli
    text = golden(game, variant)
    records = [json.loads(line) for line in text.splitlines()]
    assert {r["seed"] for r in records} == set(regen.SEEDS) and all(r["complete"] for r in records)
    assert all(r["game"] == game for r in records)
    out = io.StringIO()
    with redirect_stdout(out):
        rc = cli.main(["replay", regen.path(game, variant)])
    assert rc == 0, out.getvalue()
    assert out.getvalue().splitlines()[-1] == "%d records: all match" % len(records)


@pytest.mark.parametrize("game, variant", regen.MICROPYTHON, ids=[regen.name(g, v) for g, v in regen.MICROPYTHON])
def test_the_micropython_board_plays_the_golden_deals(game, variant):
    """The firmware under real MicroPython (the webassembly port) deals and plays alike: the
    first golden deal of each game, byte for byte (a few deals: that board is slow)."""
    want = golden(game, variant).splitlines(True)[0]
    got = regen.play(game, variant, regen.SEEDS[0], deals=1, board="micropython")
    assert got == want, "\n".join(regen.changes(want, got))


def test_docs_records_md_specifies_every_key_the_golden_records_carry():
    """docs/records.md is the specification: every key of every golden record, and of its
    `start` and `options`, is named there (as `key`), and every input kind."""
    with open(os.path.join(regen.ROOT, "docs", "records.md")) as f:
        doc = f.read()
    named = set()
    for game, variant in CASES:
        for line in golden(game, variant).splitlines():
            r = json.loads(line)
            named |= set(r) | set(r["start"]) | set(r["options"]) | {i[0] for i in r["inputs"]}
    assert sorted(k for k in named if "`%s`" % k not in doc) == []
