# The journal: records framed with a checked length and 4 bytes of SHA-256; a round trip
# gives back every game; a changed byte anywhere is refused; an incomplete last record (a
# torn write) is dropped and said so; compaction keeps the last 10 completed games and the
# unfinished; a board resumes from the state its last deal left, the game's earlier records
# checked but not parsed, and the earlier games' framing walked.
import os

import pytest
from hypothesis import given, settings, strategies as st

from tapis.firmware.journal import reader as J
from tapis.firmware.games import snapshot
from tapis.firmware.journal.writer import Journal
from tapis.firmware.offboard.memstore import MemoryStore, parse
from tapis.firmware.journal.store import JournalError
from tapis.firmware.journal.resume import load
from tapis.firmware.journal.store import FileStore
from table_rig import Rig, total_events

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


@pytest.fixture(scope="module")
def played():
    """The journal of two whole écarté games and the start of a third."""
    rig = Rig(9, "ecarte")
    games = rig.run(2)
    return rig, bytes(rig.store.read()), games


def test_a_round_trip_gives_back_every_event_and_input(played):
    rig, data, games = played
    again = load(Journal(MemoryStore(data)))
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
    first = data[:parse(data)[1][3]]  # the first three records: every kind of field
    for i in range(len(first)):
        for flip in (0x01, 0x80):
            bad = bytearray(first)
            bad[i] ^= flip
            with pytest.raises(JournalError):
                load(Journal(MemoryStore(bytes(bad))))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_changed_byte_anywhere_is_refused(played, data):
    _rig, raw, _games = played
    i = data.draw(st.integers(0, len(raw) - 1))
    x = data.draw(st.integers(1, 255))
    bad = bytearray(raw)
    bad[i] ^= x
    with pytest.raises(JournalError, match="corrupt"):
        load(Journal(MemoryStore(bytes(bad))))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_an_incomplete_last_record_is_dropped_and_counted(played, data):
    _rig, raw, games = played
    recs, offs, _t = parse(raw)
    k = data.draw(st.integers(1, len(offs) - 1))
    start = offs[k]
    end = offs[k + 1] if k + 1 < len(offs) else len(raw)
    cut = data.draw(st.integers(start + 1, end - 1))
    store = MemoryStore(raw[:cut])
    j = Journal(store)
    load(j)
    assert j.torn == cut - start
    assert bytes(store.read()) == raw[:start]  # truncated to the last whole record


def test_garbage_after_the_records_is_not_taken_for_a_torn_write(played):
    _rig, raw, _games = played
    with pytest.raises(JournalError):
        load(Journal(MemoryStore(raw + b"\x00\x01\x02\x03\x04\x05")))


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
    assert load(Journal(FileStore(path))) == games
    FileStore(path).keep(0, parse(raw)[1][2])
    assert len(load(Journal(FileStore(path)))[0]["inputs"]) == 1


