# The journal: records framed with a checked length and a CRC; a round trip gives back
# every game; a changed byte anywhere is refused; an incomplete last record (a torn write)
# is dropped and said so; compaction keeps the last 10 completed games and the unfinished.
import pytest
from hypothesis import given, settings, strategies as st

from firmware import journal as J
from firmware.journal import FileStore, Journal, JournalError, MemoryStore
from table_rig import Rig, total_events


@pytest.fixture(scope="module")
def played():
    """The journal of two whole écarté games and the start of a third."""
    rig = Rig(9, "ecarte")
    games = rig.run(2)
    return rig, bytes(rig.store.read()), games


def test_a_round_trip_gives_back_every_event_and_input(played):
    rig, data, games = played
    again = Journal(MemoryStore(data)).open()
    assert again == games
    assert [g["number"] for g in games] == [1, 2, 3]
    assert [g["done"] for g in games] == [True, True, False]
    # the journal holds the whole event log the rules produced
    assert total_events(games)[-len(rig.ctrl.game.log):] == rig.ctrl.game.log
    assert games[0]["state"] is None and games[1]["state"] is not None
    scores = [e for e in total_events(games) if e[0] == "score"]
    pays = [e for e in total_events(games) if e[0] == "pay"]
    assert scores and pays  # scores and settlements are journaled


def test_a_changed_byte_at_every_position_is_refused(played):
    _rig, data, _games = played
    first = data[:J.parse(data)[1][3]]  # the first three records: every kind of field
    for i in range(len(first)):
        for flip in (0x01, 0x80):
            bad = bytearray(first)
            bad[i] ^= flip
            with pytest.raises(JournalError):
                Journal(MemoryStore(bytes(bad))).open()


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_changed_byte_anywhere_is_refused(played, data):
    _rig, raw, _games = played
    i = data.draw(st.integers(0, len(raw) - 1))
    x = data.draw(st.integers(1, 255))
    bad = bytearray(raw)
    bad[i] ^= x
    with pytest.raises(JournalError, match="corrupt"):
        Journal(MemoryStore(bytes(bad))).open()


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_an_incomplete_last_record_is_dropped_and_counted(played, data):
    _rig, raw, games = played
    recs, offs, _t = J.parse(raw)
    k = data.draw(st.integers(1, len(offs) - 1))
    start = offs[k]
    end = offs[k + 1] if k + 1 < len(offs) else len(raw)
    cut = data.draw(st.integers(start + 1, end - 1))
    store = MemoryStore(raw[:cut])
    j = Journal(store)
    j.open()
    assert j.torn == cut - start
    assert bytes(store.read()) == raw[:start]  # truncated to the last whole record


def test_garbage_after_the_records_is_not_taken_for_a_torn_write(played):
    _rig, raw, _games = played
    with pytest.raises(JournalError):
        Journal(MemoryStore(raw + b"\x00\x01\x02\x03\x04\x05")).open()


def test_compaction_keeps_the_last_ten_completed_games_and_the_unfinished():
    rig = Rig(21, "club")
    games = rig.run(13)
    assert [g["number"] for g in games] == list(range(4, 15))
    assert [g["done"] for g in games] == [True] * 10 + [False]
    # what was kept still replays: a board reset now resumes the 14th game
    g = rig.ctrl.game
    before = (list(g.balances), g.banker, g.banks_done, g.deals_done, g.house)
    rig.boot()
    g = rig.ctrl.game
    assert rig.journal.last["number"] == 14
    assert (list(g.balances), g.banker, g.banks_done, g.deals_done, g.house) == before


def test_a_file_store_survives_reopening(tmp_path, played):
    _rig, raw, games = played
    path = str(tmp_path / "journal.bin")
    FileStore(path).append(raw)
    assert Journal(FileStore(path)).open() == games
    FileStore(path).replace(raw[:J.parse(raw)[1][2]])
    assert len(Journal(FileStore(path)).open()[0]["inputs"]) == 1


def test_state_freezes_lists_tuples_dicts_sets_and_bytes_apart():
    class O:
        pass
    o = O()
    o.a, o.b, o.c, o.d, o.e, o.f = [1, (2, 3)], (4, [5]), {1: (2,)}, {7}, bytearray(b"\x01"), None
    o.g = O()
    o.g.x = (1,)
    o.fn = len
    frozen = J.state(o)
    assert "fn" not in frozen
    import json
    back = O()
    back.g = O()
    J.restore(back, json.loads(json.dumps(frozen)))
    assert (back.a, back.b, back.c, back.d, back.e, back.f, back.g.x) == \
        ([1, (2, 3)], (4, [5]), {1: (2,)}, {7}, bytearray(b"\x01"), None, (1,))
