"""Every `--json` output and every deal record has a JSON Schema (docs/schemas/, listed in
docs/schemas.md), and the real outputs of every subcommand and game are valid under the
schema they name (host/schemas.py, the jsonschema package). A change of shape is a new
version: a moved field is refused under the old one (issue 33.1)."""
import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from test_shoe_tool import pty_pair  # noqa: F401 (a fixture)

from tapis.host import schemas as S

ROOT = Path(__file__).resolve().parents[2]
DRAFT = "https://json-schema.org/draft/2020-12/schema"
GAMES = ("ecarte", "piquet", "club")
HAS_PLOT = subprocess.run([sys.executable, "-c", "import matplotlib"], capture_output=True).returncode == 0


def tapis(*args, stdin=None, env=None, ok=(0,)):
    p = subprocess.run([sys.executable, "-m", "tapis"] + [str(a) for a in args], capture_output=True, text=True,
                       input=stdin, env=env, timeout=300, cwd=ROOT)
    assert p.returncode in ok, "tapis %s: exit %d\n%s" % (" ".join(map(str, args)), p.returncode, p.stderr)
    return p.stdout


def valid(text, *expected):
    """Every line of a JSON-lines output valid under the schema it names; the names seen."""
    seen = S.validate_lines(text)
    assert seen, "no output"
    assert set(seen) <= set(expected), seen
    return seen


# ---- the schema files ------------------------------------------------------------------

