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
