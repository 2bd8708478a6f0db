# tapis verify against an emulated table (issue 46.2): the CPython board of `tapis table
# --host-port` holds no signed manifest, so it answers over the firmware files it runs and the
# host computes the same from its own (host/flash/verify.py runs); a keyed table asked without its key
# says so at once; --json prints an object on failure too (tapis.verify/1's failure form).
import json
import os
import subprocess
import sys
import time

import pytest

from tapis.firmware.link.hello import TEST_KEY
from tapis.host import schemas as S
from helpers import within
from test_cli_conventions import ROOT, env, tapis

SEED = "0123456789abcdef0123456789abcdef"


def test_verify_json_on_a_table_that_does_not_answer_is_an_object_and_one_line():
    p = tapis("verify", "--port", "loop://", "--seed", "00" * 16, "--timeout", "0.3", "--json")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    doc = json.loads(p.stdout)
    assert S.validate(doc) == "tapis.verify/1" and doc["match"] is False and "no answer" in doc["error"]
    assert p.stderr.strip().splitlines() == ["tapis verify: " + doc["error"]]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """`tapis table --host-port`: (its link's path, a key file of the test key it is keyed with)."""
    tmp = tmp_path_factory.mktemp("hostport")
    key = tmp / "test.key"
    key.write_text(TEST_KEY.hex() + "\n")
    link = str(tmp / "link")
    p = subprocess.Popen([sys.executable, "-m", "tapis", "table", "--host-port", link, "--deals", "5000", "--seed",
                          "1", "--json"], cwd=ROOT, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        within(60, lambda: os.path.exists(link) or p.poll() is not None, "tapis table's link at %s" % link)
        assert p.poll() is None
        yield link, str(key)
    finally:
        p.kill()
        p.wait()


def test_verify_of_tapis_tables_emulated_board_answers_and_matches(table):
    link, key = table
    p = tapis("verify", "--port", link, "--seed", SEED, "--table-key", key, "--json", timeout=120)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert S.validate(doc) == "tapis.verify/1" and doc["match"] is True and doc["board"] == doc["host"]
    from tapis.host.flash.verify import emulated, runs
    assert doc["host"] == emulated(bytes.fromhex(SEED)).hex() and doc["files"] == sorted(runs())
    assert "firmware/operator/recall.py" in doc["files"]
    text = tapis("verify", "--port", link, "--seed", "ff" * 16, "--table-key", key, timeout=120)
    assert text.returncode == 0 and "MATCH: the emulated table runs this install's firmware" in text.stdout
    assert "an emulated table: no signed manifest" in text.stdout


def test_verify_of_the_emulated_board_checks_every_file(table, tmp_path):
    """What it answers is checked: against the same files with one byte added to one of
    them (--image: a record of those), a mismatch and exit 2."""
    from tapis.host.flash.verify import keep_image, runs
    link, key = table
    files = runs()
    files["firmware/table/controller.py"] += b"#"
    keep_image(tmp_path / "changed.image", files)
    p = tapis("verify", "--port", link, "--seed", SEED, "--table-key", key, "--image",
              str(tmp_path / "changed.image"), timeout=120)
    assert p.returncode == 2 and "MISMATCH" in p.stdout


def test_a_keyed_table_asked_without_its_key_says_so_at_once(table):
    """Issue 46.2: the table answers an unkeyed request with NAK [NAK_KEY]; tapis verify says
    so in one line, exit 2, long before its --timeout of 600 s (it waited that out before)."""
    link, _key = table
    t0 = time.monotonic()
    p = tapis("verify", "--port", link, "--seed", SEED, "--timeout", "600", "--json", timeout=600)
    took = time.monotonic() - t0
    assert p.returncode == 2 and "Traceback" not in p.stderr
    doc = json.loads(p.stdout)
    assert S.validate(doc) == "tapis.verify/1" and "--table-key" in doc["error"] and "keyed" in doc["error"]
    assert p.stderr.strip().splitlines() == ["tapis verify: " + doc["error"]]
    assert took < 120, took  # (a tenth of the wait it did before: the table's first step answers)
    for cmd in (["events"], ["meters"], ["recall"]):  # every --port tool alike
        q = tapis(*cmd, "--port", link, "--timeout", "600", timeout=600)
        assert q.returncode == 2 and q.stderr.strip().splitlines() == ["tapis %s: %s" % (cmd[0], doc["error"])]
