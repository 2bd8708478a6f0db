# Issue 12.4, the tamper-evident journal: every attack on the journal that issue 12 lists,
# made as an attacker with the flash but not the device key would make it (the record's
# sum or CRC recomputed, records dropped, cut, moved or brought from another table), must be
# refused at boot (firmware.boot.build.build, as a board builds the table), by the self-test, and
# by `tapis recall --verify`; truncation at a record boundary by --verify against the head
# it verified before. On the CPython board and on the MicroPython unix port's board.
import hashlib
import inspect
import json
import os
import subprocess
import sys
import tempfile

import pytest

from tapis.firmware.boot import selftest
from tapis.firmware.link.frames import crc16
from tapis.firmware.journal.writer import Journal
from tapis.firmware.journal.store import JournalError
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.simulator.testkey import TEST_DEVICE, TEST_KEY
from table_rig import Rig

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
# the board's key and id (what the journal takes; a journal of before issue 12.4 took none)
KEYED = dict(key=TEST_KEY, device=TEST_DEVICE) if "key" in inspect.signature(Journal).parameters else {}


def board_journal(data):
    return Journal(MemoryStore(data), **KEYED)


class Board(Rig):
    """The CPython board with its device key (the simulator's test key)."""

    def _controller(self):
        for _addrs, end in self.wires:
            end.inbox.clear()
            if hasattr(end, "tx"):
                end.tx.clear()
        from tapis.firmware.boot.build import build
        self.journal = Journal(self.store, held=self.held, **KEYED)
        ctrl = build(self.route(), self.journal, self.name, self.options)
        self.game = ctrl.game
        return ctrl


def split(data):
    """The journal's records as bytes each, in order (framing only: magic, length)."""
    out, i = [], 0
    while i < len(data):
        n = (data[i + 1] << 8 | data[i + 2]) + {0x4A: 6, 0x4B: 8, 0x4C: 12}[data[i]]
        out.append(data[i:i + n])
        i += n
    return out


def payload(rec):
    return rec[4:len(rec) - {0x4A: 2, 0x4B: 4, 0x4C: 8}[rec[0]]]


def kind(rec):
    return json.loads(payload(rec))["k"]


def reframe(rec, body, how):
    """A record with a new payload, as the attacker makes it: "sum": the sum recomputed (a
    record of the unkeyed format: all he can compute); "tag": the old tag kept."""
    n = len(body)
    if rec[0] == 0x4C and how == "tag":
        return bytes((0x4C, n >> 8, n & 255, (n >> 8) ^ (n & 255) ^ 0x5A)) + body + rec[-8:]
    if rec[0] == 0x4A:
        head = bytes((0x4A, n >> 8, n & 255, (n >> 8) ^ (n & 255) ^ 0x5A))
        c = crc16(head + body, 0xFFFF)
        return head + body + bytes((c >> 8, c & 255))
    head = bytes((0x4B, n >> 8, n & 255, (n >> 8) ^ (n & 255) ^ 0x5A))
    return head + body + hashlib.sha256(head + body).digest()[:4]


def edited(data, pick, change, how="sum"):
    """The journal with the last record `pick(rec)` selects changed by change(payload)."""
    recs = split(data)
    k = max(i for i, r in enumerate(recs) if pick(r))
    body = change(payload(recs[k]))
    assert body != payload(recs[k])
    recs[k] = reframe(recs[k], body, how)
    return b"".join(recs)


def boots(data, game):
    """Does a board boot on these journal bytes? (its controller, or the JournalError)"""
    try:
        return Board(1, game, store=MemoryStore(data)).ctrl
    except JournalError as e:
        return e


@pytest.fixture(scope="module")
def club():
    b = Board(3, "club")
    b.run(2)
    return bytes(b.store.read())


@pytest.fixture(scope="module")
def ecarte():
    b = Board(9, "ecarte")
    b.run(3)
    return bytes(b.store.read())