@pytest.mark.parametrize("name", S.names())
def test_every_schema_file_is_a_valid_2020_12_schema_naming_itself(name):
    schema = S.load(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == DRAFT
    assert schema["title"] == name and schema["$id"] == "urn:tapis:schema:" + name
    assert schema["description"]
    if schema.get("deprecated"):  # superseded: says by what, and that one is current
        newer = re.match(r"superseded by (\S+):", schema["$comment"]).group(1)
        assert newer in S.names() and not S.load(newer).get("deprecated")
        assert newer.split("/")[0] == name.split("/")[0] and int(newer.split("/")[1]) > int(name.split("/")[1])


def names_in_code():
    found = set()
    for part in ("host", "simulator", "firmware", "cython_core"):
        for path in (ROOT / part).rglob("*.py"):
            if "node_modules" not in path.parts:
                found |= set(re.findall(r"[\"'](tapis\.[a-z][a-z0-9_.]*/[0-9]+)[\"']", path.read_text(encoding="utf-8")))
    from tapis.simulator.kits.schema import SCHEMA
    return found | {"%s/%d" % (S.RECORD, SCHEMA)}


def test_every_schema_name_in_the_code_has_a_file_and_every_current_file_is_used():
    used, files = names_in_code(), set(S.names())
    assert used - files == set(), "named in the code, no schema file"
    current = {n for n in files if not S.load(n).get("deprecated")}
    assert current - used == set(), "a current schema no command prints"
    assert files - current - used == files - current, "a superseded schema still printed"


def test_docs_list_every_schema_and_say_which_are_superseded():
    text = (ROOT / "docs" / "schemas.md").read_text(encoding="utf-8")
    for name in S.names():
        assert "`%s`" % name in text, name
        if S.load(name).get("deprecated"):
            line = next(x for x in text.splitlines() if "`%s`" % name in x)
            assert "superseded" in line, line


def test_an_output_without_a_schema_name_or_with_an_unknown_one_is_refused():
    for bad in ({}, {"schema": None}, {"schema": "tapis.eval.piquet/9"}, {"schema": "eval piquet"}, []):
        with pytest.raises(S.SchemaError):
            S.validate(bad)


# ---- the real outputs ------------------------------------------------------------------

ELDER, YOUNGER = "AS KS QS JS TS 9S 8S 7S AH KH QH JH", "AD KD QD JD TD 9D 8D 7D AC KC QC JC"
BLANCHE = "AS 9S 8S 7S TH 9H 8H 7H 9D 8D 7D 9C"  # carte blanche: no king, queen or jack
CHEAP = [
    (["info", "--json"], "tapis.info/1"),
    (["ports", "--json"], "tapis.ports/1"),
    (["setup", "--json"], "tapis.setup/1"),
    (["eval", "ecarte", "--hand", "KH,QH,7S,8D,9C", "--turned", "8H", "--json"], "tapis.eval.ecarte/1"),
    (["eval", "ecarte", "--hand", "KH,QH,KS,8D,9C", "--turned", "8H", "--dealer", "--json"], "tapis.eval.ecarte/1"),
    (["eval", "ecarte", "--hand", "KH,QH,JH,AH,9C", "--turned", "8H", "--json"], "tapis.eval.ecarte/1"),
    (["eval", "piquet", "--elder", ELDER, "--younger", YOUNGER, "--json"], "tapis.eval.piquet/2"),
    (["eval", "piquet", "--elder", BLANCHE, "--younger", "KS QS JS KH QH JH KD QD JD KC QC JC", "--json"],
     "tapis.eval.piquet/2"),
    (["eval", "club", "--banker", "KS,JS,9S,2H", "--punter", "AH,3D,4C,5S", "--trump", "8H", "--json"],
     "tapis.eval.club/1"),
    (["eval", "club", "--banker", "KS,JS,9S,2H", "--punter", "KS,JS,9S,2H", "--trump", "D", "--json"],
     "tapis.eval.club/1"),
    (["odds", "club", "--json"], "tapis.odds.club/2"),
    (["odds", "ecarte", "--hand", "KH,QH,7S,8D,9C", "--turned", "8H", "--json"], "tapis.odds.ecarte/1"),
] + [(["simulate", "--game", g, "--rounds", 3, "--seed", 1, "--json", "--quiet"], "tapis.simulate/1")
     for g in GAMES] + [
    (["simulate", "--game", "ecarte", "--rounds", 2, "--seed", 2, "--bots", "random,advisor,rules", "--variant", "pool",
      "--json", "--quiet"], "tapis.simulate/1"),
    (["simulate", "--game", "piquet", "--rounds", 1, "--variant", "au-cent", "--json", "--quiet"],
     "tapis.simulate/1"),
    (["simulate", "--game", "club", "--rounds", 4, "--variant", "eight-seats", "--json", "--quiet"],
     "tapis.simulate/1"),
]


@pytest.mark.parametrize("argv,name", CHEAP, ids=lambda x: " ".join(map(str, x)) if isinstance(x, list) else x)
def test_a_commands_json_is_valid_under_the_schema_it_names(argv, name):
    assert valid(tapis(*argv), name) == [name]


def test_the_atlas_summary_is_valid(tmp_path):
    out = tapis("odds", "ecarte", "--all", "--limit", 3, "--quiet", "--json", "--out", tmp_path / "a.csv")
    assert valid(out, "tapis.odds.ecarte.atlas/1") == ["tapis.odds.ecarte.atlas/1"]


@pytest.mark.skipif(not HAS_PLOT, reason="matplotlib (the plot extra) is not installed")
def test_the_outputs_with_a_plot_are_valid(tmp_path):
    club = json.loads(tapis("odds", "club", "--json", "--plot", tmp_path / "c.png"))
    assert club["by_trumps"] and S.validate(club) == "tapis.odds.club/2"
    ecarte = json.loads(tapis("odds", "ecarte", "--hand", "KH,QH,7S,8D,9C", "--turned", "8H", "--json",
                              "--plot", tmp_path / "e.png"))
    assert ecarte["by_dealer_trumps"] and S.validate(ecarte) == "tapis.odds.ecarte/1"
    sim = json.loads(tapis("simulate", "--game", "club", "--rounds", 3, "--json", "--quiet", "--plot", tmp_path / "s.png"))
    assert sim["plot"] and S.validate(sim) == "tapis.simulate/1"


@pytest.mark.parametrize("game,chunks", [("club", 2), ("piquet", 1)])
def test_an_interrupted_simulations_json_is_valid(game, chunks, capsys):
    """Ctrl-C after some chunks: what `tapis simulate --json` prints, the rounds done with
    interrupted and asked."""
    import argparse

    from tapis.host.commands.simulate import show
    from tapis.simulator.montecarlo import simulate as MC

    done = []

    def progress(n):  # Ctrl-C as the chunk is counted
        done.append(n)
        if len(done) == chunks:
            raise KeyboardInterrupt

    with pytest.raises(MC.Interrupted) as stop:
        MC.simulate(game, 10 ** 9, 1, progress=progress, chunk=2, trace=5)
    show(argparse.Namespace(json=True, csv=False), stop.value.report)
    report = json.loads(capsys.readouterr().out)
    assert report["interrupted"] and report["asked"] == 10 ** 9 and report["rounds"] == 2 * chunks
    assert S.validate(report) == "tapis.simulate/1"


def variants(game):
    import importlib
    return [None] + sorted(importlib.import_module("tapis.firmware.offboard.variants.%s" % game).VARIANTS)


RUNS = [(g, v) for g in GAMES for v in variants(g)]


@pytest.mark.parametrize("game,variant", RUNS, ids=["%s-%s" % r for r in RUNS])
def test_every_games_deal_records_are_valid_in_every_variant(game, variant):
    argv = ["table", "--game", game, "--seed", 7, "--deals", 12 if game == "club" else 8, "--json", "--quiet"]
    argv += ["--variant", variant] if variant else []
    assert set(valid(tapis(*argv), "tapis.record/2")) == {"tapis.record/2"}


@pytest.mark.parametrize("game", ("ecarte", "piquet"))
def test_records_with_the_laws_at_work_are_valid(game):
    """A misfeeding shoe: misdeals, void deals and the laws' answers in the records."""
    out = tapis("table", "--game", game, "--seed", 11, "--deals", 30, "--json", "--quiet", "--faults", "shoe=0.05")
    records = [json.loads(x) for x in out.splitlines()]
    assert any(r["laws"] for r in records)
    valid(out, "tapis.record/2")


@pytest.mark.parametrize("game", GAMES)
def test_recalled_records_and_replays_answers_are_valid(game, tmp_path):
    journal = tmp_path / "j.bin"
    tapis("table", "--game", game, "--seed", 5, "--deals", 4, "--json", "--quiet", "--journal", journal)
    recalled = tapis("recall", "--journal", journal, "--json")
    records = [json.loads(x) for x in recalled.splitlines()]
    assert records and all(r["journal"] is not None and r["seed"] is None for r in records)
    valid(recalled, "tapis.record/2")
    assert set(valid(tapis("replay", "-", "--json", stdin=recalled), "tapis.replay/1")) == {"tapis.replay/1"}
    records[0]["balances" if game == "club" else "scores"][0] += 1  # not what the deal gives
    wrong = tapis("replay", "-", "--json", stdin=json.dumps(records[0]), ok=(1,))
    answer = json.loads(wrong)
    assert not answer["matches"] and answer["differences"] and S.validate(answer) == "tapis.replay/1"


@pytest.mark.parametrize("game", GAMES)
def test_a_recalled_deal_in_progress_is_valid(game, tmp_path):
    """A journal that ends mid-deal: its last record is "complete": false, keys all there."""
    from table_rig import Rig

    rig = Rig(13, game)
    rig.run(1)
    for _ in range(4000):  # into the next game's first deal
        rig.now += 1
        rig.ctrl.step(rig.now)
        for x in rig.devices + rig.lines:
            x.step(rig.now)
    rig.journal.flush()
    (tmp_path / "j.bin").write_bytes(rig.store.read())
    out = tapis("recall", "--journal", tmp_path / "j.bin", "--json")
    assert [json.loads(x)["complete"] for x in out.splitlines()][-1] is False
    valid(out, "tapis.record/2")


# ---- the tools that talk to a port: a virtual board, a console, a shoe on a pty ----------

def test_flashs_json_is_valid_when_it_fails_deploys_and_checks(tmp_path):
    from tapis.simulator.boards.ptyboard import PtyBoard

    valid(tapis("flash", "--port", "bogus://x", "--json", ok=(2,)), "tapis.flash/1")
    env = dict(os.environ, TAPIS_KEY_DIR=str(tmp_path / "keys"))
    with PtyBoard() as board:
        done = json.loads(tapis("flash", "--port", board.path, "--verify", "--entry", "none", "--json", env=env))
        checked = json.loads(tapis("flash", "--port", board.path, "--check", "--json", env=env))
    assert done["ok"] and done["verified"] and checked["ok"]
    assert S.validate(done) == S.validate(checked) == "tapis.flash/1"


def test_pairs_json_is_valid(pty_pair, tmp_path):
    import threading

    from test_shoe_tool import MasterPort
    from tapis.simulator.table.devices import EmuConsole
    from tapis.simulator.kits import find
    from tapis.simulator.table.pipes import pipe

    master, path = pty_pair
    key_file = tmp_path / "table.key"
    key_file.write_text(bytes(range(32)).hex() + "\n")
    console = EmuConsole(pipe()[0], 2, find("piquet").Bot(), key=None)
    t = threading.Thread(target=lambda: console.pair(MasterPort(master)))
    t.start()
    out = tapis("pair", "--port", path, "--key-file", key_file, "--seat", 2, "--json")
    t.join(15)
    assert valid(out, "tapis.pair/1") == ["tapis.pair/1"]


@pytest.mark.parametrize("dialect", ("frames", "text"))
def test_the_emulated_shoes_log_is_valid(pty_pair, dialect):
    """What `tapis shoe emulate --json` says it sends, in either dialect (nobody reads it:
    the pty keeps the 33 lines)."""
    _master, path = pty_pair
    out = tapis("shoe", "emulate", "--port", path, "--dialect", dialect, "--stream", "--pack", 32, "--seed", 3,
                "--interval", 0, "--json")
    events = [json.loads(x) for x in out.splitlines()]
    assert len(events) == 33 and {e["direction"] for e in events} == {"out"}
    valid(out, "tapis.shoe.event/1")


def test_the_monitors_events_summary_and_capture_are_valid(tmp_path):
    """A capture of every kind of event (frames with cards, faults, counts, a payload, a
    corrupt frame, noise; then text cards, faults and a garbled line), decoded again with
    --hex and captured anew: every line valid, the capture's too."""
    from tapis.firmware.link import frames as F
    from tapis.firmware import wire as W
    from tapis.firmware.cards import parse
    from tapis.host.shoe import traffic as H

    frames = [F.encode(W.SHOE, 1, W.SHUFFLE, bytes([32])), F.encode(W.SHOE, 2, W.DRAW, bytes([2])),
              F.encode(W.SHOE, 3, W.CARD, bytes([parse("KH")])), F.encode(W.SHOE, 3, W.CARD, bytes([parse("KH")])),
              F.encode(W.SHOE, 4, W.FAULT, b"F" + bytes([parse("7S")])), F.encode(W.SHOE, 5, W.HELLO, b"tapis"),
              F.encode(W.SHOE, 6, W.CARD, bytes([0xEE]))]
    broken = bytearray(frames[2])
    broken[-1] ^= 0xFF
    runs = {"frames": [frames[0] + b"\x00\x07", frames[1] + bytes(broken)] + frames[2:],
            "text": [b"KH\n7S\n", b"ERR F 7S\nERR E\n", b"what?\n"]}
    for dialect, reads in runs.items():
        capture, again = tmp_path / ("%s.jsonl" % dialect), tmp_path / ("%s-again.jsonl" % dialect)
        capture.write_text(H.capture_header("loop://", 115200, "2026-12-04T06:00:00+00:00")
                           + "".join(H.capture_line(0.01 * i, r) for i, r in enumerate(reads)))
        out = tapis("shoe", "monitor", "--from", capture, "--json", "--hex", "--capture", again)
        seen = valid(out, "tapis.shoe.event/1", "tapis.shoe.summary/1")
        assert seen[-1] == "tapis.shoe.summary/1" and len(seen) > len(reads) + 1
        header, *lines = [json.loads(x) for x in again.read_text().splitlines()]
        assert S.validate(header) == "tapis.shoe.capture/1" and len(lines) == len(reads)
        for line in lines:
            S.validate(line, "tapis.shoe.capture/1", part="read")
    kinds = {(e.get("dialect"), e["type"]) for e in map(json.loads, out.splitlines())}
    assert ("text", "GARBLED") in kinds and ("text", "FAULT") in kinds


def test_what_shoe_draw_prints_is_valid(pty_pair):
    from test_real_devices import ShoeOnPty

    master, path = pty_pair
    dev = ShoeOnPty(master, 7)
    try:
        out = tapis("shoe", "draw", "--port", path, "--shuffle", "32", "--json", "33")
    finally:
        dev.close()
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["type"] for x in lines] == ["CARD"] * 32 + ["FAULT"]
    valid(out, "tapis.shoe.draw/1")


