# The journal: records framed with a checked length and a CRC; a round trip gives back
# every game; a changed byte anywhere is refused; an incomplete last record (a torn write)
# is dropped and said so; compaction keeps the last 10 completed games and the unfinished.
import os

import pytest
from hypothesis import given, settings, strategies as st

from tapis.firmware import reader as J
from tapis.firmware import snapshot
from tapis.firmware.journal import Journal, JournalError
from tapis.firmware.memstore import MemoryStore
from tapis.firmware.store import FileStore
from table_rig import Rig, total_events

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
    FileStore(path).keep(0, J.parse(raw)[1][2])
    assert len(Journal(FileStore(path)).open()[0]["inputs"]) == 1


def test_a_snapshot_keeps_lists_tuples_dicts_sets_and_bytes_apart():
    import json

    class O:
        pass
    o = O()
    o.a, o.b, o.c, o.d, o.e, o.f = [1, (2, 3)], (4, [5]), {1: (2,)}, {7}, bytearray(b"\x01"), None
    o.g = b"\x02"
    fields = ("a", "b", "c", "d", "e", "f", "g")
    frozen = json.loads(json.dumps(snapshot.take(o, fields)))
    back = O()
    snapshot.restore(back, frozen, fields)
    assert (back.a, back.b, back.c, back.d, back.e, back.f, back.g) == \
        ([1, (2, 3)], (4, [5]), {1: (2,)}, {7}, bytearray(b"\x01"), None, b"\x02")
    with pytest.raises(ValueError, match="lacks 'h'"):
        snapshot.restore(back, frozen, fields + ("h",))
    o.h = object()  # a game's state is plain values only
    with pytest.raises(ValueError, match="plain values"):
        snapshot.take(o, ("h",))


MP_CODE = r"""
from firmware import wire as W, selftest
from firmware.link import Link
from firmware.journal import Journal, JournalError
from firmware.memstore import MemoryStore
from firmware import boot
from firmware.games import ecarte
from firmware.rules import CHANCE


class End:
    def __init__(self, inbox, outbox):
        self.inbox, self.outbox = inbox, outbox

    def read(self):
        d = b"".join(self.inbox)
        self.inbox[:] = []
        return d

    def write(self, b):
        self.outbox.append(bytes(b))
        return len(b)


a, b = [], []
ctrl, dev = Link(End(a, b), session=1), Link(End(b, a), W.DEV_SHOE, b"MP", session=2)
ctrl.greet(W.SHOE)
got = []
for t in range(1, 30):
    if t == 3:
        ctrl.send(W.SHOE, W.DRAW, b"\x05")
        dev.send(W.SHOE, W.CARD, b"\x1b")
    got.extend(f[3] for f in ctrl.poll(t))
    got.extend(f[3] for f in dev.poll(t))
print("link", got, ctrl.stats(W.SHOE)["serial"], ctrl.ready(W.SHOE))
print("selftest", selftest.run(MemoryStore()))

store = MemoryStore()
j = Journal(store)
j.open()
g = ecarte.Rules(ecarte.Options())
j.begin("ecarte", g)
deck = [0x0B, 0x0A, 0x09, 0x1B, 0x1A, 0x08, 0x07, 0x06, 0x18, 0x17, 0x2B]
for c in deck:
    j.record(("shoe", CHANCE, c), g.apply(("shoe", CHANCE, c)), W.SHOE, 1)
j2 = Journal(MemoryStore(store.read()))
j2.open()
g2, _t, why = boot.resume(j2)
print("resume", g2.log == g.log, len(g.log), why)
bad = bytearray(store.read())
bad[20] ^= 1
try:
    Journal(MemoryStore(bytes(bad))).open()
    print("corrupt accepted")
except JournalError as e:
    print("corrupt refused", str(e)[:30])
"""


def test_link_selftest_journal_and_resume_answer_alike_under_micropython():
    import subprocess
    import sys

    from tapis.simulator import micropython
    board = micropython.run(code=MP_CODE, timeout=180)
    assert board.returncode == 0, board.stderr
    host = subprocess.run([sys.executable, "-c", MP_CODE], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert host.returncode == 0, host.stderr
    assert board.stdout == host.stdout
    assert "resume True" in board.stdout and "corrupt refused" in board.stdout
    assert "selftest []" in board.stdout


def test_the_self_test_catches_a_broken_codec_and_a_corrupt_journal(monkeypatch, played):
    from tapis.firmware import selftest
    _rig, raw, _games = played
    assert selftest.run(MemoryStore(raw)) == []
    for game in ("piquet", "club"):  # a board playing another game checks its own rules
        assert selftest.run(MemoryStore(raw), game) == []
    bad = bytearray(raw)
    bad[7] ^= 4
    assert any("corrupt" in f for f in selftest.run(MemoryStore(bytes(bad))))
    monkeypatch.setattr(selftest, "crc16", lambda data, crc=0xFFFF: 0)  # what it computes with
    assert any("CRC" in f for f in selftest.run())
