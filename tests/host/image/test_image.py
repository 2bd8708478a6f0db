"""The product image (issue 32): MicroPython built from source with the firmware frozen in
(`tapis image build`), reproducible; and the heap on a 32-bit port with the code frozen: the
unix port built with MICROPY_FORCE_32BIT=1 from the same source plays each game in 96 KB.
They build from $TAPIS_MICROPYTHON_SRC and $TAPIS_PICOTOOL_SRC (.ci/run sets them to the
archives in ../shared/micropython); without them they skip, saying so. Builds are cached
(~/.cache/tapis/image): only the first run of a changed firmware builds."""
import hashlib
import json
import os
import shutil
import struct
from pathlib import Path

import pytest

import tapis
from tapis.host import cli, schemas
from tapis.host.image.source import MICROPYTHON_ENV, PICOTOOL_ENV
from tapis.simulator.table.emulated import EmulatedTable
from test_vboard import cycled

SOURCE = os.environ.get(MICROPYTHON_ENV)
PICOTOOL = os.environ.get(PICOTOOL_ENV)
needs_source = pytest.mark.skipif(not SOURCE, reason="no MicroPython source: set $%s to a v1.27.0 checkout "
                                  "or archive (../shared/micropython/micropython-1.27.0-src.tar.gz)" % MICROPYTHON_ENV)
needs_picotool = pytest.mark.skipif(not (SOURCE and PICOTOOL), reason="no MicroPython or picotool source: set $%s "
                                    "and $%s (../shared/micropython/)" % (MICROPYTHON_ENV, PICOTOOL_ENV))
KEY = hashlib.sha256(b"a test signing key").hexdigest()
GAMES = ("ecarte", "piquet", "club")


def test_without_a_source_the_build_says_where_to_get_it(monkeypatch, capsys):
    monkeypatch.delenv(MICROPYTHON_ENV, raising=False)
    assert cli.main(["image", "build"]) == 2
    err = capsys.readouterr().err
    assert "git clone --branch v1.27.0 https://github.com/micropython/micropython" in err
    assert "make -C micropython/ports/rp2 submodules" in err and MICROPYTHON_ENV in err
    assert cli.main(["image", "build", "--source", "/nowhere/micropython"]) == 2
    assert "/nowhere/micropython does not exist" in capsys.readouterr().err


def test_a_public_key_that_is_not_32_bytes_is_refused(capsys):
    assert cli.main(["image", "build", "--public-key", "abc"]) == 2
    assert "64 hex digits" in capsys.readouterr().err


def _uf2_payload(data):
    """The flash bytes a UF2 writes, in order (256 bytes a 512-byte block)."""
    out = b""
    for i in range(0, len(data), 512):
        magic0, magic1, _flags, _addr, size = struct.unpack_from("<IIIII", data, i)
        assert (magic0, magic1) == (0x0A324655, 0x9E5D5157)
        out += data[i + 32:i + 32 + size]
    return out


