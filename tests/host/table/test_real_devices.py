"""Real devices from the host (issue 11.7): `tapis table --shoe URL` (a framed or text shoe on
a serial port), `--journal PATH` (the board's journal in a file, resumed, read by tapis
recall), `--faults SPEC`, and `tapis shoe draw --port URL N`. The serial ports are real pty
pairs with real pyserial; the test plays the device on the master end."""
import json
import os
import subprocess
import sys
import threading
import time

import pytest

from tapis.firmware.offboard import deck
from tapis.firmware.cards import name
from tapis.firmware.offboard.rng import Seeded
from tapis.simulator.table.devices import EmuShoe

from test_shoe_tool import MasterPort, pty_pair  # noqa: F401 (a fixture)


def tapis(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "tapis"] + list(args), capture_output=True,
                          text=True, timeout=timeout)


class ShoeOnPty:
    """An emulated framed shoe on the pty's master end, in real time, in a thread."""

    def __init__(self, master, seed):
        self.shoe = EmuShoe(MasterPort(master), Seeded(seed))
        self.stop = False
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        t0 = time.monotonic()
        while not self.stop:
            self.shoe.step(int((time.monotonic() - t0) * 1000))

    def close(self):
        self.stop = True
        self.t.join(5)


def asked(p, timeout=60):
    """Wait until the table, process p, asks its text shoe for cards (its notice on stderr):
    a card dealt before that would be one nobody asked for, and one written before the port
    was opened would be flushed by pyserial as it opens it (a fixed wait was too short under load)."""
    import select
    said, end = [], time.monotonic() + timeout
    while time.monotonic() < end and p.poll() is None:
        if select.select([p.stderr], [], [], 0.1)[0]:
            said.append(p.stderr.readline())
            if "for cards: deal them" in said[-1]:
                return
    raise AssertionError("the table did not ask its shoe for cards: %r" % said)


def records(out):
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_shoe_draw_asks_a_framed_shoe_for_cards_and_prints_them(pty_pair):
    master, path = pty_pair
    dev = ShoeOnPty(master, 7)
    try:
        got = tapis("shoe", "draw", "--port", path, "--shuffle", "32", "--json", "5", timeout=60)
    finally:
        dev.close()
    assert got.returncode == 0, got.stderr
    expected = deck.shuffle(deck.deck32(), Seeded(7).below)[:5]
    assert [r["card"] for r in records(got.stdout)] == [name(c) for c in expected]
    assert dev.shoe.dealt == 5


def test_shoe_draw_times_out_with_exit_1_and_refuses_bad_counts(pty_pair):
    _master, path = pty_pair  # nobody answers
    got = tapis("shoe", "draw", "--port", path, "--timeout", "0.5", "3", timeout=60)
    assert got.returncode == 1 and "0 of 3 cards" in got.stderr
    got = tapis("shoe", "draw", "--port", path, "300")
    assert got.returncode == 2 and "1..255" in got.stderr
    got = tapis("shoe", "draw", "--port", "/nonexistent/tty", "3")
    assert got.returncode == 2 and got.stderr.count("\n") >= 1


def test_table_with_a_real_framed_shoe_deals_from_it(pty_pair):
    """--shoe: the firmware controller here asks the shoe on the port (SHUFFLE, DRAW); the
    deal's hands are that shoe's cards (the same seed's emulated shoe would give them too)."""
    master, path = pty_pair
    dev = ShoeOnPty(master, 5)
    try:
        got = tapis("table", "--deals", "1", "--seed", "5", "--json", "--shoe", path, timeout=120)
    finally:
        dev.close()
    assert got.returncode == 0, got.stderr
    ref = tapis("table", "--deals", "1", "--seed", "5", "--json")
    real, emulated = records(got.stdout), records(ref.stdout)
    assert len(real) == 1 and real[0]["hands"] == emulated[0]["hands"]
    assert dev.shoe.dealt >= 11  # five each and the turn-up


def test_table_journal_is_resumed_and_read_by_recall(tmp_path):
    path = str(tmp_path / "journal.bin")
    first = tapis("table", "--deals", "2", "--seed", "3", "--json", "--journal", path)
    assert first.returncode == 0, first.stderr
    assert [r["deal"] for r in records(first.stdout)] == [1, 2]
    again = tapis("table", "--deals", "1", "--seed", "3", "--json", "--journal", path)
    assert again.returncode == 0, again.stderr
    assert "resumed the unfinished game" in again.stderr
    assert [r["deal"] for r in records(again.stdout)] == [1, 2, 3]  # the game so far, and one more
    assert records(again.stdout)[:2] == records(first.stdout)
    recall = tapis("recall", "--journal", path, "--json")
    assert recall.returncode == 0, recall.stderr
    told = records(recall.stdout)  # the journal's deals, as deal records (docs/records.md)
    assert {r["game"] for r in told} == {"ecarte"}
    # the three deals played, as the table told them (the journal knows no seed)
    def plain(recs):
        return [{k: v for k, v in r.items() if k not in ("seed", "journal")} for r in recs]
    assert plain(told)[:3] == plain(records(again.stdout))
    assert told[0]["journal"]["game"] == 1
    other = tapis("table", "--game", "piquet", "--deals", "1", "--journal", path)
    assert other.returncode == 2 and "unfinished game is ecarte" in other.stderr
    (tmp_path / "bad.bin").write_bytes(b"\x00garbage" * 10)
    bad = tapis("table", "--deals", "1", "--journal", str(tmp_path / "bad.bin"))
    assert bad.returncode == 2 and "bad.bin" in bad.stderr and bad.stderr.count("\n") <= 8


