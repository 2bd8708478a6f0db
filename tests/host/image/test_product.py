"""The product image flashed and verified (issue 32 points 2 and 3): `tapis flash --image`
to a Pico's BOOTSEL drive (a fake mount folder here) and to the emulated Pico; the image's
own frozen start-up (firmware/boot/start.py) checks, before any file of the filesystem runs, the
image as the board reads it (firmware/verify/xip.py) and the configuration, under the public key
baked into the image; the host computes the same hash from the UF2 (host/image/uf2.py).

The emulated ones build the image from $TAPIS_MICROPYTHON_SRC and $TAPIS_PICOTOOL_SRC (.ci/run
sets them to the archives in ../shared/micropython; the build is cached) and skip, saying so,
without them."""
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys

import pytest

from tapis.firmware.verify import xip
from tapis.host import cli
from tapis.host.errors import FlashError
from tapis.host.flash.product import copy_to_drive, find_drive
from tapis.host.image.source import MICROPYTHON_ENV, PICOTOOL_ENV
from tapis.host.image.uf2 import UF2Error, flash, is_product, region, whole

SOURCE = os.environ.get(MICROPYTHON_ENV)
PICOTOOL = os.environ.get(PICOTOOL_ENV)
needs_build = pytest.mark.skipif(not (SOURCE and PICOTOOL), reason="no MicroPython or picotool source to build the "
                                 "product image: set $%s and $%s (../shared/micropython/)" % (MICROPYTHON_ENV, PICOTOOL_ENV))
GAMES = ("ecarte", "piquet", "club")


def uf2_of(payload, base=xip.BASE):
    """A UF2 writing `payload` from `base` (256 bytes a block, as picotool makes them)."""
    out = b""
    blocks = (len(payload) + 255) // 256
    for k in range(blocks):
        data = payload[256 * k:256 * k + 256].ljust(256, b"\0")
        head = struct.pack("<IIIIIIII", 0x0A324655, 0x9E5D5157, 0x2000, base + 256 * k, 256, k, blocks, 0xE48BFF56)
        out += head + data.ljust(476, b"\0") + struct.pack("<I", 0x0AB16F30)
    return out


def fake_image(end_offset=0x3000, size=0x3100):
    """A flash image with pico-sdk's binary info: the header at 0x1d4, one BINARY_END entry."""
    flash_ = bytearray(os.urandom(size))
    w = lambda at, v: struct.pack_into("<I", flash_, at, v)  # noqa: E731
    w(0x1D4, 0x7188EBF2), w(0x1D8, xip.BASE + 0x2000), w(0x1DC, xip.BASE + 0x2008), w(0x1E4, 0xE71AA390)
    w(0x2000, xip.BASE + 0x2101), w(0x2004, xip.BASE + 0x2100)  # an unaligned pointer first (seen in real ones)
    w(0x2100, 5 | 0x5052 << 16), w(0x2104, 0x68F465DE), w(0x2108, xip.BASE + end_offset)
    return bytes(flash_)


# ---- the host's hash of a UF2 -----------------------------------------------------------------
def test_the_region_ends_where_the_image_s_binary_info_says_not_where_the_uf2_does():
    image = fake_image()
    uf2 = uf2_of(image)
    assert flash(uf2)[:len(image)] == image and region(uf2) == image[:0x3000]
    assert whole(uf2) == {"sha256": hashlib.sha256(image[:0x3000]).hexdigest(), "bytes": 0x3000}
    # the board's walk reads the same words through machine.mem32: the same end
    assert xip.walk(lambda a: struct.unpack_from("<I", image, a - xip.BASE)[0], xip.BASE + len(image)) == xip.BASE + 0x3000
    assert not is_product(uf2)


def test_a_uf2_with_a_gap_or_no_binary_info_is_refused():
    with pytest.raises(UF2Error, match="without gaps"):
        flash(uf2_of(b"\1" * 512, base=xip.BASE + 4096))
    with pytest.raises(UF2Error, match="binary info"):
        region(uf2_of(bytes(4096)))
    with pytest.raises(UF2Error, match="bad magic"):
        flash(b"\0" * 512)


# ---- BOOTSEL: the UF2 copied as a user drags it ----------------------------------------------
def test_the_bootsel_drive_is_found_by_its_info_uf2_and_the_image_copied_to_it(tmp_path):
    drive = tmp_path / "media" / "maker" / "RPI-RP2"
    drive.mkdir(parents=True)
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n")
    (tmp_path / "media" / "maker" / "USBSTICK").mkdir()
    uf2 = tmp_path / "tapis-RPI_PICO-firmware.uf2"
    uf2.write_bytes(uf2_of(fake_image()))
    assert find_drive("auto", roots=[tmp_path / "media"]) == drive
    assert find_drive(str(drive)) == drive
    assert copy_to_drive(uf2, drive).read_bytes() == uf2.read_bytes()
    with pytest.raises(FlashError, match="not a Pico's BOOTSEL drive"):
        find_drive(str(tmp_path))
    with pytest.raises(FlashError, match="hold BOOTSEL"):
        find_drive("auto", roots=[tmp_path / "nowhere"])


