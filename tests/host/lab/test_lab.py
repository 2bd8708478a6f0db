"""tapis lab (issue 47, docs/lab.md): `tapis lab --quick` writes the whole pack, each section
passes and says what it checked, summary.json is valid under tapis.lab/1, the report's files
and every raw file are there and agree with the summary; the lab's seeds are answered; bad
input exits 2 in one line before anything is written."""
import json
import subprocess
import sys

import numpy as np
import pytest

from tapis.host import schemas as S
from tapis.host.lab import exact, orders, wagers
from test_cli_conventions import ROOT, env, one_clear_line

SEEDS = ["00112233445566778899aabbccddeeff", "ffeeddccbbaa99887766554433221100"]


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    out = tmp_path_factory.mktemp("lab") / "pack"
    seeds = out.parent / "seeds.txt"
    seeds.write_text("# the lab's seeds\n%s\n\n%s  # the second\n" % tuple(SEEDS))
    p = subprocess.run([sys.executable, "-m", "tapis", "lab", "--out", str(out), "--quick", "--workers", "2",
                        "--seeds", str(seeds), "--json"], cwd=ROOT, env=env(), capture_output=True, text=True,
                       timeout=900)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr[-3000:]
    return out, json.loads(p.stdout)


def test_the_quick_pack_passes_and_is_valid(pack):
    out, s = pack
    assert S.validate(s) == "tapis.lab/1"
    assert json.loads((out / "summary.json").read_text()) == s
    assert s["pass"] and all(s[k]["pass"] for k in ("shuffle", "mathsheet", "memory", "identity"))
    for name in ("report.html", "report.pdf", "README.txt", "nist.png", "orders.png", "positions-32.png", "mathsheet.png"):
        assert (out / name).stat().st_size > 200, name
    assert (out / "report.pdf").read_bytes()[:5] == b"%PDF-"
    html = (out / "report.html").read_text()
    assert "NIST SP 800-22" in html and "dieharder" in html and SEEDS[0] in html


def test_the_shuffle_section_ran_every_test_on_the_raw_files_it_kept(pack):
    out, s = pack
    sh = s["shuffle"]
    assert [t["test"] for t in sh["nist"]][:3] == ["frequency", "block_frequency", "runs"] and len(sh["nist"]) == 15
    assert (out / "shuffle" / "bits.bin").stat().st_size * 8 == sh["bits"]
    rows = (out / "shuffle" / "nist-p-values.csv").read_text().splitlines()
    assert rows[0] == "sequence,test,p_value" and len(rows) - 1 == sum(t.get("p_values", 0) for t in sh["nist"])
    assert sh["dieharder"]["tests"] and all(r["psamples"] > 1 for r in sh["dieharder"]["tests"])
    assert "dieharder -g 200" in (out / "shuffle" / "dieharder.txt").read_text()
    for pack_size in (32, 104):
        perms = np.fromfile(out / "shuffle" / ("orders-%d.bin" % pack_size), dtype=np.uint8).reshape(-1, pack_size)
        assert (np.sort(perms, axis=1) == np.arange(pack_size)).all()  # each row a permutation
        pos = [o for o in sh["orders"] if o["pack"] == pack_size and o["test"] == "position"][0]
        assert len(perms) == pos["shuffles"]
        x, dof = orders.position_chi2(orders.tally(perms.astype(np.int16))[0])  # the summary, from the raw file
        assert (x, dof) == (pytest.approx(pos["statistic"]), pos["dof"])


def test_the_math_sheet_brackets_every_exact_figure_and_its_merge_is_the_meters(pack):
    out, s = pack
    ms = s["mathsheet"]
    assert {(x["game"], x["variant"]) for x in ms["sheets"]} >= {("club", "commission-5"), ("piquet", "au-cent")}
    for r in ms["runs"]:
        assert r["merge_agrees"] and r["figures"] and all(f["brackets"] for f in r["figures"])
        assert len(r["chunks"]) >= 2 and sum(c["deals"] for c in r["chunks"]) == r["deals"]
        meters = json.loads((out / "mathsheet" / ("meters-%s.json" % r["game"])).read_text())
        records = [json.loads(x) for x in (out / "mathsheet" / ("records-%s.json" % r["game"] + "l")).read_text().splitlines()]
        assert meters["house"] == r["money"]["house"]
        assert sum(1 for x in records if x.get("complete")) >= r["deals"]