def refused_everywhere(data, game, tmp_path=None):
    """Refused at boot, by the self-test and by tapis recall --verify (which names the
    record); returns the boot's error."""
    got = boots(data, game)
    assert isinstance(got, JournalError), "the board booted on the forged journal"
    assert "record" in str(got) or "refused" in str(got)
    assert selftest.run(board_journal(data), game), "the self-test passed the forged journal"
    if tmp_path is not None:
        r = verify(tmp_path, data)
        assert r.returncode == 2 and "fails verification" in r.stderr and "record" in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
    return got


def keys(tmp_path):
    d = tmp_path / "keys"
    d.mkdir(exist_ok=True)
    (d / ("%s.key" % TEST_DEVICE)).write_text(TEST_KEY.hex() + "\n")
    return d


def verify(tmp_path, data, name="journal.bin"):
    path = tmp_path / name
    path.write_bytes(data)
    env = dict(os.environ, TAPIS_KEY_DIR=str(keys(tmp_path)))
    return subprocess.run([sys.executable, "-m", "tapis", "recall", "--verify", "--journal", str(path), "--quiet"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)


def test_the_unforged_journals_boot_and_verify(club, ecarte, tmp_path):
    for data, game in ((club, "club"), (ecarte, "ecarte")):
        assert not isinstance(boots(data, game), JournalError)
        assert selftest.run(board_journal(data), game) == []
    r = verify(tmp_path, ecarte)
    assert r.returncode == 0, r.stderr


def _balances(body):
    rec = json.loads(body)
    rec["s"]["balances"][0] += 1000
    return json.dumps(rec).encode()


@pytest.mark.parametrize("how", ["sum", "tag"])
def test_a_sum_recomputed_edit_of_a_balance_is_refused(club, tmp_path, how):
    forged = edited(club, lambda r: kind(r) == "d" and b'"balances"' in payload(r), _balances, how)
    refused_everywhere(forged, "club", tmp_path)


@pytest.mark.parametrize("how", ["sum", "tag"])
def test_a_sum_recomputed_edit_of_the_stake_is_refused(ecarte, tmp_path, how):
    forged = edited(ecarte, lambda r: kind(r) == "b", lambda b: b.replace(b'"stake": 1,', b'"stake": 100,'), how)
    refused_everywhere(forged, "ecarte", tmp_path)


@pytest.mark.parametrize("how", ["sum", "tag"])
def test_a_sum_recomputed_edit_of_the_house_commission_is_refused(club, tmp_path, how):
    forged = edited(club, lambda r: kind(r) == "b", lambda b: b.replace(b'"commission": 0,', b'"commission": 50,'),
                    how)
    refused_everywhere(forged, "club", tmp_path)


def test_a_deleted_record_is_refused(ecarte, tmp_path):
    recs = split(ecarte)
    k = next(i for i, r in enumerate(recs) if kind(r) == "i" and b'"shoe"' in payload(r))
    refused_everywhere(b"".join(recs[:k] + recs[k + 1:]), "ecarte", tmp_path)


def test_a_deleted_game_is_refused(ecarte, tmp_path):
    recs = split(ecarte)
    starts = [i for i, r in enumerate(recs) if kind(r) == "b"]
    assert len(starts) >= 3
    refused_everywhere(b"".join(recs[:starts[1]] + recs[starts[2]:]), "ecarte", tmp_path)


def test_reordered_records_are_refused(ecarte, tmp_path):
    recs = split(ecarte)
    k = next(i for i, r in enumerate(recs) if kind(r) == "i" and kind(recs[i + 1]) == "i")
    recs[k], recs[k + 1] = recs[k + 1], recs[k]
    refused_everywhere(b"".join(recs), "ecarte", tmp_path)


@pytest.fixture(scope="module")
def theirs():
    """Another table's journal: its own key and id."""
    kw = dict(key=hashlib.sha256(b"another table").digest(), device="another") if KEYED else {}

    class Other(Board):
        def _controller(self):
            from tapis.firmware.boot.build import build
            self.journal = Journal(self.store, held=self.held, **kw)
            ctrl = build(self.route(), self.journal, self.name, self.options)
            self.game = ctrl.game
            return ctrl

    t = Other(5, "ecarte")
    t.run(1)
    return bytes(t.store.read())


def spliced(ours, theirs):
    """Our journal with its last game replaced by the other table's last game."""
    ours, them = split(ours), split(theirs)
    start = max(i for i, r in enumerate(ours) if kind(r) == "b")
    return b"".join(ours[:start] + them[max(i for i, r in enumerate(them) if kind(r) == "b"):])


def test_a_game_spliced_from_another_table_s_journal_is_refused(ecarte, theirs, tmp_path):
    refused_everywhere(spliced(ecarte, theirs), "ecarte", tmp_path)
    # and their whole journal in place of ours: not this table's
    got = refused_everywhere(theirs, "ecarte")
    assert "not this table" in str(got)


def test_truncation_at_a_record_boundary_is_found_against_the_head_verified(ecarte, tmp_path):
    recs = split(ecarte)
    r = verify(tmp_path, ecarte)
    assert r.returncode == 0, r.stderr
    cut = b"".join(recs[:len(recs) - 5])  # five whole records gone: a sound chain, shorter
    r = verify(tmp_path, cut)
    assert r.returncode == 2 and "no longer reaches the head verified" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    # the head stays the one verified: the cut journal is refused again
    assert verify(tmp_path, cut).returncode == 2
    # a journal that went on from the head is verified, and the head moves on
    b = Board(9, "ecarte", store=MemoryStore(ecarte))
    b.run(4)
    r = verify(tmp_path, bytes(b.store.read()))
    assert r.returncode == 0 and "reaching the head verified before" in r.stderr, r.stderr


@pytest.mark.parametrize("store", ["memory", "file"])
def test_compaction_restarts_the_chain_verifiably(tmp_path, store):
    from tapis.firmware.journal.store import FileStore
    b = Board(2, "ecarte", store=FileStore(str(tmp_path / "flash.bin")) if store == "file" else None)
    b.run(12)  # past KEEP: compacted
    if store == "file":
        b.journal.flush()
        data = (tmp_path / "flash.bin").read_bytes()
    else:
        data = bytes(b.store.read())
    head = json.loads(payload(split(data)[0]))
    assert head["k"] == "h" and head["d"] == TEST_DEVICE and len(head["p"]) == 8  # the tag it goes on from
    assert selftest.run(board_journal(data), "ecarte") == []
    assert verify(tmp_path, data).returncode == 0
    # the compacted journal's first game dropped too: refused
    recs = split(data)
    starts = [i for i, r in enumerate(recs) if kind(r) == "b"]
    refused_everywhere(b"".join(recs[:1] + recs[starts[1]:]), "ecarte", tmp_path)


def test_a_table_journal_file_verifies_under_the_key_the_host_keeps(tmp_path):
    env = dict(os.environ, TAPIS_KEY_DIR=str(tmp_path / "keys"))
    path = str(tmp_path / "table.bin")

    def tapis(*args):
        return subprocess.run([sys.executable, "-m", "tapis"] + list(args), cwd=ROOT, capture_output=True,
                              text=True, timeout=300, env=env)

    assert tapis("table", "--deals", "2", "--seed", "3", "--journal", path, "--json").returncode == 0
    r = tapis("recall", "--verify", "--journal", path, "--quiet")
    assert r.returncode == 0 and "device tapis-table" in r.stderr, r.stderr
    assert len(list((tmp_path / "keys").glob("tapis-table-*.head"))) == 1  # the journal's own device (issue 33.4)
    data = open(path, "rb").read()
    with open(path, "wb") as f:
        f.write(edited(data, lambda r: kind(r) == "b", lambda b: b.replace(b'"stake": 1,', b'"stake": 100,')))
    r = tapis("recall", "--verify", "--journal", path)
    assert r.returncode == 2 and "record 1 " in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_records_of_the_unkeyed_format_are_refused_once_a_key_is_there(ecarte):
    unkeyed = Rig(9, "ecarte")
    unkeyed.run(1)
    got = boots(bytes(unkeyed.store.read()), "ecarte")
    assert isinstance(got, JournalError)


# ---- on a MicroPython board: the unix port's, booting from a flash directory ----------------
def unix_boots(data, game):
    """Boot the unix port's board on these journal bytes: None when it plays, else what it said."""
    from tapis.simulator.boards.vboard import BoardError, VirtualBoard
    from tapis.simulator.boards.vboot import UNIX, firmware_image
    if not UNIX.exists():
        pytest.skip("the MicroPython unix port is not installed (make install)")
    flash = tempfile.TemporaryDirectory()
    root = flash.name
    for path, blob in firmware_image().items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "wb") as f:
            f.write(blob)
    with open(os.path.join(root, "journal.bin"), "wb") as f:
        f.write(data)
    try:
        VirtualBoard(game, unix_heap=512 * 1024, flash=flash).close()
    except BoardError as e:
        return str(e)
    finally:
        flash.cleanup()
    return None


