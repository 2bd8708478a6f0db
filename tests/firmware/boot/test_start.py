# The product image's start-up (firmware/boot/start.py, issue 32): nothing of the filesystem
# runs unless the signed manifest verifies; then a signed boot.py and main.py run, lib/ joins
# the path, and each new image is recorded once in SEEN. Under CPython, on a filesystem in
# tmp_path (the board's "/"), with the manifest's check stood in for (tests/firmware/verify
# tests the check itself).
import builtins
import importlib
import json
import sys

import pytest

from tapis.firmware.boot import start


@pytest.fixture
def board(tmp_path, monkeypatch):
    """The board's filesystem at tmp_path; the path, the verdict and the modules put back after."""
    def fs_open(path, *a, **kw):
        return builtins.open(str(tmp_path / path.lstrip("/")), *a, **kw)
    monkeypatch.setattr(start, "open", fs_open, raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(start, "verified", None)
    package = importlib.import_module("tapis.firmware.verify")  # (again, if another test unloaded it)
    for name in ("manifest", "wots", "xip"):  # boot() unloads them, as a board does
        key = "tapis.firmware.verify." + name
        monkeypatch.setitem(sys.modules, key, importlib.import_module(key))
        monkeypatch.setattr(package, name, sys.modules[key], raising=False)
    monkeypatch.setitem(sys.modules, "tapis.firmware.verify", package)
    monkeypatch.setattr(sys.modules["tapis.firmware"], "verify", package, raising=False)
    return tmp_path


def sign(fs, files, ok=True, monkeypatch=None):
    (fs / "manifest.json").write_text(json.dumps({"version": 3, "image": {"sha256": "ab" * 32},
                                                  "files": {f: "00" for f in files}}))
    manifest = sys.modules["tapis.firmware.verify.manifest"]  # the one boot() imports
    monkeypatch.setattr(manifest, "check", lambda root, key, image: (ok, "checked" if ok else "file x changed"))


def test_no_public_key_refuses_to_run_anything(board, capsys):
    (board / "boot.py").write_text("raise SystemExit('ran')\n")
    start.boot(None)
    assert start.verified == ("tapis: REFUSING TO RUN: the image has no signing public key baked in "
                              "(tapis image build --device)", False)
    assert sys.path == [".frozen"]  # the frozen modules alone
    start.main()
    assert capsys.readouterr().out.startswith("tapis: REFUSING TO RUN")
    assert not (board / "image.seen").exists()


def test_a_manifest_that_does_not_verify_runs_nothing(board, monkeypatch, capsys):
    sign(board, ["boot.py"], ok=False, monkeypatch=monkeypatch)
    (board / "boot.py").write_text("raise SystemExit('ran')\n")
    start.boot(b"key")
    assert start.verified == ("tapis: REFUSING TO RUN: file x changed", False)
    start.main()
    assert capsys.readouterr().out == "tapis: REFUSING TO RUN: file x changed\n"


def test_a_verified_image_runs_its_signed_boot_and_main_and_is_seen_once(board, monkeypatch, capsys):
    sign(board, ["boot.py", "main.py", "lib/x.py"], monkeypatch=monkeypatch)
    ran = board / "ran"
    for name in ("boot.py", "main.py"):
        (board / name).write_text("open(%r, 'a').write(%r + ' ' + __name__ + '\\n')\n" % (str(ran), name))
    start.boot(b"key")
    assert start.verified == ("tapis: checked", True) and sys.path == [".frozen", "/lib"]
    assert ran.read_text() == "boot.py __main__\n"
    start.main()
    assert capsys.readouterr().out == "tapis: checked\n"
    assert ran.read_text() == "boot.py __main__\nmain.py __main__\n"
    start.boot(b"key")  # the same image again: SEEN keeps one line for it
    assert (board / "image.seen").read_text() == "3 %s\n" % ("ab" * 32)


def test_main_is_nothing_when_boot_was_interrupted(board, capsys):
    start.main()
    assert capsys.readouterr().out == ""
