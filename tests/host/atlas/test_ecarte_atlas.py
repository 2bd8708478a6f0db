# `tapis odds ecarte --all`: the classes stand for every position exactly once, a class's row is
# what any of its positions gives, the command writes the same table on any worker count, and
# (behind -m slow) the whole atlas: its totals and Foster's example in it.
import csv
import json
import random
import subprocess
import sys
import time
from collections import Counter
from math import comb
from pathlib import Path

import pytest

from tapis.cython_core import ecarte_solver as solver
from tapis.cython_core import ecarte_verdict as verdict
from tapis.firmware.cards import parse, parse_list
from tapis.firmware.offboard.deck import deck32
from tapis.host.atlas import row as AR
from tapis.host.atlas import classes as K

ROOT = Path(__file__).resolve().parents[3]


def tapis(*argv):
    return subprocess.run([sys.executable, "-m", "tapis", *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def test_the_classes_stand_for_every_position_once():
    keys = K.classes()
    assert len(keys) == len(set(keys)) == K.CLASSES == 37380
    assert sum(K.multiplicity(k) for k in keys) == K.TOTAL_POSITIONS == comb(32, 5) * 27 == 32 * comb(31, 5)
    for n in range(6):  # elder's trumps: the turned card, n of the 7 other trumps, 5 - n of 24
        assert sum(K.multiplicity(k) for k in keys if k[0] == n) == 32 * comb(7, n) * comb(24, 5 - n)
    assert all(K.key(*K.representative(k)) == k for k in keys)


def test_the_positions_with_one_turned_card_fall_in_the_classes_as_counted():
    # With the eight of hearts turned, every class whose king flag says "the top trump in play
    # is the king" holds as many positions as its plain masks have arrangements.
    turned = parse("8H")
    rest = [c for c in deck32() if c != turned]
    got = Counter(K.key(h, turned) for h in __import__("itertools").combinations(rest, 5))
    want = {k: {3: 6, 2: 3, 1: 1}[len(set(k[3]))] for k in K.classes() if k[2] == bool(k[1] >> 6 & 1)}
    assert got == want


@pytest.mark.slow
def test_the_class_multiplicities_are_the_counts_of_all_5437152_positions():
    import itertools

    got = Counter()
    pack = deck32()
    for turned in pack:
        for hand in itertools.combinations([c for c in pack if c != turned], 5):
            got[K.key(hand, turned)] += 1
    assert got == {k: K.multiplicity(k) for k in K.classes()}


def positions(rng, n):
    """Random positions, strong ones and ones with the king turned (elder's queen then tops)."""
    out = []
    for i in range(n):
        pack = deck32()
        rng.shuffle(pack)
        turned = pack[0]
        if i % 3 == 1:  # trumps and high cards
            pool = [c for c in pack[1:] if c >> 4 == turned >> 4 or c & 15 in (9, 10, 11, 12)]
            out.append((rng.sample(pool, 5), turned))
        elif i % 3 == 2:  # the king turned, the queen in elder's hand
            turned = turned & 0xF0 | 11
            queen = turned & 0xF0 | 10
            out.append(([queen] + [c for c in pack if c not in (turned, queen)][:4], turned))
        else:
            out.append((pack[1:6], turned))
    return out


def test_any_position_gives_the_row_of_its_class():
    from tapis.cython_core import twins

    rng = random.Random(16)
    for hand, turned in positions(rng, 120 if twins.CORE == "cython" else 12):  # a pure row: 0.4 s
        r = AR.row(K.key(hand, turned))
        total, wins, voles = solver.odds(hand, turned, True)
        jeu, stand, point, plain, vole, _ = verdict.verdict(hand, turned)
        assert (r["dd_total"], r["dd_wins"], r["dd_voles"]) == (total, wins, voles)
        assert (r["jeu_de_regle"], r["sure_point"], r["plain_suits"], r["sure_vole"]) == (jeu, point, plain, vole)
        assert r["advice"] == ("stand" if stand else "propose")
        assert r["dd_advice"] == ("stand" if solver.stands(hand, turned, True) else "propose")
        assert [r["dealer_trumps_%d" % i] for i in range(6)] == list(solver.dealer_trumps(hand, turned))


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_a_small_atlas_is_the_same_on_one_or_two_workers(tmp_path):
    from tapis.cython_core import twins

    limit = 400 if twins.CORE == "cython" else 12  # a pure row takes about 0.4 s, a compiled one 0.7 ms
    out = {}
    for workers, form in ((1, ()), (2, ("--json",))):  # one run prints the text, the other the JSON
        path = tmp_path / ("atlas%d.csv" % workers)
        p = tapis("odds", "ecarte", "--all", "--limit", str(limit), "--workers", str(workers), "--out", str(path), *form)
        assert p.returncode == 0, p.stderr
        out[workers] = (path.read_bytes(), p.stdout)
    assert out[1][0] == out[2][0]
    text = out[1][1]
    assert "jeux de règle" in text and "Foster's 44,724 reproduced" in text
    rows, summary = read(tmp_path / "atlas1.csv"), json.loads(out[2][1])
    assert list(rows[0]) == list(AR.COLUMNS) and len(rows) == summary["classes"] == limit
    assert not summary["complete"] and summary["positions"] == sum(int(r["multiplicity"]) for r in rows)
    by = {b["elder_trumps"]: b for b in summary["by_trumps"]}
    assert set(by) == {int(r["elder_trumps"]) for r in rows}
    assert len(by) >= 4 and (len(by) == 6 or limit < 400)  # the subset is spread over the atlas
    for n, b in by.items():
        mine = [r for r in rows if int(r["elder_trumps"]) == n]
        assert b["jeux_de_regle"] == sum(int(r["multiplicity"]) for r in mine if r["jeu_de_regle"] == "True")
        assert b["stand"] == sum(int(r["multiplicity"]) for r in mine if r["advice"] == "stand")
    f = summary["foster"]
    assert f["reproduces_44724"] and f["dd_wins"] == [44724] and f["jeu_de_regle"] and f["advice"] == ["stand"]
    for r in rows[::max(limit // 16, 1)]:  # a row is what the twins say of its hand
        hand, turned = parse_list(r["hand"]), parse(r["turned"])
        assert int(r["dd_wins"]) == solver.odds(hand, turned, True)[1]
        assert r["jeu_de_regle"] == str(verdict.verdict(hand, turned)[0])


@pytest.mark.parametrize("argv,message", [
    (["--all", "--hand", "7H,KS,QS,JS,7D"], "--all takes no --hand"),
    ([], "give --hand and --turned, or --all"),
    (["--hand", "7H,KS,QS,JS,7D"], "give --hand and --turned, or --all"),
    (["--all", "--workers", "0"], "at least 1"),
    (["--all", "--out", "/nonexistent-dir/atlas.csv"], "--out /nonexistent-dir/atlas.csv: No such file"),
    (["--hand", "7H,KS,QS,JS,7D", "--turned", "8H", "--workers", "2"], "--workers goes with --all"),
])
def test_odds_bad_input_exits_2_with_one_line(argv, message):
    p = tapis("odds", "ecarte", *argv)
    assert p.returncode == 2 and message in p.stderr and not p.stdout


@pytest.mark.slow
def test_the_whole_atlas_on_two_workers(tmp_path):
    path = tmp_path / "atlas.csv"
    t0 = time.perf_counter()
    p = tapis("odds", "ecarte", "--all", "--workers", "2", "--out", str(path), "--json")
    took = time.perf_counter() - t0
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    rows = read(path)
    assert len(rows) == s["classes"] == 37380 and s["complete"]
    assert s["positions"] == sum(int(r["multiplicity"]) for r in rows) == 5437152
    assert sum(int(r["multiplicity"]) * int(r["dd_total"]) for r in rows) == 5437152 * 65780
    assert s["jeux_de_regle"]["positions"] == sum(int(r["multiplicity"]) for r in rows if r["jeu_de_regle"] == "True")
    assert s["foster"]["reproduces_44724"] and s["foster"]["jeu_de_regle"]
    want = K.key(parse_list("7H KS QS JS 7D"), parse("8H"))
    foster = [r for r in rows if K.key(parse_list(r["hand"]), parse(r["turned"])) == want]
    assert len(foster) == 1 and foster[0]["dd_wins"] == "44724" and foster[0]["jeu_de_regle"] == "True"
    sys.stderr.write("the whole atlas, 2 workers: %.1f s\n" % took)
