# The virtual board's entry (firmware/offboard/vboard.py) run by CPython on in-memory streams:
# the controller built as main.py builds it, the lockstep envelope (S: a step with what each
# UART received, D: the door, Q: quit) and its replies (R: what each UART sent, and the game's
# (action, events) as a repr the host reads back). The webassembly and unix ports run it in
# tests/simulator (the virtual board's tests).
import ast
import asyncio
import io
import struct
import sys

import pytest

from tapis.firmware.offboard import vboard


@pytest.fixture
def modules():
    """The firmware's modules put back after the run: new_controller unloads the boot's, as a
    board frees its heap (compat.unload pops them from sys.modules and their package)."""
    saved = dict(sys.modules)
    yield
    for key, mod in saved.items():
        if sys.modules.get(key) is not mod:
            sys.modules[key] = mod
        parent, _, leaf = key.rpartition(".")
        if parent in saved and not hasattr(saved[parent], leaf):
            setattr(saved[parent], leaf, mod)


def replies(data):
    """The board's output: its ready line, then each R reply as (shoe, bus, report) (and
    nothing on its operator's link: none without --host)."""
    head, _, rest = data.partition(b"\n")
    out = []
    while rest:
        assert rest[:1] == b"R"
        n, b, m, heap, h = struct.unpack(">IIIII", rest[1:21])
        assert h == 0
        body = rest[21:21 + n + b + m]
        out.append((body[:n], body[n:n + b], ast.literal_eval(body[n + b:].decode()) if m else []))
        rest = rest[21 + n + b + m:]
    return head, out


def step(now, shoe=b"", bus=b""):
    return b"S" + struct.pack(">IHHH", now, len(shoe), len(bus), 0) + shoe + bus


def test_a_step_then_quit_is_answered_with_the_uarts_bytes_and_the_games_report(tmp_path, modules):
    stdin = io.BytesIO(step(0) + b"D\x01" + step(50) + b"Q")
    stdout = io.BytesIO()
    asyncio.run(vboard.serve("ecarte", None, stdin=stdin, stdout=stdout, journal=str(tmp_path / "journal.bin")))
    head, got = replies(stdout.getvalue())
    assert head == b"TAPIS-VBOARD 1          0"
    assert len(got) == 3  # two steps and the quit
    first = got[0][2]
    assert first[0][0] is None  # the game's log when set up comes first
    assert all(a is not None for _s, _b, r in got[1:] for a, _e in r)  # once only
    assert any(bus for _shoe, bus, _r in got)  # the bus master speaks to its devices
    assert (tmp_path / "journal.bin").exists()  # the journal is a file, as flash is
    from tapis.firmware.eventlog.log import EventLog, beside
    from tapis.firmware.journal.store import FileStore
    from tapis.firmware.link.hello import TEST_KEY
    events = EventLog(FileStore(beside(str(tmp_path / "journal.bin"))), TEST_KEY, "vboard")
    assert "door-open" in events.locked()  # the door opened (D 01) was seen at the next step


def test_a_bad_envelope_or_a_closed_link_stops_the_board(tmp_path, modules):
    with pytest.raises(ValueError, match="bad envelope"):
        asyncio.run(vboard.serve("ecarte", None, stdin=io.BytesIO(b"X"), stdout=io.BytesIO(),
                                 journal=str(tmp_path / "a.bin")))
    with pytest.raises(EOFError, match="closed"):
        asyncio.run(vboard.serve("ecarte", None, stdin=io.BytesIO(step(0)[:4]), stdout=io.BytesIO(),
                                 journal=str(tmp_path / "b.bin")))


def test_a_port_keeps_what_the_host_sent_for_one_step_and_what_the_board_wrote():
    p = vboard.BusPort()
    p.inbox = b"abc"
    assert p.read() == b"abc" and p.read() == b""
    assert p.write(b"12") == 2 and p.write(bytearray(b"3")) == 1
    assert p.take() == b"123" and p.take() == b""


def test_without_a_game_it_says_how_to_run_it():
    with pytest.raises(SystemExit, match="usage: vboard.py GAME"):
        asyncio.run(vboard.main(["--heap"]))
