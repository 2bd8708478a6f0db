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

from tapis.firmware.offboard import deck
from tapis.firmware.offboard import dialect as D
from tapis.firmware import wire as W
from tapis.firmware.link import frames as F
from tapis.firmware.cards import name, parse
from tapis.firmware.offboard.rng import Seeded
from tapis.host.shoe import traffic as S
from tapis.host.ports import PortError, open_port
from helpers import drained


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
    return p  # (the notice comes after the port was opened, which flushed its input: nothing later is lost)


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
    drained(path)
    time.sleep(0.1)  # not a wait: the span the timestamps must show
    os.write(master, frames[1][4:] + b"\x00\x07" + frames[2] + frames[3] + frames[4])  # and line noise
    out, err = p.communicate(timeout=10)
    assert p.returncode == 0, err
    *evs, summary = [json.loads(line) for line in out.splitlines()]
    assert {e["schema"] for e in evs} == {S.EVENT} and summary["schema"] == S.SUMMARY
    assert (summary["frames"], summary["cards"], summary["faults"], summary["crc_errors"]) == (5, 1, 2, 0)
    assert summary["skipped"] == 2  # the line noise
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
    assert err.strip().splitlines()[-1] == "6 lines: 3 cards, 2 faults, 1 garbled"
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
    from tapis.firmware.link.link import Link

    master, path = pty_pair
    from tapis.firmware.link.hello import TEST_KEY

    p = start("emulate", "--port", path, "--seed", "7", "--count", "32", "--json")
    link = Link(MasterPort(master), keys=TEST_KEY)  # the table's end, keyed (issue 29.1)
    link.own = W.SHOE
    link.send(W.SHOE, W.SHUFFLE, bytes([32]))
    link.send(W.SHOE, W.DRAW, bytes([5]))
    frames = collect(link, lambda fs: len(fs) >= 6)
    expected = deck.shuffle(deck.deck32(), Seeded(7).below)
    assert frames[0][2:] == (W.COUNT, bytes((W.LOADED, 0, 32)))  # a counting shoe (firmware/table/packcount.py)
    frames = frames[1:]
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
    cards = [e for e in log if e["type"] == "CARD" and not e.get("resent")]
    # sealed, the cards encrypted (issue 29.1): on the line, no card is named; the table's end
    # read them all above
    assert len(cards) == 32 and not [e for e in cards if "card" in e]
    assert [name(f[3][0]) for f in frames if f[2] == W.CARD] == [name(c) for c in expected[5:]]
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


# ---- what the monitor counts, marks and keeps ------------------------------------------------
NO_SOF = st.integers(0, 255).filter(lambda b: b != F.SOF)


def clean_frame(addr, seq, payload):
    """A CARD frame with no start byte inside it (so a corrupt one resynchronises past it)."""
    frame = F.encode(addr, seq, W.CARD, bytes(payload))
    return frame if F.SOF not in frame[1:] else None


@given(st.lists(st.one_of(
    st.tuples(st.just("frame"), NO_SOF, NO_SOF, st.lists(NO_SOF, max_size=4)),
    st.tuples(st.just("crc"), NO_SOF, NO_SOF, st.lists(NO_SOF, max_size=4)),
    st.tuples(st.just("noise"), st.lists(NO_SOF, min_size=1, max_size=9))), max_size=12),
    st.integers(1, 16))
def test_the_monitor_counts_crc_errors_resyncs_and_noise_exactly(parts, chunk):
    stream, want = b"", {"frames": 0, "crc_errors": 0, "skipped": 0}
    for kind, *rest in parts:
        if kind == "noise":
            stream += bytes(rest[0])
            want["skipped"] += len(rest[0])
            continue
        frame = clean_frame(*rest)
        if frame is None:
            continue
        if kind == "crc":
            frame = frame[:-1] + bytes([frame[-1] ^ (0x01 if frame[-1] != 0xA4 else 0x02)])  # never SOF
            want["crc_errors"] += 1
            want["skipped"] += len(frame)
        else:
            want["frames"] += 1
        stream += frame
    mon = S.Monitor("frames")
    for i in range(0, len(stream), chunk):
        mon.feed(stream[i:i + chunk])
    got = mon.summary()
    assert {k: got[k] for k in want} == want
    assert got["resyncs"] == got["crc_errors"] and got["bytes"] == len(stream)


def test_an_impossible_length_is_a_resync_but_no_crc_error():
    mon = S.Monitor("frames")
    good = F.encode(W.SHOE, 1, W.CARD, bytes([parse("KH")]))
    evs = mon.feed(b"\xa5\x10\x01\x10\xff\xff" + good)  # a length of 65535: not a frame
    assert [e["card"] for e in evs] == ["KH"]
    s = mon.summary()
    assert (s["frames"], s["crc_errors"], s["resyncs"], s["skipped"]) == (1, 0, 1, 6)


def test_a_frame_sent_again_is_marked_resent_and_counted_once():
    mon = S.Monitor()
    card = F.encode(W.SHOE, 7, W.CARD, bytes([parse("QS")]))
    ack = F.encode(W.CONTROLLER, 3, W.ACK)
    evs = mon.feed(card + ack + card + ack + F.encode(W.SHOE, 8, W.CARD, bytes([parse("QS")])))
    assert [e.get("resent", False) for e in evs] == [False, False, True, False, False]
    assert S.render(evs[2]).endswith("QS (resent)")
    s = mon.summary()
    assert (s["frames"], s["cards"], s["resent"]) == (5, 2, 1)  # the second QS is another card


