# Issue 48.2: the board's boot hashes only the last game's segments of its keyed journal
# (from the seal before it, whose tag it checks); the segments before are hashed once
# playing, a piece a loop turn (resume.Rest, main.py), and a break there is a locking
# journal-failure tilt. An edit of an earlier game is found there, after a compaction
# too; an edit of the last game is still refused at boot.
import hashlib

import pytest

from tapis.firmware.journal import resume
from tapis.firmware.journal.resume import load
from tapis.firmware.journal.store import JournalError
from tapis.firmware.journal.writer import Journal
from tapis.firmware.offboard.memstore import MemoryStore
from test_journal_chain import Board, KEYED, kind, payload, reframe, seals, split


@pytest.fixture(scope="module")
def ecarte():
    b = Board(9, "ecarte")
    b.run(3)
    return bytes(b.store.read())


def deferred(data):
    j = Journal(MemoryStore(data), **KEYED)
    load(j, False, False, defer=True)
    return j


def finish(rest):
    steps = 0
    while not rest.step():
        steps += 1
    return steps


def edit_game(data, g=0):
    """An input of game g edited, its tag kept (the attacker has no key)."""
    recs = split(data)
    first = [i for i, r in enumerate(recs) if kind(r) == "b"][g]
    k = min(i for i, r in enumerate(recs) if kind(r) == "i" and i > first)
    body = payload(recs[k]).replace(b'"e": [', b'"e": [["void"], ', 1)
    assert body != payload(recs[k])
    recs[k] = reframe(recs[k], body, "tag")
    return b"".join(recs)


def test_the_deferred_boot_resumes_what_the_whole_check_resumes_and_checks_the_rest_in_pieces(ecarte):
    whole = Journal(MemoryStore(ecarte), **KEYED)
    load(whole, False, False)
    j = deferred(ecarte)
    assert j.rest is not None and whole.rest is None
    assert (j.starts, j.last, j.frames, j.head) == (whole.starts, whole.last, whole.frames, whole.head)
    assert len(j.starts) >= 3
    assert finish(j.rest) > 2  # more than one piece (2 KB each)
    assert j.rest.step()  # and done


def test_the_boot_hashes_only_the_last_game_then_the_rest_the_earlier_ones(ecarte, monkeypatch):
    fed = []

    class Counted:
        def __init__(self, b=b""):
            self.h = hashlib.sha256(b)

        def update(self, b):
            fed.append(len(b))
            self.h.update(b)

        def digest(self):
            return self.h.digest()

    monkeypatch.setattr(resume, "sha256", Counted)
    j = deferred(ecarte)
    at_boot = sum(fed)
    assert at_boot <= len(ecarte) - j.starts[-1]  # the last game's bytes, no more
    finish(j.rest)
    assert sum(fed) - at_boot >= j.starts[-1] * 0.9  # the games before it, once playing


def test_an_earlier_game_edited_boots_and_breaks_once_playing(ecarte):
    forged = edit_game(ecarte)
    with pytest.raises(JournalError):  # the whole check at boot refuses it
        load(Journal(MemoryStore(forged), **KEYED), False, False)
    j = deferred(forged)  # the deferred boot plays on ...
    with pytest.raises(JournalError, match="not the ones it sealed"):  # ... until the piece that holds it
        finish(j.rest)


def test_an_edit_of_the_last_game_is_still_refused_at_boot(ecarte):
    recs = split(ecarte)
    recs = recs[:seals(recs)[-1]]  # the journal as the third game ended: the last game is it
    last = max(i for i, r in enumerate(recs) if kind(r) == "b")
    assert not isinstance(deferred(b"".join(recs)), JournalError)
    k = min(i for i, r in enumerate(recs) if kind(r) == "i" and i > last)
    body = payload(recs[k]).replace(b'"e": [', b'"e": [["void"], ', 1)
    recs[k] = reframe(recs[k], body, "tag")
    with pytest.raises(JournalError):
        deferred(b"".join(recs))


@pytest.mark.parametrize("edit", [None, 1, 2])
def test_a_compaction_while_the_rest_is_checked_begins_it_again_over_what_is_left(ecarte, edit):
    """Three games and a fourth begun; the rest checked two pieces in, the journal cut to
    its last game done and the one begun: an edit in the second game went with it, one in
    the third is still found."""
    j = deferred(ecarte if edit is None else edit_game(ecarte, edit))
    assert not j.rest.step() and not j.rest.step()
    j.keep = 1
    j.compact()
    assert len(j.starts) == 2
    if edit == 2:
        with pytest.raises(JournalError, match="not the ones it sealed"):
            finish(j.rest)
    else:
        assert finish(j.rest) > 2  # over the third game's bytes, begun again


MP_CODE = """
from binascii import unhexlify
from firmware.journal.writer import Journal
from firmware.journal.resume import load
from firmware.journal.store import JournalError
from firmware.offboard.memstore import MemoryStore
key, device = unhexlify(%r), %r
from jdata import good, forged
for name, data in (("good", unhexlify(good.HEX)), ("forged", unhexlify(forged.HEX))):
    j = Journal(MemoryStore(data), key=key, device=device)
    load(j, False, False, True)
    n = 0
    try:
        while not j.rest.step():
            n += 1
        print(name, "checked", n > 2, j.starts)
    except JournalError as e:
        print(name, "refused", str(e)[:40])
"""


def test_the_rest_is_checked_alike_under_micropython(ecarte, tmp_path):
    import subprocess
    import sys

    from tapis.simulator.boards import micropython
    from tapis.simulator.boards.image import FIRMWARE_DIR
    from test_journal_chain import ROOT

    d = tmp_path / "jdata"  # the journals as modules (the runner copies .py files only)
    d.mkdir()
    (d / "__init__.py").write_text("")
    (d / "good.py").write_text("HEX = %r\n" % ecarte.hex())
    (d / "forged.py").write_text("HEX = %r\n" % edit_game(ecarte).hex())
    code = MP_CODE % (KEYED["key"].hex(), KEYED["device"])
    board = micropython.run(code=code, roots=(FIRMWARE_DIR, d), timeout=180)
    assert board.returncode == 0, board.stderr
    host = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env=dict(__import__("os").environ, PYTHONPATH=str(tmp_path)))
    assert host.returncode == 0, host.stderr
    assert board.stdout == host.stdout
    assert "good checked True" in board.stdout and "forged refused" in board.stdout