def test_table_faults_are_injected_and_the_table_still_plays():
    clean = tapis("table", "--deals", "4", "--seed", "9", "--json")
    noisy = tapis("table", "--deals", "4", "--seed", "9", "--json", "--faults",
                  "drop=0.01,corrupt=0.01,shoe=0.05")
    assert clean.returncode == 0 and noisy.returncode == 0, noisy.stderr
    got = records(noisy.stdout)
    assert [r["deal"] for r in got] == [1, 2, 3, 4]
    assert all(len(h) == 5 for r in got for h in r["hands"])  # the laws made every deal whole
    assert got != records(clean.stdout)  # misfeeds changed what was dealt
    for bad, why in (("drop=2", "probability"), ("loss=0.1", "drop=P"), ("drop", "drop=P")):
        r = tapis("table", "--deals", "1", "--faults", bad)
        assert r.returncode == 2 and why in r.stderr, (bad, r.stderr)
    r = tapis("table", "--game", "club", "--deals", "1", "--faults", "shoe=0.1")
    assert r.returncode == 2 and "misfed" in r.stderr
    r = tapis("table", "--game", "piquet", "--deals", "1", "--seed", "4", "--json", "--faults", "shoe=0.1")
    assert r.returncode == 0 and len(records(r.stdout)) == 1  # piquet's misdeal laws (003)


def test_table_with_a_text_dialect_shoe_deals_the_lines_it_sends(pty_pair):
    """--shoe-dialect text: a shoe that only prints a card a line (firmware/offboard/dialect.py) is
    bridged to the framed link (host/table/real.py); it cannot be asked, so it streams."""
    master, path = pty_pair
    ref = records(tapis("table", "--deals", "1", "--seed", "5", "--json").stdout)
    dealt = [a[2] for a in ref[0]["inputs"] if a[0] == "shoe"]  # the cut's cards, then the deal's
    p = subprocess.Popen([sys.executable, "-m", "tapis", "table", "--deals", "1", "--seed", "5", "--json",
                          "--shoe", path, "--shoe-dialect", "text"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    asked(p)
    for c in dealt:
        os.write(master, (c + "\n").encode())
        time.sleep(0.02)
    os.write(master, b"garbled line\n")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    got = records(out)
    assert len(got) == 1 and got[0]["cut"] == ref[0]["cut"]
    assert got[0]["hands"] == ref[0]["hands"] and got[0]["trump"] == ref[0]["trump"]


class Tap:
    """One device's end of the bus: it reads what the line carried (BusOnPty fills its
    inbox for every device), and what it writes goes on the line."""

    def __init__(self, line):
        self.line, self.inbox = line, bytearray()

    def read(self):
        out, self.inbox = bytes(self.inbox), bytearray()
        return out

    def write(self, data):
        return self.line.write(data)


class BusOnPty:
    """The panels and displays of a two-seat écarté table on the pty's master end, as on a
    real RS-485 bus: every device hears every byte, and speaks when the bus is handed to it
    (the emulated consoles, with the table's own bots at their panels), in a thread."""

    def __init__(self, master, game="ecarte"):
        from tapis.simulator import kits
        from tapis.simulator.table.devices import EmuConsole, EmuDisplay

        self.master = MasterPort(master)
        self.taps = []
        kit = kits.find(game)
        self.consoles = [EmuConsole(self._tap(), s, kit.Bot()) for s in range(2)]
        self.display = EmuDisplay(self._tap())
        self.stop = False
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def _tap(self):
        tap = Tap(self.master)
        self.taps.append(tap)
        return tap

    def run(self):
        t0 = time.monotonic()
        while not self.stop:
            data = self.master.read()
            for tap in self.taps:
                tap.inbox += data
            now = int((time.monotonic() - t0) * 1000)
            for d in self.consoles + [self.display]:
                d.step(now)

    def close(self):
        self.stop = True
        self.t.join(5)


def test_table_with_real_panels_and_displays_on_a_serial_bus_plays_a_deal(pty_pair):
    """--bus: the controller here is the master of a bus on a serial port; the panels and
    displays on it are polled, press, and are shown their views, as on the table as built.
    The deal is the one the same seed deals (the emulated shoe here), played to its end."""
    master, path = pty_pair
    dev = BusOnPty(master)
    try:
        got = tapis("table", "--deals", "1", "--seed", "5", "--json", "--bus", path, timeout=120)
    finally:
        dev.close()
    assert got.returncode == 0, got.stderr
    ref = records(tapis("table", "--deals", "1", "--seed", "5", "--json").stdout)
    deal = records(got.stdout)
    assert len(deal) == 1 and deal[0]["complete"]
    for k in ("cut", "hands", "trump"):
        assert deal[0][k] == ref[0][k], k
    assert deal[0]["plays"] and deal[0]["points"] == ref[0]["points"]
    assert all(c.shows > 3 for c in dev.consoles) and dev.display.shows > 0  # they were shown the game
