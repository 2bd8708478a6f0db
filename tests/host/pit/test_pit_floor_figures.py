"""Issue 45.4, figures an operator trusts on the demonstration floor: its tables run the real
board's meters (the firmware's, over its journal) and the pit shows them reconciled with the
records; hands per hour counts only the time a table could deal; the software check of a
floor's table covers every file it runs, each framed, and passes only against that seed's
answer from the image the pit took at its start."""
import os
import shutil
import time

import pytest

from pit_rig import CREDENTIAL
from helpers import until

from tapis.host.pit import db, queries
from tapis.host.pit.floor import FloorTable, floor_image, image_digest
from tapis.host.pit.ingest import Ingest
from tapis.host.pit.link import TableLink
from tapis.host.pit.service import floor_links


def test_the_floors_tables_show_their_own_meters_reconciled_with_the_records(tmp_path):
    engine = db.connect(str(tmp_path / "pit.db"))
    floor, links = floor_links(3, CREDENTIAL, pace=0.0, seed=4)
    ingest = Ingest(db.sessions(engine), links).start()
    try:
        def pages():
            with db.sessions(engine)() as s:
                return [queries.table(s, f.id) for f in ingest.feeds if f.id is not None]

        def reconciled():
            p = pages()
            return len(p) == 3 and all(x["meters"] and x["meters"]["checked_seq"] >= 8 for x in p)
        until(lambda: time.sleep(0.5), reconciled, 240, "half-seconds for three floor tables' meters checked over 8 deals")
    finally:
        ingest.stop()
        floor.stop()
    for p in pages():
        m = p["meters"]
        assert m["schema"] == "tapis.meters/1" and m["deals"] >= m["checked_seq"] >= 8
        assert not [a for a in p["alerts"] if a["kind"] in ("meters", "backwards")], p["alerts"]
        if p["table"]["game"] == "club":  # money moved, and the board's meters counted it
            assert sum(x["wagered"] for x in m["seats"]) > 0


def test_a_new_session_of_a_floor_table_is_its_ram_clear_not_memory_gone_back():
    from tapis.host.pit import floor as F
    t = FloorTable("club", 3, CREDENTIAL, pace=0)
    old, F.SESSION = F.SESSION, 3
    try:
        for _ in range(3):
            t.deal()
        first = t.fetch(0, 0, 500)["meters"]
        t.deal()  # the next session's first deal
        then = t.fetch(0, 0, 500)["meters"]
    finally:
        F.SESSION = old
    assert first["deals"] >= 3 and then["deals"] < first["deals"]  # its meters 0 again, as a RAM clear's
    assert then["generation"] > first["generation"]  # and their generation going on: never back


class Timed(TableLink):
    """A table whose deals end at the times given and whose state the test sets."""

    where = "timed"

    def __init__(self):
        self.state, self.deals, self.events = "running", [], []

    def connect(self):
        return {"table": "timed-1", "game": "piquet", "variant": "", "state": self.state}

    def deal(self, at):
        n = len(self.deals) + 1
        self.deals.append((n, at, {"game": "piquet", "deal": n, "scores": [0, 0]}))

    def fetch(self, records, events, limit=500):
        return {"records": self.deals[records:records + limit], "events": self.events[events:events + limit],
                "state": self.state, "meters": None}


def test_hands_per_hour_counts_only_the_time_the_table_could_deal(tmp_path):
    engine = db.connect(str(tmp_path / "pit.db"))
    link = Timed()
    ingest = Ingest(db.sessions(engine), [link])

    def rate():
        ingest.feeds[0].news = True
        ingest.round()
        with db.sessions(engine)() as s:
            return queries.table(s, "timed-1")["table"]["hands_per_hour"]

    t0 = 1.7e9
    for k in range(11):  # a deal every 10 s: 360 an hour
        link.deal(t0 + 10 * k)
        rate()
    assert rate() == 360.0
    link.state = "locked"  # a tilt: no deal for an hour
    for _ in range(3):
        assert rate() == 360.0  # it stays where it was while locked
    link.state = "running"
    for k in range(10):  # cleared an hour later: dealing again at the same pace
        link.deal(t0 + 100 + 3600 + 10 * k)
        assert rate() == 360.0  # (on main at d09a90a: 19 deals over 3,790 s, 18.5 an hour)


@pytest.fixture
def tree(tmp_path):
    """A copy of the firmware's tree, as a floor's table runs it."""
    import tapis.firmware as fw
    root = tmp_path / "firmware"
    shutil.copytree(os.path.dirname(fw.__file__), root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _move_a_byte(root):  # the last byte of one file put at the start of the next: the same bytes in all
    a, b = sorted(p for p in root.rglob("*.py") if p.stat().st_size > 10)[:2]
    x, y = a.read_bytes(), b.read_bytes()
    a.write_bytes(x[:-1])
    b.write_bytes(x[-1:] + y)


TAMPERING = {
    "a byte changed": lambda root: (root / "wire.py").write_bytes((root / "wire.py").read_bytes().replace(b"0x", b"0X", 1)),
    "a byte moved between two files": _move_a_byte,
    "a .mpy planted": lambda root: (root / "games" / "planted.mpy").write_bytes(b"M\x06\x00\x1f"),
    "a file planted": lambda root: (root / "games" / "extra.txt").write_bytes(b"x"),
    "a file removed": lambda root: (root / "wire.py").unlink(),
}


@pytest.mark.parametrize("how", sorted(TAMPERING))
def test_the_floors_software_check_sees_every_tampering(tree, how):
    """(on main at d09a90a: 3 of these 5 gave the same digest)"""
    reference = floor_image(str(tree))  # the pit's, at its start
    seed = bytes(range(16))
    assert image_digest(seed, "club/", floor_image(str(tree))) == image_digest(seed, "club/", reference)
    TAMPERING[how](tree)
    assert image_digest(seed, "club/", floor_image(str(tree))) != image_digest(seed, "club/", reference)


def test_a_verify_passes_only_against_its_own_seeds_answer(tree):
    image = floor_image(str(tree))
    a, b = bytes(16), bytes([1] * 16)
    answer = image_digest(a, "club/", image)
    assert answer == image_digest(a, "club/", image)
    assert answer != image_digest(b, "club/", image)  # a stored answer is no answer to another seed
    assert image_digest(a, "club/", image) != image_digest(a, "club/commission-5", image)  # nor another configuration