def test_a_compaction_feeds_the_watchdog_as_it_copies(tmp_path, played):
    """main.py hands the file store its watchdog's feed: a full journal's compaction copies
    about 180 KB, longer than the watchdog on a slow flash chip. Fed at every piece."""
    _rig, raw, _games = played
    path = str(tmp_path / "journal.bin")
    store = FileStore(path)
    store.append(raw)
    fed = []
    store.feed = lambda: fed.append(1)
    store.keep(0, len(raw))
    assert len(fed) == -(-len(raw) // 256) and open(path, "rb").read() == raw


def in_a_deal(seed, game, deals):
    """The journal of a game played on a board (no log kept) until `deals` deals ended in
    its second game, and a few inputs into the next."""
    from tapis.simulator.table.emulated import EmulatedTable

    t = EmulatedTable(seed, game, journal=Journal(MemoryStore()))
    j, size = t.journal, 0
    while True:
        t.step()
        if j.store.size() != size:  # a record written: count the deals' ends in the last game
            size = j.store.size()
            if j.number == 2 and bytes(j.store.read())[j.starts[-1]:].count(b'{"k": "d"') >= deals:
                break
    for _ in range(40):  # a few inputs into the next deal (its cards at least)
        t.step()
    return bytes(t.journal.store.read()), list(t.game.log)


def board_open(data):
    j = Journal(MemoryStore(data))
    load(j, False, keep_log=False)
    return j


@pytest.fixture(scope="module")
def dealt():
    return in_a_deal(5, "ecarte", 2)


@pytest.mark.parametrize("game", ["ecarte", "piquet", "club"])
def test_a_board_resumes_from_its_last_deal_as_from_the_game_s_beginning(game):
    from tapis.firmware.boot.build import resume

    data, log = in_a_deal(5, game, 1)
    recs, offs, _t = parse(data)
    assert any(r["k"] == "d" for r in recs)
    whole, board = Journal(MemoryStore(data)), board_open(data)
    load(whole, False)
    assert len(board.last["inputs"]) < len(whole.last["inputs"])  # one deal replayed, not the game
    assert board.last_frames() == whole.last_frames() and board.starts == whole.starts
    a, b = resume(whole)[0], resume(board)[0]
    assert a.snapshot() == b.snapshot()  # the same state, whichever way it was rebuilt
    assert list(b.log) == log[len(log) - len(b.log):] == list(a.log)[len(a.log) - len(b.log):]
    assert len(b.log) < len(a.log)


def test_the_board_refuses_a_changed_byte_anywhere_in_the_game_it_resumes(dealt):
    """Every byte of the resumed game, its records before the last deal's end included
    (checked, not parsed), and the framing of every earlier record."""
    data, _log = dealt
    recs, offs, _t = parse(data)
    first = offs[[k for k, r in enumerate(recs) if r["k"] == "b"][-1]]
    mark = offs[[k for k, r in enumerate(recs) if r["k"] == "d"][-1]]
    assert first < mark
    board_open(data)  # as written: it opens
    for i in list(range(first, len(data))) + [o + k for o in offs if o < first for k in range(4)]:
        bad = bytearray(data)
        bad[i] ^= 0x01
        with pytest.raises(JournalError, match="corrupt"):
            board_open(bytes(bad))
    # an earlier game's payload is left for recall to check (it reads every record)
    bad = bytearray(data)
    bad[offs[1] + 10] ^= 0x01
    board_open(bytes(bad))
    with pytest.raises(JournalError, match="fails its check"):
        load(Journal(MemoryStore(bytes(bad))))


def test_a_torn_deal_end_is_dropped_and_the_game_resumes_from_the_one_before(dealt):
    from tapis.firmware.boot.build import resume

    data, _log = dealt
    recs, offs, _t = parse(data)
    k = [k for k, r in enumerate(recs) if r["k"] == "d"][-1]
    cut = data[:offs[k] + 20]  # the power went while the last deal's end was written
    before = board_open(data[:offs[k]])
    j = board_open(cut)
    assert j.torn == 20 and j.last == before.last
    assert resume(j)[0].snapshot() == resume(board_open(data[:offs[k]]))[0].snapshot()


def old_format(data):
    """A journal's records as the first format framed them: 4A, and a CRC-16."""
    from tapis.firmware.link.frames import crc16
    out = b""
    from tapis.firmware.journal.writer import frame

    for _off, rec in J.records(MemoryStore(data)):
        body = frame(rec)[4:-4]
        n = len(body)
        head = bytes((0x4A, n >> 8, n & 255, (n >> 8) ^ (n & 255) ^ 0x5A)) + body
        c = crc16(head, 0xFFFF)
        out += head + bytes((c >> 8, c & 255))
    return out


def test_a_journal_of_the_first_format_still_reads(played, dealt):
    _rig, raw, games = played
    old = old_format(raw)
    assert old[0] == 0x4A and len(old) < len(raw)
    assert load(Journal(MemoryStore(old))) == games
    bad = bytearray(old)
    bad[30] ^= 0x01
    with pytest.raises(JournalError, match="corrupt"):
        load(Journal(MemoryStore(bytes(bad))))
    data, _log = dealt
    assert board_open(old_format(data)).last == board_open(data).last
    # a board updated in the middle of a game appends the new records to the old ones
    mixed = old_format(data[:parse(data)[1][-3]]) + data[parse(data)[1][-3]:]
    assert board_open(mixed).last == board_open(data).last


def test_a_record_is_framed_as_docs_protocol_md_shows():
    from tapis.firmware.journal.writer import frame

    end = frame({"k": "e", "n": 1})
    assert end.hex(" ").upper() == "4B 00 12 48 7B 22 6B 22 3A 20 22 65 22 2C 20 22 6E 22 3A 20 31 7D " + \
        __import__("hashlib").sha256(end[:-4]).digest()[:4].hex(" ").upper()
    with open(os.path.join(ROOT, "docs", "protocol.md")) as f:
        assert end.hex(" ").upper() in f.read()


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
from firmware import wire as W
from firmware.boot import selftest
from firmware.link.link import Link
from firmware.journal.writer import Journal
from firmware.offboard.memstore import MemoryStore
from firmware.journal.store import JournalError
from firmware.journal.resume import load
from firmware.boot import build as boot
from firmware.games import ecarte
from firmware.games.rules import CHANCE


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
load(j)
g = ecarte.Rules(ecarte.Options())
j.begin("ecarte", g)
deck = [0x0B, 0x0A, 0x09, 0x1B, 0x1A, 0x08, 0x07, 0x06, 0x18, 0x17, 0x2B]
for c in deck:
    j.record(("shoe", CHANCE, c), g.apply(("shoe", CHANCE, c)), W.SHOE, 1)
j2 = Journal(MemoryStore(store.read()))
load(j2)
g2, _t, why, _n = boot.resume(j2)
print("resume", g2.log == g.log, len(g.log), why)
bad = bytearray(store.read())
bad[20] ^= 1
try:
    load(Journal(MemoryStore(bytes(bad))))
    print("corrupt accepted")
except JournalError as e:
    print("corrupt refused", str(e)[:30])
"""


def test_link_selftest_journal_and_resume_answer_alike_under_micropython():
    import subprocess
    import sys

    from tapis.simulator.boards import micropython
    board = micropython.run(code=MP_CODE, timeout=180)
    assert board.returncode == 0, board.stderr
    host = subprocess.run([sys.executable, "-c", MP_CODE], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert host.returncode == 0, host.stderr
    assert board.stdout == host.stdout
    assert "resume True" in board.stdout and "corrupt refused" in board.stdout
    assert "selftest []" in board.stdout


def test_the_self_test_catches_a_broken_codec_and_a_corrupt_journal(monkeypatch, played):
    from tapis.firmware.boot import selftest
    _rig, raw, _games = played
    assert selftest.run(MemoryStore(raw)) == []
    for game in ("piquet", "club"):  # a board playing another game checks its own rules
        assert selftest.run(MemoryStore(raw), game) == []
    bad = bytearray(raw)
    bad[7] ^= 4
    assert any("corrupt" in f for f in selftest.run(MemoryStore(bytes(bad))))
    monkeypatch.setattr(selftest, "crc16", lambda data, crc=0xFFFF: 0)  # what it computes with
    assert any("CRC" in f for f in selftest.run())