def test_a_capture_reads_back_as_it_was_seen_live(pty_pair, tmp_path):
    master, path = pty_pair
    capture = tmp_path / "shoe.capture"
    p = start("monitor", "--port", path, "--count", "4", "--json", "--capture", str(capture))
    stream = [F.encode(W.SHOE, 1, W.CARD, bytes([parse("7H")])), b"\x00\x13",
              F.encode(W.SHOE, 2, W.CARD, bytes([parse("AS")])),
              F.encode(W.SHOE, 2, W.CARD, bytes([parse("AS")])),
              F.encode(W.SHOE, 3, W.FAULT, b"E")]
    for part in stream:
        os.write(master, part)
        drained(path)  # each part read on its own, as the capture keeps them
    live, err = p.communicate(timeout=10)
    assert p.returncode == 0, err
    lines = capture.read_text().splitlines()
    assert json.loads(lines[0])["schema"] == S.CAPTURE and len(lines) >= 2
    back = subprocess.run([sys.executable, "-m", "tapis", "shoe", "monitor", "--from", str(capture), "--json"],
                          capture_output=True, text=True, timeout=30)
    assert back.returncode == 0, back.stderr
    assert back.stdout == live  # the same events, the same times, the same counts
    *evs, summary = [json.loads(line) for line in live.splitlines()]
    assert [e.get("card") or e["fault"] for e in evs] == ["7H", "AS", "AS", "E"]
    assert evs[2]["resent"] and summary["resent"] == 1 and summary["skipped"] == 2
    text = subprocess.run([sys.executable, "-m", "tapis", "shoe", "monitor", "--from", str(capture), "--hex"],
                          capture_output=True, text=True, timeout=30)
    assert text.returncode == 0 and "bytes" in text.stdout and "A5 10 01 10 00 01" in text.stdout
    assert "1 resent" in text.stderr


def test_a_file_that_is_no_capture_exits_2(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("KH\n")
    for source in (str(bad), str(tmp_path / "missing")):
        p = subprocess.run([sys.executable, "-m", "tapis", "shoe", "monitor", "--from", source],
                           capture_output=True, text=True, timeout=30)
        assert p.returncode == 2 and "--from" in p.stderr and "Traceback" not in p.stderr


def test_the_readme_emulate_and_monitor_pair_shows_cards_in_the_default_dialect():
    """`tapis shoe emulate --port A --stream` and `tapis shoe monitor --port B`, A and B the two
    ends of a null-modem cable (here two ptys and a thread copying A to B)."""
    import threading

    (ma, sa), (mb, sb) = os.openpty(), os.openpty()
    for fd in (sa, sb):
        tty.setraw(fd)
    stop = threading.Event()

    def cable():
        while not stop.is_set():
            if select.select([ma], [], [], 0.05)[0]:
                try:
                    os.write(mb, os.read(ma, 4096))
                except OSError:
                    return

    wire = threading.Thread(target=cable, daemon=True)
    wire.start()
    try:
        mon = start("monitor", "--port", os.ttyname(sb), "--count", "33", "--json")
        emu = start("emulate", "--port", os.ttyname(sa), "--stream", "--pack", "32", "--seed", "3",
                    "--interval", "0.01")
        out, err = mon.communicate(timeout=30)
        assert mon.returncode == 0, err
        assert emu.wait(timeout=30) == 0
    finally:
        stop.set()
        wire.join()
        for fd in (ma, sa, mb, sb):
            os.close(fd)
    *evs, summary = [json.loads(line) for line in out.splitlines()]
    expected = deck.shuffle(deck.deck32(), Seeded(3).below)
    assert {e["dialect"] for e in evs} == {"frames"}
    assert [e["card"] for e in evs[:-1]] == [name(c) for c in expected]
    assert evs[-1]["fault"] == "E" and [e["seq"] for e in evs] == list(range(1, 34))
    assert (summary["cards"], summary["resent"], summary["crc_errors"]) == (32, 0, 0)


def test_negative_or_endless_times_are_refused():
    for argv in (["emulate", "--port", "loop://", "--interval", "-1"],
                 ["emulate", "--port", "loop://", "--duration", "0"],
                 ["monitor", "--port", "loop://", "--duration", "-2"],
                 ["monitor", "--port", "loop://", "--duration", "nan"]):
        p = subprocess.run([sys.executable, "-m", "tapis", "shoe"] + argv, capture_output=True, text=True,
                           timeout=30)
        assert p.returncode == 2 and "seconds" in p.stderr and argv[0] in p.stderr, (argv, p.stderr)


def test_ctrl_c_stops_the_monitor_with_130_and_its_counts(pty_pair):
    import signal

    master, path = pty_pair
    p = start("monitor", "--port", path)
    os.write(master, F.encode(W.SHOE, 1, W.CARD, bytes([parse("9D")])))
    shown = read_until(p.stdout.fileno(), lambda got: b"9D" in got).decode()
    assert "9D" in shown, shown  # the frame taken, shown live
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=10)
    assert p.returncode == 130 and "Traceback" not in err
    assert (shown + out).rstrip().endswith("CARD    9D") and "1 frames: 1 cards" in err