def test_the_lab_seeds_are_answered_as_tapis_verify_computes_them(pack):
    out, s = pack
    from tapis.host.flash import verify

    board = s["identity"]["boards"][0]
    assert s["identity"]["seeds"] == SEEDS and [a["seed"] for a in board["answers"]] == SEEDS
    image = verify.load_image(out / "identity" / "files-board.image")
    for a in board["answers"]:
        assert verify.expected(image, bytes.fromhex(a["seed"])).hex() == a["answer"]
    assert len({a["answer"] for a in board["answers"]}) == 2
    assert "firmware/games/club/duel.mpy" in board["modules"]


def test_club_exact_figures_are_the_odds_and_the_commission_takes_its_share():
    base, five = exact.sheet("club"), exact.sheet("club", "commission-5")
    f = {x["name"]: x for x in base["figures"]}
    assert f["club punter_win"]["fraction"] == f["club banker_win"]["fraction"]  # the duel is symmetric
    assert base["wagers"][0]["return"] == "1" and base["wagers"][0]["house_take"] == "0"
    push = f["club push"]["value"]
    assert five["wagers"][0]["house_take_value"] == pytest.approx(0.05 * (1 - push))
    assert exact.sheet("piquet", "au-cent")["figures"][0]["value"] > exact.sheet("piquet")["figures"][0]["value"]


def test_the_interval_brackets_and_refuses_as_it_should():
    assert wagers.interval(0, 10)[0] == 0.0 and wagers.interval(10, 10)[1] == 1.0
    lo, hi = wagers.interval(50, 100)
    assert lo < 0.5 < hi and (lo, hi) == (pytest.approx(0.3983, abs=1e-4), pytest.approx(0.6017, abs=1e-4))
    assert wagers.interval(1, 1200)[0] < 1 / 8091  # a rare figure hit once is no miss (Wilson's said it was)
    sheet = {"figures": [{"name": "x", "fraction": "1/2", "value": 0.5}]}
    assert not wagers.bracket(sheet, {"hits": {"x": [90, 100]}}, 20)[0]["brackets"]  # a biased run is caught


@pytest.mark.parametrize("argv,words", [
    (["--seeds", "{bad}"], ["--seeds", "line 1"]),
    (["--seeds", "{empty}"], ["--seeds", "no seed"]),
    (["--out", "{file}"], ["--out", "not a folder"]),
    (["--image", "{bad}"], ["--image"]),
    (["--workers", "1000"], ["--workers", "at most"]),
], ids=lambda x: " ".join(x) if isinstance(x, list) else None)
def test_bad_input_exits_2_in_one_line_and_writes_nothing(tmp_path, argv, words):
    (tmp_path / "bad").write_text("not a seed\n")
    (tmp_path / "empty").write_text("# nothing\n")
    (tmp_path / "file").write_text("x")
    argv = [a.format(bad=tmp_path / "bad", empty=tmp_path / "empty", file=tmp_path / "file") for a in argv]
    if "--out" not in argv:
        argv += ["--out", str(tmp_path / "pack")]
    before = sorted(tmp_path.iterdir())
    p = subprocess.run([sys.executable, "-m", "tapis", "lab", "--quick"] + argv, cwd=ROOT, env=env(),
                       capture_output=True, text=True, timeout=120)
    one_clear_line(p, *words)
    assert sorted(tmp_path.iterdir()) == before


def test_the_deals_on_a_dask_cluster_are_those_of_one_process_and_merge_to_the_meters():
    from distributed import LocalCluster  # (a development dependency)

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        far = wagers.run_game("club", None, 8, 4, 1, scheduler=c.scheduler_address)
    here = wagers.run_game("club", None, 8, 4, 1, workers=1)
    assert far["backend"] == "dask" and far["merge_agrees"] and len(far["chunks"]) == 2
    assert (far["hits"], far["meters"]) == (here["hits"], here["meters"])  # deals seeded per chunk
