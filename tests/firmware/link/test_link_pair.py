"""Pairing (issue 12.1): `tapis pair` provisions a panel or display, on its own serial
port, with its keys for one table; the table derives the same keys from its device key
and keeps no table of them, and a device paired so plays on the table's bus."""
import json
import subprocess
import sys
import threading

from test_shoe_tool import MasterPort, pty_pair  # noqa: F401 (a fixture)

from tapis.firmware import wire as W
from tapis.firmware.link.frames import encode
from tapis.firmware.link.hello import pair_key
from tapis.simulator.table.devices import EmuConsole
from tapis.simulator.kits import find
from tapis.simulator.table.pipes import pipe
from tapis.simulator.table.emulated import EmulatedTable

KEY = bytes(range(32))


def tapis(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "tapis"] + list(args), capture_output=True, text=True,
                          timeout=timeout)


def test_tapis_pair_provisions_a_console_with_the_keys_the_table_derives(pty_pair, tmp_path):
    master, path = pty_pair
    key_file = tmp_path / "table.key"
    key_file.write_text(KEY.hex() + "\n")
    console = EmuConsole(pipe()[0], 3, find("ecarte").Bot(), key=None)  # not paired yet
    assert console.link.keys is None
    got = {}
    t = threading.Thread(target=lambda: got.update(console.pair(MasterPort(master)) or {}))
    t.start()
    p = tapis("pair", "--port", path, "--key-file", str(key_file), "--seat", "3", "--json")
    t.join(15)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["type"] == "console" and out["addresses"] == ["0x23", "0x43"]
    serial = console.link.serial
    assert got == {a: pair_key(KEY, W.DEV_CONSOLE, a, serial) for a in (W.PANEL + 3, W.DISPLAY + 3)}
    assert console.link.keys == got


def test_a_console_paired_for_one_seat_cannot_speak_for_another():
    """The seat is in the key: seat 1's keys do not open seat 0's session."""
    s = b"EMU-2-32"
    assert pair_key(KEY, W.DEV_CONSOLE, W.PANEL, s) != pair_key(KEY, W.DEV_CONSOLE, W.PANEL + 1, s)
    assert pair_key(KEY, W.DEV_CONSOLE, W.PANEL, s) != pair_key(KEY, W.DEV_CONSOLE, W.PANEL, b"EMU-2-33")
    assert pair_key(KEY, W.DEV_CONSOLE, W.PANEL, s) != pair_key(bytes(32), W.DEV_CONSOLE, W.PANEL, s)


def test_devices_paired_with_another_tables_key_are_refused_and_the_table_says_so():
    t = EmulatedTable(2, "ecarte", device_key=KEY)
    for c in t.consoles:  # paired with the emulated table's test key, not this one's
        c.link.keys = {a: pair_key(b"another table", W.DEV_CONSOLE, a, c.link.serial) for a in c.link.keys}
    for _ in range(1500):
        t.step()
    assert t.game.log[-1:] and not [e for e in t.game.log if e[0] in ("propose", "play")]  # nobody played
    assert t.controller.errors.get("forged", 0) >= 2
    assert (t.devices[-1].view or {}).get("refused", 0) >= 2


def test_a_table_with_its_own_key_plays_with_devices_paired_to_it():
    t = EmulatedTable(2, "ecarte", device_key=KEY)
    t.run_deals(2)
    assert t.game.finished_deals() == 2 and t.controller.errors == {}


def test_pair_says_why_when_it_cannot_reach_the_device(pty_pair, tmp_path):
    _master, path = pty_pair  # nobody answers on it
    key_file = tmp_path / "table.key"
    key_file.write_text(KEY.hex() + "\n")
    p = tapis("pair", "--port", path, "--key-file", str(key_file), "--seat", "0", "--timeout", "0.5")
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and "no answer from a device" in p.stderr
    p = tapis("pair", "--port", str(tmp_path / "no-such-port"), "--key-file", str(key_file), "--seat", "0")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "cannot open" in p.stderr
    p = tapis("pair", "--port", path, "--board", "never-flashed", "--seat", "0")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "no key for device" in p.stderr


def opened(link, frame):
    """What `link` takes of a sealed frame, the next one from its sender: its payload,
    opened; None if the link refused it."""
    from tapis.firmware.link.frames import decode
    addr, seq, ftype, payload = decode(frame)
    link.peer(addr).rx = (seq - 1) & 255  # (the frame before it was taken)
    out = []
    link.take(addr, seq, ftype, payload, out)
    return out[0][3] if out else None


def test_the_sealed_frame_in_the_protocol_doc_is_what_the_link_sends_and_opens():
    from tapis.firmware.link.frames import decode
    from tapis.firmware.link.hello import begin
    from tapis.firmware.link.link import Link
    from tapis.firmware.mac import hmac_sha256
    k = pair_key(KEY, W.DEV_CONSOLE, 0x21, b"EMU-2-33")
    assert k.hex().startswith("77980a0c") and k.hex().endswith("a15a2ab4")
    sk = hmac_sha256(k, bytes(range(8)) + bytes(range(8, 16)))
    ends = []
    for _ in range(2):
        link = Link(None, keys={0x21: k})
        begin(link.peer(0x21), sk)
        ends.append(link)
    sealed = ends[0].seal(encode(0x21, 7, W.BUTTON, b"\x05\x03"))
    assert sealed.hex(" ").upper() == "A5 21 07 20 00 07 05 03 01 EB 32 55 FA AD BD"
    assert opened(ends[1], sealed) == b"\x05\x03"
    assert opened(ends[1], sealed) is None  # the same frame again: replayed
    assert ends[1].peers[0x21].errors == {"replayed": 1}
    addr, seq, ftype, payload = decode(sealed)
    bad = bytearray(payload)
    bad[0] ^= 1
    assert opened(ends[1], encode(addr, seq, ftype, bytes(bad))) is None
    assert ends[1].peers[0x21].errors == {"replayed": 1, "forged": 1} and ends[1].forged == 2


def test_a_seats_view_is_encrypted_and_the_table_displays_only_sealed():
    from tapis.firmware.link.frames import decode
    from tapis.firmware.link.hello import begin
    from tapis.firmware.link.link import Link
    view = b"F\x88\x04hand\x87\x05\x05\x0b\x1b\x2b\x3c"
    for addr, secret in ((W.DISPLAY + 1, True), (W.TABLE_DISPLAY, False)):
        a, b = Link(None, keys={addr: KEY}), Link(None, keys={addr: KEY})
        for link in (a, b):
            begin(link.peer(addr), bytes(32))
        sealed = a.seal(encode(addr, 3, W.SHOW, view))
        _a, seq, ftype, payload = decode(sealed)
        assert (view not in payload) == secret and len(payload) == len(view) + 5
        assert opened(b, sealed) == view
