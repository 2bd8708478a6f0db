# tapis verify against the virtual board (issue 46.2): `tapis table --board micropython
# --host-port` puts the firmware's operator's link, under real MicroPython (the webassembly
# port), on a pty; its flash holds a manifest of the .mpy files it runs, which the table keeps
# in the host's key store under the board's device id, as tapis flash keeps what it flashed.
# Before, `--board micropython --host-port` was refused (exit 2) and nothing could ask it.
import json
import os
import subprocess
import sys

import pytest

from tapis.firmware.link.hello import TEST_KEY
from tapis.host import schemas as S
from tapis.simulator.boards import micropython
from helpers import within
from test_cli_conventions import ROOT, env, tapis

SEED = "fedcba98765432100123456789abcdef"


@pytest.fixture(scope="module")
def vtable(tmp_path_factory):
    """`tapis table --board micropython --host-port`: (its link's path, a key file of the
    test key, the key store it keeps the board's files in)."""
    micropython.ensure_installed()  # (make install's npm packages: never skipped)
    tmp = tmp_path_factory.mktemp("vboardport")
    key = tmp / "test.key"
    key.write_text(TEST_KEY.hex() + "\n")
    link, keys = str(tmp / "link"), str(tmp / "keys")
    p = subprocess.Popen([sys.executable, "-m", "tapis", "table", "--board", "micropython", "--host-port", link,
                          "--deals", "5000", "--seed", "2", "--json"], cwd=ROOT, env=env(TAPIS_KEY_DIR=keys),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        within(120, lambda: os.path.exists(link) or p.poll() is not None, "the virtual board's link at %s" % link)
        assert p.poll() is None, p.stderr.read()
        yield link, str(key), keys
    finally:
        p.kill()
        p.wait()


def test_verify_of_the_virtual_board_answers_over_the_files_it_runs(vtable):
    from tapis.host.flash.verify import expected, load_image
    from tapis.simulator.boards.vboot import firmware_image
    link, key, keys = vtable
    p = tapis("verify", "--port", link, "--seed", SEED, "--table-key", key, "--json", timeout=120,
              TAPIS_KEY_DIR=keys)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert S.validate(doc) == "tapis.verify/1" and doc["match"] is True and doc["device"] == "vboard"
    image = firmware_image()  # the .mpy files mpy-cross made of this install's firmware
    assert doc["files"] == sorted(image) and load_image(doc["image"]) == image
    assert doc["board"] == expected(image, bytes.fromhex(SEED)).hex()
    assert "firmware/operator/recall.mpy" in doc["files"] and doc["counter"] == "no monotonic counter"
    text = tapis("verify", "--port", link, "--seed", "ab" * 16, "--table-key", key, timeout=120, TAPIS_KEY_DIR=keys)
    assert text.returncode == 0 and "MATCH: the board runs what was flashed" in text.stdout
    assert "device vboard" in text.stdout and "%d files flashed" % len(image) in text.stdout


def test_verify_of_the_virtual_board_checks_every_file(vtable, tmp_path):
    """Its answer is checked: against the same files with one byte changed in one of them,
    a mismatch and exit 2."""
    from tapis.host.flash.verify import keep_image
    from tapis.simulator.boards.vboot import firmware_image
    link, key, keys = vtable
    files = dict(firmware_image())
    files["firmware/table/controller.mpy"] = bytes([files["firmware/table/controller.mpy"][0] ^ 1]) + \
        files["firmware/table/controller.mpy"][1:]
    keep_image(tmp_path / "changed.image", files)
    p = tapis("verify", "--port", link, "--seed", SEED, "--table-key", key, "--image",
              str(tmp_path / "changed.image"), timeout=120, TAPIS_KEY_DIR=keys)
    assert p.returncode == 2 and "MISMATCH" in p.stdout


def test_the_virtual_board_asked_without_its_key_says_so_and_its_log_holds_the_check(vtable):
    link, key, keys = vtable
    p = tapis("verify", "--port", link, "--seed", SEED, "--timeout", "600", timeout=120, TAPIS_KEY_DIR=keys)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines() == [p.stderr.strip()] and "--table-key" in p.stderr
    asked = tapis("verify", "--port", link, "--seed", "cd" * 16, "--table-key", key, timeout=120, TAPIS_KEY_DIR=keys)
    assert asked.returncode == 0, asked.stderr
    events = tapis("events", "--port", link, "--table-key", key, "--json", timeout=120, TAPIS_KEY_DIR=keys)
    assert events.returncode == 0, events.stderr
    doc = json.loads(events.stdout)
    assert S.validate(doc) == "tapis.events/2", doc
    assert any("seeded check by host:tapis-verify: seed " + "cd" * 16 in str(e["detail"]) for e in doc["entries"]), doc