# ---- a change of shape is refused under the old name ------------------------------------

def refused(output, name=None):
    with pytest.raises(S.SchemaError):
        S.validate(output, name)


def moved(d, key, into):
    """`d` with d[key] moved under d[into] (a dict, made if need be)."""
    out = copy.deepcopy(d)
    out.setdefault(into, {})[key] = out.pop(key)
    return out


def test_the_two_drifts_of_issue_33_are_new_versions_and_the_old_shapes_are_refused_under_them():
    piquet = json.loads(tapis("eval", "piquet", "--elder", ELDER, "--younger", YOUNGER, "--json"))
    assert S.validate(piquet) == "tapis.eval.piquet/2"
    old = {k: v for k, v in piquet.items() if k in ("point", "sequence", "sets", "repique")}
    old.update(piquet["totals"])  # the totals where /1 had them, at the top
    assert S.validate(old, "tapis.eval.piquet/1") == "tapis.eval.piquet/1"
    refused(dict(old, schema="tapis.eval.piquet/2"))
    refused(dict(piquet, schema="tapis.eval.piquet/1"))  # the current shape is not /1's
    flat = dict(piquet, **piquet["totals"])
    del flat["totals"]
    refused(flat)
    club = json.loads(tapis("odds", "club", "--json"))
    assert S.validate(club) == "tapis.odds.club/2"
    fractions = dict({k: club[k]["fraction"] for k in ("punter_win", "push", "banker_win")}, core=club["core"])
    assert S.validate(fractions, "tapis.odds.club/1") == "tapis.odds.club/1"
    refused(dict(fractions, schema="tapis.odds.club/2"))
    refused(dict(club, schema="tapis.odds.club/1"))