def test_every_attack_is_refused_on_a_micropython_board(club, ecarte, theirs):
    assert unix_boots(ecarte, "ecarte") is None  # the journal as the board wrote it: it plays
    recs = split(ecarte)
    starts = [i for i, r in enumerate(recs) if kind(r) == "b"]
    k = next(i for i, r in enumerate(recs) if kind(r) == "i" and kind(recs[i + 1]) == "i")
    swapped = list(recs)
    swapped[k], swapped[k + 1] = recs[k + 1], recs[k]
    attacks = {
        "balance": (edited(club, lambda r: kind(r) == "d" and b'"balances"' in payload(r), _balances), "club"),
        "stake": (edited(ecarte, lambda r: kind(r) == "b", lambda b: b.replace(b'"stake": 1,', b'"stake": 100,')),
                  "ecarte"),
        "commission": (edited(club, lambda r: kind(r) == "b",
                              lambda b: b.replace(b'"commission": 0,', b'"commission": 50,')), "club"),
        "deleted record": (b"".join(recs[:k] + recs[k + 1:]), "ecarte"),
        "deleted game": (b"".join(recs[:starts[1]] + recs[starts[2]:]), "ecarte"),
        "reordered": (b"".join(swapped), "ecarte"),
        "spliced": (spliced(ecarte, theirs), "ecarte"),
        "resealed": (resealed_edit(ecarte)[0], "ecarte"),
        "seal deleted": (b"".join(recs[:seals(recs)[2]] + recs[seals(recs)[2] + 1:]), "ecarte"),
    }
    for name, (data, game) in attacks.items():
        said = unix_boots(data, game)
        assert said is not None and "journal" in said, "%s: the MicroPython board booted on it" % name


