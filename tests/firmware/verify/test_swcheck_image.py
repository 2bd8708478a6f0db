"""The seeded and periodic software checks on a product image (issue 30.4 on issue 32's image):
its code is frozen in flash, not files, so the board feeds, after the files its manifest
lists, the image's region (firmware/verify/xip.py: 0x10000000 to the end the image records) and the
host the same region of the UF2 it flashed (host/image/uf2.py, kept with what tapis flash
kept: host/flash/verify.py). Here the board's flash is a fake XIP reader over a UF2's bytes (the
`machine` and `uctypes` xip.py reads through, on CPython); on the emulated Pico at the end."""
import hashlib
import json
import os
import struct
import sys
import types

import pytest

from tapis.firmware.verify import swcheck, xip
from tapis.host import schemas
from tapis.host.image.uf2 import flash, region, whole
from tapis.host.flash.verify import expected, keep_image, load_image, load_kept
from test_product import fake_image, uf2_of
from test_swcheck import (SEED1, SEED2, at, board_table, flashed, logged, on_a_pty, periodic, ticked,
                          verify_cli)

END = 0x3000  # fake_image's recorded end (its UF2 covers 0x3100 bytes)


def product(root, uf2):
    """`root` as tapis flash --image leaves a board: a version 3 manifest signing the image."""
    image = flashed(root)
    m = json.loads((root / "manifest.json").read_text())
    (root / "manifest.json").write_text(json.dumps(dict(m, v=3, image=whole(uf2))))
    return image


@pytest.fixture
def chip(monkeypatch):
    """The board's XIP flash as xip.py reads it (machine.mem32, uctypes.bytearray_at), over
    a bytearray: what a UF2 wrote, then erased flash; .load(uf2) writes one."""
    mem = bytearray(b"\xff" * 0x10000)

    class Mem32:
        def __getitem__(self, a):
            return struct.unpack_from("<I", mem, a - xip.BASE)[0]

    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(mem32=Mem32()))
    monkeypatch.setitem(sys.modules, "uctypes", types.SimpleNamespace(
        bytearray_at=lambda a, n: memoryview(mem)[a - xip.BASE:a - xip.BASE + n]))
    return types.SimpleNamespace(mem=mem, load=lambda uf2: mem.__setitem__(slice(0, len(flash(uf2))), flash(uf2)))


def poke(uf2, offset, xor=0x01):
    """The UF2 with the flash byte at `offset` (from xip.BASE) changed."""
    data = bytearray(flash(uf2))
    data[offset] ^= xor
    return uf2_of(bytes(data))


# ---- the host's answer covers the image ----------------------------------------------------
def test_the_hosts_answer_for_a_product_image_covers_its_code_and_nothing_past_its_end(tmp_path):
    files = flashed(tmp_path)
    uf2 = uf2_of(fake_image(END, 0x3100))
    a = expected(files, SEED1, uf2)
    h = swcheck.Hmac(SEED1)  # the files as before, then the region: nothing else
    for p in sorted(files):
        h.update(swcheck.header(p, len(files[p])) + files[p])
    h.update(region(uf2))
    assert a == h.digest() and a != expected(files, SEED1) and a != expected(files, SEED2, uf2)
    for at_ in (0x100, 0x1000, END - 1):  # boot2, the code, the last byte the image records
        assert expected(files, SEED1, poke(uf2, at_)) != a, hex(at_)
    assert expected(files, SEED1, poke(uf2, END)) == a  # past the end: an older image's tail
    assert expected(files, SEED1, poke(uf2, 0x30FF)) == a


def test_the_kept_record_holds_the_uf2_beside_the_files(tmp_path):
    files = flashed(tmp_path / "b")
    uf2 = uf2_of(fake_image())
    keep_image(tmp_path / "dev.image", files, uf2)
    assert load_kept(tmp_path / "dev.image") == (files, uf2)
    assert load_image(tmp_path / "dev.image") == files  # the board paths only
    keep_image(tmp_path / "dev.image", files)  # flashed again with a stock MicroPython
    assert load_kept(tmp_path / "dev.image") == (files, None)


# ---- the board's answer: the same bytes, the same answer -----------------------------------
def test_the_boards_answer_with_its_image_is_the_hosts(tmp_path, chip):
    uf2 = uf2_of(fake_image())
    files = product(tmp_path, uf2)
    chip.load(uf2)
    assert swcheck.image(at(tmp_path)) == whole(uf2)
    for seed in (SEED1, SEED2):
        assert swcheck.answer(seed, at(tmp_path), (xip.feed,)) == expected(files, seed, uf2)
    fed = []
    assert xip.feed(hashlib.sha256(), 1024, lambda: fed.append(1)) == END and len(fed) == END // 1024
    chip.mem[0x2FF0] ^= 1  # the running image altered: the board no longer answers what was flashed
    assert swcheck.answer(SEED1, at(tmp_path), (xip.feed,)) != expected(files, SEED1, uf2)