def test_tapis_flash_drive_refuses_a_folder_that_is_not_a_bootsel_drive(tmp_path, capsys):
    uf2 = tmp_path / "x.uf2"
    uf2.write_bytes(uf2_of(fake_image()))
    assert cli.main(["flash", "--port", "/dev/null-none", "--image", str(uf2), "--drive", str(tmp_path)]) == 2
    assert "not a Pico's BOOTSEL drive" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["flash", "--port", "x", "--drive", str(tmp_path)])  # --drive without --image


# ---- the product image on the emulated Pico ------------------------------------------------------
@pytest.fixture(scope="module")
def product():
    """The product image baked with the emulated boards' public test signing key (cached)."""
    if not (SOURCE and PICOTOOL):
        pytest.skip("no MicroPython or picotool source: set $%s and $%s" % (MICROPYTHON_ENV, PICOTOOL_ENV))
    from tapis.host.image.build import build
    from tapis.host.flash.sign import public_key
    from tapis.simulator.testkey import TEST_SIGNING_SEED

    return build(public_key=public_key(TEST_SIGNING_SEED).hex())["path"]


@pytest.fixture(scope="module")
def flashed(product, tmp_path_factory):
    """A flash file of the emulated Pico with the product image, flashed by tapis flash for
    écarté (the table's own deploy, host/pico/flash.py), and the board's unique id."""
    from tapis.host.pico.table import PicoTable

    with PicoTable(7, "ecarte", image=product) as t:
        t.pico.save_flash()
        path = tmp_path_factory.mktemp("flash") / "flash.bin"
        shutil.copyfile(t.pico.flash_path, path)
        return path, t.pico.unique_id


def verdict(pico):
    """(the start-up's verdict line, a Repl at the REPL): the REPL once the start-up refused,
    or the table started (its first report); Ctrl-C stops a table. The line is read off the
    start-up module (what the board prints before the USB host listens keeps only its last
    256 bytes or so)."""
    from tapis.simulator.pico.repl import Repl

    repl = Repl(pico)
    pico.usb.write(b"\r")

    def came():
        repl.buf += pico.usb.read()
        return b">>> " in repl.buf or b"tapis-applied" in repl.buf

    assert pico.run_for(20_000, until=came), bytes(repl.buf[-300:])
    while b">>> " not in repl.buf:
        pico.usb.write(b"\x03")
        pico.step(1)
        repl.buf += pico.usb.read()
    repl.sync()
    out, err = repl.exec_raw("import sys\nprint(sys.modules['firmware.boot.start'].verified[0])")
    assert not err, err
    return out.strip(), repl


def boot(product, flashed, tmp_path, pokes=None, image=None):
    """Power the flashed board on (a copy of its flash; `pokes` written over the image as an
    offline editor would): (its start-up's verdict, the pico, a Repl at its REPL)."""
    from tapis.simulator.pico.board import EmulatedPico

    path = tmp_path / "flash.bin"
    shutil.copyfile(flashed[0], path)
    pico = EmulatedPico(image or product, flash_path=path, unique_id=flashed[1])
    pico.pokes = dict(pokes or {})
    line, repl = verdict(pico)
    return line, pico, repl


@needs_build
def test_the_board_hashes_its_image_as_the_host_hashes_the_uf2(product, tmp_path):
    from tapis.simulator.pico.board import EmulatedPico
    from tapis.simulator.pico.repl import Repl

    data = open(product, "rb").read()
    assert is_product(data)
    with EmulatedPico(product, flash_path=tmp_path / "flash.bin") as pico:
        repl = Repl(pico)
        repl.ready()
        out, err = repl.exec_raw("import sys, hashlib\nfrom firmware.verify import xip\nprint(sys.path)\n"
                                 "print(repr(xip.sha256(hashlib)))")
    assert not err, err
    path, got = out.splitlines()
    assert path == "['.frozen']"  # the frozen modules alone: no file of the filesystem can stand in
    assert eval(got) == (whole(data)["sha256"], whole(data)["bytes"])