def test_a_moved_missing_extra_or_mistyped_field_is_refused():
    outputs = [json.loads(tapis(*argv)) for argv, _ in CHEAP[3:12:2]]
    record = json.loads(tapis("table", "--game", "piquet", "--seed", 5, "--deals", 1, "--json").splitlines()[0])
    sim = json.loads(tapis("simulate", "--game", "ecarte", "--rounds", 2, "--seed", 1, "--json", "--quiet"))
    for out in outputs + [record, sim]:
        S.validate(out)
        keys = [k for k in out if k not in ("schema", "game")]
        for k in keys[:4]:
            refused(moved(out, k, "elsewhere"))
            gone = dict(out)
            del gone[k]
            refused(gone)
            refused(dict(out, **{k: 12345 if isinstance(out[k], str) else "mistyped"}))
        refused(dict(out, unexpected=1))
    refused(moved(record, "trump" if "trump" in record else "talon", "start"))
    seat = copy.deepcopy(sim)
    seat["seats"][0]["win_rate_95"] = seat["seats"][0].pop("win_rate_ci95")
    refused(seat)
    for game in GAMES:  # a game's record is held to its own keys
        other = json.loads(tapis("table", "--game", game, "--seed", 5, "--deals", 1, "--json").splitlines()[0])
        S.validate(other)
        for g in set(GAMES) - {game}:
            refused(dict(other, game=g))