def test_a_stock_boards_manifest_names_no_image(tmp_path):
    flashed(tmp_path)
    assert swcheck.image(at(tmp_path)) is None


# ---- the periodic check --------------------------------------------------------------------
def test_the_periodic_check_hashes_the_image_in_pieces_after_the_files(tmp_path, chip):
    uf2 = uf2_of(fake_image())
    files = product(tmp_path, uf2)
    chip.load(uf2)
    (ok, why), steps = periodic(tmp_path)
    assert ok and why == "the image (%d bytes) and %d files match the signed manifest" % (END, len(files))
    assert steps >= (sum(len(d) for d in files.values()) + END) // 512
    chip.mem[0x1234] ^= 0x40
    (ok, why), _ = periodic(tmp_path)
    assert not ok and why.startswith("the image was modified"), why


def test_a_periodic_check_that_finds_the_image_changed_tilts(tmp_path, chip):
    uf2 = uf2_of(fake_image())
    product(tmp_path, uf2)
    chip.load(uf2)
    chip.mem[0x800] ^= 1
    t = board_table(tmp_path)
    ticked(t, swcheck.pinned(at(tmp_path)))
    cls, detail, locks = logged(t)[-1]
    assert (cls, locks) == ("check-failed", True) and "failed: the image was modified" in detail


# ---- tapis verify -----------------------------------------------------------------------------
def test_tapis_verify_on_a_product_board_feeds_the_uf2_it_kept(tmp_path, chip, capsys):
    uf2 = uf2_of(fake_image())
    files = product(tmp_path / "b", uf2)
    chip.load(uf2)
    keep_image(tmp_path / "test-board.image", files, uf2)
    for seed, altered in ((SEED1, False), (SEED2, True)):
        if altered:
            chip.mem[0x1800] ^= 1  # (each answer is recomputed: the board reads its flash anew)
        t = board_table(tmp_path / "b")
        url, done = on_a_pty(t)
        try:
            code, out, err = verify_cli(["verify", "--port", url, "--seed", seed.hex(), "--json",
                                         "--image", str(tmp_path / "test-board.image")], capsys)
        finally:
            done()
        result = json.loads(out)
        assert schemas.validate(result) == "tapis.verify/1"
        assert result["host"] == expected(files, seed, uf2).hex() and result["product_image"] == END
        assert (code, result["match"]) == ((2, False) if altered else (0, True)), err
    # the UF2 named on the command line in place of the kept one: another image, another answer
    other = tmp_path / "other.uf2"
    other.write_bytes(poke(uf2, 0x1800))
    t = board_table(tmp_path / "b")
    url, done = on_a_pty(t)
    try:
        code, out, err = verify_cli(["verify", "--port", url, "--seed", SEED2.hex(), "--uf2", str(other),
                                     "--image", str(tmp_path / "test-board.image")], capsys)
    finally:
        done()
    assert code == 0 and "MATCH" in out and "the product image, %d bytes" % END in out, err


# ---- the emulated Pico running the product image ------------------------------------------------
@pytest.mark.skipif(not (os.environ.get("TAPIS_MICROPYTHON_SRC") and os.environ.get("TAPIS_PICOTOOL_SRC")),
                    reason="no MicroPython or picotool source to build the product image (.ci/run sets them)")
def test_the_emulated_product_pico_answers_the_supervisors_seed_with_its_image():
    """The real firmware frozen in the image, flashed by tapis flash --image: the supervisor
    device's VERIFY on the bus, answered over the config.json its manifest lists and the
    image's region as the chip reads it; the host's, from the UF2 and the configuration."""
    from tapis.host.flash.image import configuration
    from tapis.host.flash.sign import public_key
    from tapis.host.image.build import build
    from tapis.host.pico.table import PicoTable
    from tapis.simulator.table.supervisor import EmuSupervisor
    from tapis.simulator.testkey import TEST_SIGNING_SEED

    path = build(public_key=public_key(TEST_SIGNING_SEED).hex())["path"]
    uf2 = open(path, "rb").read()
    files = {"config.json": configuration("ecarte", None, {})}  # (host/pico/flash.py's)
    with PicoTable(7, "ecarte", image=path) as t:
        sup = EmuSupervisor(t.lines[1].end("supervisor"))
        t.devices.append(sup)
        t.run_deals(1)
        for seed in (SEED1, SEED2):
            sup.verify(seed)
            t.run(lambda g: sup.checked is not None)
            assert sup.checked[:33] == b"\0" + expected(files, seed, uf2), sup.checked
        assert sup.checked[:33] != b"\0" + expected(files, SEED2)  # the files alone are not the answer
