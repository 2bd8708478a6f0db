"""`tapis shoe monitor|emulate` over a real pty pair (os.openpty) with real pyserial: the
tool opens the slave by its path, the test plays the other end on the master."""
import json
import os
import select
import subprocess
import sys
import time
import tty

import pytest
from hypothesis import given, strategies as st

from tapis.firmware import deck
from tapis.firmware import dialect as D
from tapis.firmware import wire as W
from tapis.firmware import frames as F
from tapis.firmware.cards import name, parse
from tapis.firmware.rng import Seeded
from tapis.host import shoe as S
from tapis.host.ports import PortError, open_port


@pytest.fixture
def pty_pair():
    master, slave = os.openpty()
    tty.setraw(slave)
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


def start(*args):
    """Start `tapis shoe ...`; return once it has opened its port (its notice on stderr)."""
    p = subprocess.Popen([sys.executable, "-m", "tapis", "shoe"] + list(args),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    notice = p.stderr.readline()
    assert notice.startswith(("monitoring", "emulating")), notice + p.stderr.read()
    time.sleep(0.1)  # pyserial flushes the input once more right after opening
    return p


def read_until(fd, done, timeout=10):
    got = b""
    deadline = time.time() + timeout
    while not done(got) and time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            got += os.read(fd, 4096)
    return got


def test_monitor_decodes_frames_live_with_timestamps(pty_pair):
    master, path = pty_pair
    p = start("monitor", "--port", path, "--count", "5", "--json")
    frames = [F.encode(W.SHOE, 1, W.SHUFFLE, bytes([32])), F.encode(W.SHOE, 2, W.DRAW, bytes([2])),
              F.encode(W.SHOE, 3, W.CARD, bytes([parse("KH")])),
              F.encode(W.SHOE, 4, W.FAULT, b"F" + bytes([parse("7S")])), F.encode(W.SHOE, 5, W.FAULT, b"J")]
    os.write(master, frames[0] + frames[1][:4])  # a frame split across reads
    time.sleep(0.1)
    os.write(master, frames[1][4:] + b"\x00\x07" + frames[2] + frames[3] + frames[4])  # and line noise
    out, err = p.communicate(timeout=10)
    assert p.returncode == 0, err
    evs = [json.loads(line) for line in out.splitlines()]
    assert [(e["dialect"], e["type"]) for e in evs] == [("frames", "SHUFFLE"), ("frames", "DRAW"),
                                                        ("frames", "CARD"), ("frames", "FAULT"), ("frames", "FAULT")]
    assert evs[0]["pack"] == 32 and evs[1]["n"] == 2 and evs[2]["card"] == "KH"
    assert (evs[3]["fault"], evs[3]["meaning"]) == ("F 7S", "card delivered face up")
    assert evs[4]["fault"] == "J" and [e["seq"] for e in evs] == [1, 2, 3, 4, 5]
    assert all(e["time"][:4].isdigit() and e["t"] >= 0 for e in evs)
    assert evs[-1]["t"] >= evs[0]["t"] + 0.05


def test_monitor_detects_the_text_dialect_and_flags_garbled_lines(pty_pair):
    master, path = pty_pair
    p = start("monitor", "--port", path, "--count", "6")
    os.write(master, b"KH\r\n10S\n7d\nERR D 7S 8S\nbogus line\nERR T 1\n")
    out, err = p.communicate(timeout=10)
    assert p.returncode == 0, err
    lines = out.splitlines()
    assert len(lines) == 6
    assert lines[0].endswith("text   CARD    KH") and lines[1].endswith("CARD    TS")
    assert lines[2].endswith("CARD    7D")
    assert "ERR"[0:0] + "D 7S 8S (two cards delivered together)" in lines[3]
    assert "GARBLED" in lines[4] and "'bogus line'" in lines[4]
    assert "T 1 (dealt out of turn)" in lines[5]
    stamp = lines[0].split()[0]
    assert len(stamp) == 12 and stamp[2] == ":" and stamp[8] == "."  # HH:MM:SS.mmm


class MasterPort:
    """The pty master as a Port for the firmware's Link: the test plays the controller."""

    def __init__(self, fd):
        self.fd = fd

    def read(self):
        r, _, _ = select.select([self.fd], [], [], 0.002)
        return os.read(self.fd, 4096) if r else b""

    def write(self, data):
        return os.write(self.fd, data)


def collect(link, until, timeout=10):
    """Poll the controller's Link (it acknowledges) until until(frames) or timeout."""
    frames = []
    t0 = time.time()
    while not until(frames) and time.time() - t0 < timeout:
        frames += link.poll(int((time.time() - t0) * 1000))
    return frames


def test_emulate_answers_shuffle_and_draw_frames_with_the_seeded_pack(pty_pair):
    from tapis.firmware.link import Link

    master, path = pty_pair
    p = start("emulate", "--port", path, "--seed", "7", "--count", "32", "--json")
    link = Link(MasterPort(master))
    link.send(W.SHOE, W.SHUFFLE, bytes([32]))
    link.send(W.SHOE, W.DRAW, bytes([5]))
    frames = collect(link, lambda fs: len(fs) >= 5)
    expected = deck.shuffle(deck.deck32(), Seeded(7).below)
    assert [(a, t) for a, _s, t, _p in frames] == [(W.SHOE, W.CARD)] * 5
    assert [f[3][0] for f in frames] == expected[:5]
    link.send(W.SHOE, W.DRAW, bytes([30]))  # 27 left: then the shoe is empty
    frames = collect(link, lambda fs: any(f[2] == W.FAULT for f in fs))
    assert [f[3][0] for f in frames if f[2] == W.CARD] == expected[5:]
    assert frames[-1][2:] == (W.FAULT, b"E")
    collect(link, lambda fs: False, timeout=0.2)  # acknowledge the last frames
    out, err = p.communicate(timeout=10)
    assert p.returncode == 0, err
    log = [json.loads(line) for line in out.splitlines()]
    cards = [e["card"] for e in log if e["type"] == "CARD" and not e.get("resent")]
    assert cards == [name(c) for c in expected]
    assert {e["direction"] for e in log} == {"in", "out"}
    assert link.stats(W.SHOE)["duplicates"] == 0


def test_emulate_streams_the_text_dialect_that_the_monitor_reads(pty_pair):
    master, path = pty_pair
    p = start("emulate", "--port", path, "--dialect", "text", "--pack", "32", "--decks", "2",
              "--seed", "3", "--interval", "0")
    got = read_until(master, lambda b: b.endswith(b"ERR E\n"))
    assert p.wait(timeout=10) == 0
    mon = S.Monitor()
    evs = mon.feed(got)
    assert mon.dialect == "text"
    rng = Seeded(3)
    expected = deck.shuffle(deck.deck32() + deck.deck32(), rng.below)
    assert [e["card"] for e in evs[:-1]] == [name(c) for c in expected]
    assert evs[-1]["fault"] == "E" and len(evs) == 65


def test_bad_ports_and_arguments_exit_2_with_a_message(tmp_path):
    for argv in (["monitor", "--port", str(tmp_path / "nope")], ["emulate", "--port", "bogus://x"],
                 ["monitor"], ["emulate", "--port", "loop://", "--seed", "x"]):
        p = subprocess.run([sys.executable, "-m", "tapis", "shoe"] + argv, capture_output=True,
                           text=True, timeout=30)
        assert p.returncode == 2 and "error" in p.stderr, argv


def test_ports_open_pyserial_urls_and_read_without_blocking():
    with open_port("loop://") as port:
        assert port.read() == b""
        port.write(b"\xa5abc")
        assert port.wait(1) == b"\xa5abc"
    with pytest.raises(PortError, match="nope"):
        open_port("nope://x")


@given(st.lists(st.one_of(
    st.tuples(st.just("CARD"), st.sampled_from(deck.deck52())),
    st.tuples(st.just("FAULT"), st.sampled_from(["U", "J", "E", "C"]).map(lambda c: c.encode())),
    st.tuples(st.just("FAULT"), st.sampled_from(deck.deck52()).map(lambda c: b"F" + bytes([c]))),
    st.tuples(st.just("FAULT"), st.integers(0, 7).map(lambda s: b"T" + bytes([s])))), max_size=30))
def test_the_text_dialect_round_trips_what_frames_carry(events):
    """Every CARD and FAULT frame has a text line that parses back to the same payload,
    and the monitor decodes a stream of them identically in both dialects."""
    text = b""
    frames = b""
    for i, (kind, value) in enumerate(events):
        if kind == "CARD":
            text += D.card_line(value)
            frames += F.encode(W.SHOE, i & 255, W.CARD, bytes([value]))
        else:
            line = D.fault_text(value)
            assert D.parse_line(line) == (W.FAULT, value)
            text += (line + "\n").encode()
            frames += F.encode(W.SHOE, i & 255, W.FAULT, value)
    a, b = S.Monitor().feed(text), S.Monitor().feed(frames)
    strip = lambda evs: [{k: v for k, v in e.items() if k not in ("dialect", "addr", "seq")} for e in evs]
    assert len(a) == len(events) and strip(a) == strip(b)