@needs_build
@pytest.mark.parametrize("where", ["frozen-name", "frozen-code", "near-the-end"])
def test_one_byte_changed_anywhere_in_the_image_is_caught_at_boot(product, flashed, tmp_path, where):
    """(Not the very last byte, a C initial value: refused too, but after 3 minutes of wall time.)"""
    data = region(open(product, "rb").read())
    at = {"frozen-name": data.find(b"firmware/cards.py"), "frozen-code": data.find(b"firmware/games/rules.py") + 40,
          "near-the-end": len(data) - 300}[where]
    said, pico, _ = boot(product, flashed, tmp_path, {at: bytes([data[at] ^ 0x10])})
    pico.close()
    assert "tapis: REFUSING TO RUN: the image was modified or replaced" in said, said


@needs_build
def test_the_untouched_image_verifies_and_records_what_it_saw(product, flashed, tmp_path):
    said, pico, repl = boot(product, flashed, tmp_path)  # the table runs: Ctrl-C gives the REPL
    out, _err = repl.exec_raw("print(open('/image.seen').read())")
    pico.close()
    assert "tapis: firmware verified: the image (%d bytes) and 1 files" % whole(open(product, "rb").read())["bytes"] \
        in said, said
    assert out.split()[1] == whole(open(product, "rb").read())["sha256"]


@needs_build
@pytest.mark.parametrize("name", ["boot.py", "main.py"])
def test_a_boot_py_or_main_py_planted_on_the_filesystem_never_runs(product, flashed, tmp_path, name):
    from tapis.host.pico.flash import put_files

    said, pico, _ = boot(product, flashed, tmp_path)
    code = b"open('/planted.ran', 'w').write('yes')\nprint('PLANTED CODE RAN')\n"
    put_files(pico, {name: code})
    pico.power_cycle()
    said, repl = verdict(pico)
    out, _err = repl.exec_raw("import os\nprint(sorted(os.listdir('/')))")
    said += repl.transcript.decode(errors="replace")
    pico.close()
    assert "REFUSING TO RUN: %s is not in the manifest" % name in said, said
    assert "PLANTED" not in said and "planted.ran" not in out


@needs_build
def test_an_older_image_flashed_back_is_caught(product, flashed, tmp_path, monkeypatch):
    """The board was flashed (config, keys, manifest) for the current image; an older one,
    built by this tapis before (another version baked in), is dragged back onto it."""
    import tapis
    from tapis.host.image.build import build
    from tapis.host.flash.sign import public_key
    from tapis.simulator.testkey import TEST_SIGNING_SEED

    monkeypatch.setattr(tapis, "__version__", "0.0.1")
    older = build(public_key=public_key(TEST_SIGNING_SEED).hex())
    assert older["version"] == "0.0.1" and older["image"]["sha256"] != hashlib.sha256(open(product, "rb").read()).hexdigest()
    said, pico, _ = boot(product, flashed, tmp_path, image=older["path"])
    pico.close()
    assert "REFUSING TO RUN: the image was modified or replaced" in said and "an older or altered image" in said, said


def run_table(*args, env=None):
    return subprocess.run([sys.executable, "-m", "tapis", "table", "--seed", "11", "--json", *args],
                          capture_output=True, text=True, timeout=900, env=env)


# The reference is the CPython board on the pure twins, the code the board itself runs: the
# same in either half of make test, so the test runs once (tests/twin_select.py; the golden
# games check the compiled twins give the same records).
PURE = dict(os.environ, TAPIS_PURE="1")


@needs_build
@pytest.mark.parametrize("game", ["ecarte"] + [pytest.param(g, marks=pytest.mark.slow) for g in GAMES[1:]])
def test_tapis_table_on_the_product_image_plays_the_deal_records_of_board_cpython(product, game):
    """(écarté in make test; piquet and club, 47 and 21 s of the emulated chip, behind slow: their
    rules run under MicroPython in tests/simulator/boards/test_micropython_parity.py.)"""
    pico = run_table("--game", game, "--deals", "2", "--board", "pico", "--image", product)
    assert pico.returncode == 0, pico.stderr
    cpython = run_table("--game", game, "--deals", "2", "--board", "cpython", env=PURE)
    assert pico.stdout == cpython.stdout and len(pico.stdout.splitlines()) == 2
    assert json.loads(pico.stdout.splitlines()[0])


@needs_build
def test_an_image_without_the_emulated_boards_test_key_is_refused_saying_how_to_build_one():
    from tapis.host.image.build import build

    other = build(public_key=hashlib.sha256(b"a test signing key").hexdigest())["path"]  # test_image.py's
    got = run_table("--deals", "1", "--board", "pico", "--image", other)
    assert got.returncode != 0 and "tapis image build --test-key" in got.stderr, got.stderr