@needs_picotool
def test_the_product_image_freezes_the_whole_firmware_package_and_bakes_the_key(tmp_path, capsys):
    assert cli.main(["image", "build", "--source", SOURCE, "--picotool", PICOTOOL, "--public-key", KEY,
                     "--out", str(tmp_path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    manifest = json.loads((tmp_path / "tapis-RPI_PICO-manifest.json").read_text())
    uf2 = (tmp_path / "tapis-RPI_PICO-firmware.uf2").read_bytes()
    assert printed == manifest and manifest["schema"] == "tapis.image/1" and manifest["board"] == "RPI_PICO"
    schemas.validate(manifest)  # docs/schemas/tapis.image-1.json
    assert manifest["image"] == {"file": "firmware.uf2", "bytes": len(uf2), "sha256": hashlib.sha256(uf2).hexdigest()}
    if Path(SOURCE).is_file():
        assert manifest["micropython"] == {"archive_sha256": hashlib.sha256(Path(SOURCE).read_bytes()).hexdigest(),
                                           "version": "1.27.0"}
    assert manifest["version"] == tapis.__version__
    from tapis.simulator.boards.image import FIRMWARE_DIR, OFF_BOARD, sources

    ours = {"firmware/%s.mpy" % p.relative_to(FIRMWARE_DIR).with_suffix("").as_posix() for p in sources(OFF_BOARD)}
    frozen = manifest["frozen"]
    assert ours <= set(frozen) and "tapis_image.mpy" in frozen and "asyncio/core.mpy" in frozen
    assert not any(path.startswith("firmware/offboard/") for path in frozen)  # the host's
    assert all(len(h) == 64 for h in frozen.values())
    assert manifest["baked"] == {"module": "tapis_image", "public_key": KEY, "config_format": 1}
    flash = _uf2_payload(uf2)
    assert bytes.fromhex(KEY) in flash and b"firmware/cards.py" in flash  # the key, the frozen code


@needs_picotool
@pytest.mark.skipif(os.environ.get("TAPIS_PURE") == "1", reason="the image does not depend on the Cython twins: "
                    "built again in the compiled run only")
def test_two_builds_of_the_image_give_the_same_bytes(tmp_path):
    from tapis.host.image.build import build

    cached = build(SOURCE, PICOTOOL, public_key=KEY)
    try:
        fresh = build(SOURCE, PICOTOOL, public_key=KEY, build_dir=tmp_path / "again")  # from scratch, elsewhere
        assert Path(fresh["path"]).read_bytes() == Path(cached["path"]).read_bytes()
        assert fresh["frozen"] == cached["frozen"] and fresh["image"] == cached["image"]
    finally:
        shutil.rmtree(tmp_path / "again", ignore_errors=True)  # a whole pico-sdk build, 100+ MB


# ---- the heap on the 32-bit unix port with the firmware frozen -------------------------------
# The unix port built from the same source with MICROPY_FORCE_32BIT=1 (4-byte pointers, as an
# RP2040's or an ESP32's) and the firmware frozen in (host/image/build.unix32): the code runs
# from the binary, the board's flash (a folder) holds only its journal. Measured, seed 3,
# a power cycle and resume a few events into the deal after every 100th: the 1,000 deals play
# in 96 KB with a high-water of 29.6 KB (écarté), 32.0 KB (piquet), 36.4 KB (club); the
# smallest heaps are in docs/performance.md ("Heap on the real collectors").
HEAP = 96 * 1024


@pytest.fixture(scope="module")
def port32():
    from tapis.host.image.build import unix32

    return str(unix32(SOURCE))


def _same_as_cpython(vb, game, deals):
    cpy = EmulatedTable(3, game)
    cpy.run_deals(deals)
    assert vb.board_log == list(cpy.game.log)[:len(vb.board_log)] and vb.game.finished_deals() >= deals


@needs_source
@pytest.mark.parametrize("game", GAMES)
def test_the_32bit_port_with_the_firmware_frozen_plays_50_deals_and_a_resume_in_96_KB(game, port32):
    vb, got = cycled(game, HEAP, 50, cycles=(25,), frozen=port32)
    assert vb.resumes == 1
    _same_as_cpython(vb, game, 50)
    assert max(got["resident"]) < 32 * 1024 and got["high"][50] < 48 * 1024, got


@needs_source
@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_32bit_port_with_the_firmware_frozen_plays_1000_deals_with_resumes_in_96_KB(game, port32):
    """1,000 deals, a power cycle and resume after every 100, no MemoryError, the heap flat."""
    cycles = tuple(range(100, 1000, 100))
    vb, got = cycled(game, HEAP, 1000, cycles, marks=(100,), frozen=port32)
    assert vb.resumes == len(cycles)
    _same_as_cpython(vb, game, 1000)
    assert got["high"][1000] - got["high"][100] < 4 * 1024, got  # no growth with the deals played
    assert max(got["resident"]) - got["resident"][0] < 4 * 1024, got  # a resume keeps no records
    print("%s in 96 KB (32-bit, frozen): resident %r, high-water %r" % (game, got["resident"], got["high"]))


def test_a_device_s_signing_key_gives_the_public_key_baked_in(tmp_path, monkeypatch):
    """--device bakes the public root of the signing key `tapis flash` made for the device."""
    import argparse

    from tapis.host.commands.image import public_key_of
    from tapis.host.flash.sign import Signer

    monkeypatch.setenv("TAPIS_KEY_DIR", str(tmp_path))
    signer = Signer.provision(tmp_path / "tbl-1.sign")
    got = public_key_of(argparse.Namespace(public_key=None, device="tbl-1", key_file=None))
    assert got == signer.public.hex() and len(got) == 64


def test_picotool_is_found_beside_micropython_and_the_default_key_is_the_emulated_boards(tmp_path, monkeypatch,
                                                                                          capsys):
    """Issue 46.1: `tapis image build --source micropython --out dist` as the README has it:
    picotool's source beside MicroPython's (a checkout or an archive), the emulated boards' test
    key baked in by default (said so), and a progress bar in steps with the time elapsed on a
    terminal. The build itself is stood in for: only what the command hands it is checked."""
    import io

    from tapis.host.image import build as image_build
    from tapis.host.flash.sign import public_key
    from tapis.simulator.testkey import TEST_SIGNING_SEED

    monkeypatch.delenv(MICROPYTHON_ENV, raising=False)
    monkeypatch.delenv(PICOTOOL_ENV, raising=False)
    (tmp_path / "micropython/ports/rp2").mkdir(parents=True)
    (tmp_path / "micropython/ports/rp2/Makefile").write_text("")
    (tmp_path / "picotool").mkdir()
    (tmp_path / "picotool/CMakeLists.txt").write_text("")
    given = {}

    def stand_in(source, picotool, public_key=None, out=None, on_step=None):
        given.update(source=source, picotool=picotool, public_key=public_key)
        for _ in range(image_build.BUILD_STEPS):
            on_step()
        return {"path": "x", "image": {"bytes": 1, "sha256": "0" * 64}, "frozen": [], "baked": {"public_key": public_key}}

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(image_build, "build", stand_in)
    monkeypatch.chdir(tmp_path)
    screen = Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    assert cli.main(["image", "build", "--source", "micropython", "--out", "dist"]) == 0
    assert given["picotool"] == str(tmp_path / "picotool")
    assert given["public_key"] == public_key(TEST_SIGNING_SEED).hex()
    assert "3/3" in screen.getvalue() and "steps" in screen.getvalue() and "0:00:0" in screen.getvalue()
    assert "test key is baked in" in capsys.readouterr().out
    shutil.rmtree(tmp_path / "picotool")
    import tarfile
    with tarfile.open(tmp_path / "picotool-2.1.1-src.tar.gz", "w:gz") as tar:
        tar.add(tmp_path / "micropython/ports/rp2/Makefile", arcname="picotool/CMakeLists.txt")
    assert cli.main(["image", "build", "--source", "micropython", "--out", "dist"]) == 0
    assert given["picotool"] == str(tmp_path / "picotool-2.1.1-src.tar.gz")
