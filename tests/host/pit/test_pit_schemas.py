"""Issue 46.7: the pit's JSON API answers name their schemas (docs/schemas/tapis.pit.*), and
real answers of a running `tapis pit` (a floor of three tables: every page's API, the live
stream, the supervisor's actions, the errors) are valid under the schema they name; the
board's meters inside a table's page under tapis.meters/1, a deal's record under tapis.record/2."""
import json

import httpx

from pit_rig import PitProcess, every_table_dealt

from tapis.host import schemas as S


def named(r, name):
    body = r.json()
    assert S.validate(body) == name, body
    return body


def test_every_answer_of_the_pits_api_is_valid_under_the_schema_it_names(tmp_path):
    pit = PitProcess("--floor", "3", "--pace", "0.05", db=str(tmp_path / "pit.db"))
    try:
        named(pit.http.get("/api/me"), "tapis.pit.me/1")
        floor = pit.wait(every_table_dealt(3, 3))
        assert S.validate(floor) == "tapis.pit.floor/1"
        for row in floor["tables"]:
            page = named(pit.http.get("/api/tables/" + row["table"]), "tapis.pit.table/1")
            if page["meters"] is not None:  # the board's own, as tapis meters --json gives them
                m = {k: v for k, v in page["meters"].items() if k not in ("read_at", "checked_seq")}
                assert S.validate(m) == "tapis.meters/1"
            deal = named(pit.http.get("/api/tables/%s/deals/%d" % (row["table"], page["deals"][-1]["seq"])),
                         "tapis.pit.deal/1")
            assert S.validate(deal["record"]) == "tapis.record/2"
        table = floor["tables"][0]["table"]
        with pit.http.stream("GET", "/api/stream") as s:
            lines = s.iter_lines()
            for _ in range(3):
                m = next(json.loads(x[6:]) for x in lines if x.startswith("data: "))
                assert S.validate(m) == "tapis.pit.news/1"
        verify = named(pit.act(table, "verify"), "tapis.pit.action/1")
        assert verify["result"] == "software check passed" and verify["digest"] == verify["expected"]
        named(pit.act(table, "disable"), "tapis.pit.action/1")
        named(pit.act(table, "acknowledge"), "tapis.pit.action/1")
        errors = [pit.http.get("/api/tables/nonesuch"), pit.http.get("/api/tables/%s/deals/%d" % (table, 2 ** 70)),
                  pit.act(table, "verify", credential="guess"), pit.act(table, "launch"),
                  pit.http.post("/api/tables/%s/disable" % table, json={"credential": "x"}),  # no CSRF token
                  httpx.get(pit.url + "api/floor", timeout=10),  # not signed in
                  pit.http.post("/api/tables/%s/disable" % table, content=b"{", headers={
                      "X-CSRF-Token": pit.csrf, "Content-Type": "application/json"})]
        for r in errors:
            assert r.status_code >= 400
            named(r, "tapis.pit.error/1")
        named(pit.http.post("/logout", headers={"X-CSRF-Token": pit.csrf}), "tapis.pit.action/1")
    finally:
        assert pit.stop() == 130, pit.stderr
