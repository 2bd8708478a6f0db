# tapis verify --json prints an object on failure too (issue 46.2): tapis.verify/1's failure
# form (match false, the error), beside the one line on stderr and exit 2.
import json

from tapis.host import schemas as S
from test_cli_conventions import tapis


def test_verify_json_on_a_table_that_does_not_answer_is_an_object_and_one_line():
    p = tapis("verify", "--port", "loop://", "--seed", "00" * 16, "--timeout", "0.3", "--json")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    doc = json.loads(p.stdout)
    assert S.validate(doc) == "tapis.verify/1" and doc["match"] is False and "no answer" in doc["error"]
    assert p.stderr.strip().splitlines() == ["tapis verify: " + doc["error"]]


def test_verify_of_tapis_tables_emulated_board_is_one_clear_line_without_a_repr(tmp_path):
    """The emulated board of `tapis table --host-port` holds no signed manifest: said in words
    (what it is, what to verify instead), never the board's exception repr."""
    import os
    import subprocess
    import sys
    import time

    from tapis.firmware.link.hello import TEST_KEY
    from test_cli_conventions import ROOT, env

    key = tmp_path / "test.key"
    key.write_text(TEST_KEY.hex() + "\n")
    link = str(tmp_path / "link")
    table = subprocess.Popen([sys.executable, "-m", "tapis", "table", "--host-port", link, "--deals", "500", "--seed",
                              "1", "--json"], cwd=ROOT, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(link) and time.monotonic() < deadline:
            time.sleep(0.1)
        p = tapis("verify", "--port", link, "--seed", "00" * 16, "--table-key", str(key), "--json", timeout=60)
    finally:
        table.kill()
        table.wait()
    assert p.returncode == 2 and "Traceback" not in p.stderr
    doc = json.loads(p.stdout)
    assert S.validate(doc) == "tapis.verify/1" and "no signed manifest" in doc["error"] and "Error(" not in doc["error"]
    assert p.stderr.strip().splitlines() == ["tapis verify: " + doc["error"]]