# ---- a refused journal is copied off and moved aside by the operator, never by the board -----
def test_board_journal_exports_then_moves_aside_only_when_asked(ecarte, tmp_path):
    from tapis.simulator.boards.ptyboard import PtyBoard
    forged = b"".join(split(ecarte)[:3] + split(ecarte)[4:])  # a deleted record: refused at boot
    with PtyBoard() as board:
        board.execute("f = open('/journal.bin', 'wb')\nf.write(bytes.fromhex(%r))\nf.close()" % forged.hex(),
                      forward=False)

        def tapis(*args):
            return subprocess.run([sys.executable, "-m", "tapis", "board", "journal", "--port", board.path] +
                                  list(args), cwd=ROOT, capture_output=True, text=True, timeout=300)

        r = tapis("--out", str(tmp_path / "copy.bin"))
        assert r.returncode == 0, r.stderr
        assert (tmp_path / "copy.bin").read_bytes() == forged
        ls = "import os\nprint(sorted(n for n in os.listdir('/') if n.startswith('journal')))"
        assert board.execute(ls, forward=False)[0].decode().strip() == "['journal.bin']"  # left in place
        r = tapis("--out", str(tmp_path / "again.bin"), "--move-aside")
        assert r.returncode == 0 and "aside-1" in r.stdout, r.stderr
        assert (tmp_path / "again.bin").read_bytes() == forged
        assert board.execute(ls, forward=False)[0].decode().strip() == "['journal.bin.aside-1']"
        r = tapis("--out", str(tmp_path / "none.bin"))
        assert r.returncode == 2 and "no /journal.bin" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    # the copy verifies as what it is: a journal with a record missing, named
    r = verify(tmp_path, (tmp_path / "copy.bin").read_bytes(), "copy-check.bin")
    assert r.returncode == 2 and "record 3" in r.stderr, r.stderr


