# The journal's records as the games played (firmware/journal/played.py): grouped into games,
# the inputs of a game read from flash as they are asked for, the last games as JSON in
# chunks (what a RECALL answers). The public behaviour only: the record format is store.py's.
import json

import pytest

from tapis.firmware.journal import played
from tapis.firmware.journal.resume import load
from tapis.firmware.journal.store import JournalError
from tapis.firmware.journal.writer import Journal
from tapis.firmware.offboard.memstore import MemoryStore
from table_rig import Rig


@pytest.fixture(scope="module")
def rig():
    """Two whole écarté games journaled and the start of a third."""
    r = Rig(9, "ecarte")
    r.run(2)
    return r


def test_json_lists_come_back_as_the_tuples_they_were():
    assert played.tuples([["card", 1, [3, 4]], 5]) == (("card", 1, (3, 4)), 5)
    assert played.tuples("x") == "x"


def test_records_group_into_games_with_voided_inputs_done_and_supervised():
    recs = [{"k": "b", "g": "ecarte", "o": {}, "n": 1, "s": None, "e": [["deal", 0, 1]]},
            {"k": "i", "a": ["shoe", -1, 3], "e": [["card", 1, 3]]},
            {"k": "i", "a": ["shoe", -1, 4], "e": [["card", 1, 4]], "f": 2},
            {"k": "v", "n": 1, "why": "torn"},
            {"k": "s", "what": "recall"},
            {"k": "e"},
            {"k": "b", "g": "ecarte", "o": {}, "n": 2, "s": {"x": 1}, "e": []}]
    games = played.group(recs)
    assert [(g["number"], g["done"]) for g in games] == [(1, True), (2, False)]
    g = games[0]
    assert g["events"] == [("deal", 0, 1)]
    assert g["inputs"] == [[("shoe", -1, 3), [("card", 1, 3)], None]]
    assert g["voided"] == [{"why": "torn", "inputs": [[("shoe", -1, 4), [("card", 1, 4)], 2]]}]
    assert g["supervised"] == [{"k": "s", "what": "recall"}]
    with pytest.raises(JournalError, match="before any game began"):
        played.group([{"k": "i", "a": [], "e": []}])


def test_the_last_games_read_from_flash_are_the_games_the_journal_holds(rig):
    games = load(Journal(MemoryStore(bytes(rig.store.read()))))
    last = played.recent(rig.ctrl.journal, 2)
    assert [g["number"] for g in last] == [2, 3]
    assert isinstance(last[0]["inputs"], played.Inputs)  # left in flash
    assert [list(g["inputs"]) for g in last] == [g["inputs"] for g in games[1:]]
    assert last[0]["inputs"][1:3] == games[1]["inputs"][1:3]
    assert played.recent(rig.ctrl.journal, 9)[0]["number"] == 1


@pytest.mark.parametrize("size", [1, 7, 160, 100000])
def test_a_games_json_is_sent_in_chunks_that_make_it_whole(rig, size):
    game = played.recent(rig.ctrl.journal, 1)[0]
    n, parts = played.chunks(game, size)
    parts = list(parts)
    assert len(parts) == n and all(len(p) <= size for p in parts)
    whole = json.loads(b"".join(parts))
    assert whole["number"] == game["number"] and len(whole["inputs"]) == len(game["inputs"])
    assert played.tuples(whole["inputs"]) == played.tuples([list(i) for i in game["inputs"]])