def seals(recs):
    return [i for i, r in enumerate(recs) if kind(r) == "z"]


def test_a_seal_closes_each_game_and_each_deal(ecarte):
    recs = split(ecarte)
    states = [i for i, r in enumerate(recs) if kind(r) in ("b", "d")]
    assert len(states) > 4
    # every game's beginning but the first's, and every deal's state, comes after a seal
    assert seals(recs) == [i - 1 for i in states[1:]]


def resealed(recs, z):
    """The seal recs[z] with its SHA-256 recomputed over the records before it, as the
    attacker can (SHA-256 needs no key), its tag kept (the one he cannot make)."""
    start = max([i for i in seals(recs) if i < z] + [0])
    h = hashlib.sha256(recs[start][-8:] if start else
                       (bytes(json.loads(payload(recs[0]))["p"]) or recs[0][-8:]))
    for r in recs[start + 1:z]:
        h.update(r)
    body = json.dumps({"k": "z", "h": h.hexdigest()}).encode()
    return reframe(recs[z], body, "tag")


def resealed_edit(data):
    """(an input edited in the second sealed segment, its seal recomputed; the seal's number)"""
    recs = split(data)
    z = seals(recs)[1]
    k = max(i for i in range(z) if kind(recs[i]) == "i")
    body = payload(recs[k]).replace(b'"e": [', b'"e": [["void"], ', 1)
    assert body != payload(recs[k])
    recs[k] = reframe(recs[k], body, "tag")
    assert resealed(split(data), z) == split(data)[z]  # (the seal as the table made it)
    recs[z] = resealed(recs, z)
    return b"".join(recs), z


def test_an_edit_with_its_seal_recomputed_is_refused(ecarte, tmp_path):
    forged, z = resealed_edit(ecarte)
    got = refused_everywhere(forged, "ecarte", tmp_path)
    assert "record %d " % z in str(got) and "tag does not chain" in str(got)


def test_a_seal_deleted_is_refused(ecarte, tmp_path):
    recs = split(ecarte)
    z = seals(recs)[2]
    got = refused_everywhere(b"".join(recs[:z] + recs[z + 1:]), "ecarte", tmp_path)
    assert "seal" in str(got) or "chain" in str(got)


def test_a_sealed_segment_deleted_with_its_seal_is_refused(ecarte, tmp_path):
    recs = split(ecarte)
    a, b = seals(recs)[1:3]
    got = refused_everywhere(b"".join(recs[:a + 1] + recs[b + 1:]), "ecarte", tmp_path)
    assert "seal" in str(got) or "chain" in str(got)


def test_the_boot_checks_a_tag_a_seal_and_a_record_after_the_last_seal_only(ecarte, monkeypatch):
    """The board's boot hashes the sealed segments (SHA-256, C code) and makes an HMAC for
    the head, each seal and each record after the last seal: not one a record."""
    from tapis.firmware.journal import reader

    made = []
    keyed = reader.keyed
    monkeypatch.setattr(reader, "keyed", lambda *a: made.append(1) or keyed(*a))
    recs = split(ecarte)
    assert not isinstance(boots(ecarte, "ecarte"), JournalError)
    last = seals(recs)[-1]
    assert len(made) == 1 + len(seals(recs)) + len(recs) - last - 1 < len(recs) / 3
