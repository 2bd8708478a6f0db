"""The software checks while running and against a seed (issue 30 point 4, SPEC §10;
firmware/verify/swcheck.py, host/verify.py, tapis verify): HMAC-SHA256(seed, every byte the board
runs) answers differently for two seeds, changes with one byte of any file the board runs,
and is what the host computes from what it flashed; the periodic check in pieces between
deals; the VERIFY request on the supervisor's path only. On the CPython board here; under
MicroPython and on the emulated Pico in tests/test_swcheck_boards.py."""
import hashlib
import json
import subprocess
import sys
import threading

import pytest

from tapis.firmware.verify import swcheck
from tapis.firmware import wire as W
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.journal.writer import Journal
from tapis.firmware.link.link import Link
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.host import schemas
from tapis.host.flash_image import build_image, configuration
from tapis.host.verify import ask, expected, keep_image, load_image, parse_seed
from tapis.simulator.pipes import pipe
from tapis.simulator.supervisor import EmuSupervisor
from tapis.simulator.table import EmulatedTable
from helpers import PtyEnd, records_heard

SEED1, SEED2 = bytes(range(16)), bytes(range(16, 32))


def flashed(root, game="ecarte", **config):
    """A board's filesystem as tapis flash leaves it (the manifest unsigned: the boot check
    is manifest.py's, tested in test_firmware_signing.py): {path: bytes} of what it runs."""
    image = build_image(out_dir=root, config=configuration(game, **config))
    files = {p: hashlib.sha256(d).hexdigest() for p, d in image.items()}
    (root / "manifest.json").write_text(json.dumps({"v": 2, "device": "test", "version": 1, "files": files}))
    return image


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    root = tmp_path_factory.mktemp("board")
    return root, flashed(root)


def at(root):
    return str(root) + "/"


def flip(path, where=0.5):
    data = bytearray(path.read_bytes())
    k = int(len(data) * where)
    data[k] ^= 0x01
    path.write_bytes(bytes(data))
    return k


# ---- the answer --------------------------------------------------------------------------

def test_two_seeds_answer_differently_and_as_the_host_computes(board):
    root, image = board
    a1, a2 = swcheck.answer(SEED1, at(root)), swcheck.answer(SEED2, at(root))
    assert len(a1) == len(a2) == 32 and a1 != a2
    assert a1 == expected(image, SEED1) and a2 == expected(image, SEED2)
    assert [p for p, _h in swcheck.listed(at(root))] == sorted(image)  # what it feeds: the manifest's files
    assert {"main.py", "firmware.img", "fwimage.mpy", "config.json"} <= set(image)  # the configuration too


def test_the_answer_is_hmac_sha256_of_the_files_framed(board):
    """The board's pieces (512 bytes) and the host's whole files feed the same bytes."""
    import hmac
    root, image = board
    msg = b"".join(p.encode() + b"\0" + len(image[p]).to_bytes(4, "big") + image[p] for p in sorted(image))
    assert swcheck.answer(SEED1, at(root)) == hmac.new(SEED1, msg, hashlib.sha256).digest()


@pytest.mark.parametrize("name", ["main.py", "fwimage.mpy", "firmware.img", "config.json"])
@pytest.mark.parametrize("where", [0.0, 0.5, 0.999])
def test_one_changed_byte_of_any_file_the_board_runs_changes_the_answer(tmp_path, name, where):
    image = flashed(tmp_path)
    before = swcheck.answer(SEED1, at(tmp_path))
    flip(tmp_path / name, where)
    after = swcheck.answer(SEED1, at(tmp_path))
    assert after != before and before == expected(image, SEED1)
    changed = dict(image, **{name: (tmp_path / name).read_bytes()})
    assert after == expected(changed, SEED1)  # only what the board holds makes the answer


def test_a_seed_not_of_128_bits_is_refused(board):
    root, _image = board
    for bad in (b"", bytes(15), bytes(17), bytes(32)):
        with pytest.raises(ValueError):
            swcheck.answer(bad, at(root))
    assert parse_seed("00112233445566778899AABBCCDDEEFF") == bytes.fromhex("00112233445566778899aabbccddeeff")
    for bad in ("", "0011", "00112233445566778899aabbccddeefg", "00" * 17):
        with pytest.raises(ValueError, match="32 hex digits"):
            parse_seed(bad)


def test_the_product_images_frozen_code_is_one_more_source(board):
    """A source of its own (w32's XIP flash region) is a feed(h) handed in."""
    root, image = board
    extra = lambda h: h.update(b"frozen code")  # noqa: E731
    got = swcheck.answer(SEED1, at(root), more=(extra,))
    assert got != swcheck.answer(SEED1, at(root))
    h = swcheck.Hmac(SEED1)
    swcheck.feed(h, at(root))
    h.update(b"frozen code")
    assert got == h.digest()


def test_the_host_keeps_what_it_flashed(tmp_path, board):
    _root, image = board
    keep_image(tmp_path / "dev.image", image)
    assert load_image(tmp_path / "dev.image") == image


# ---- the periodic check ------------------------------------------------------------------

def periodic(root, pin=None):
    c = swcheck.Periodic(swcheck.pinned(at(root)) if pin is None else pin, at(root))
    steps = 0
    while True:
        r = c.step()
        steps += 1
        if r is not None:
            return r, steps


def test_the_periodic_check_runs_in_pieces_and_passes(board):
    root, image = board
    (ok, why), steps = periodic(root)
    assert ok and why == "%d files match the signed manifest" % len(image)
    # a piece a call: 512 bytes (about 1 ms on a Pico), so the watchdog is fed between them
    assert steps >= sum(len(d) for d in image.values()) // 512


@pytest.mark.parametrize("name", ["firmware.img", "config.json"])
def test_the_periodic_check_finds_a_changed_byte(tmp_path, name):
    flashed(tmp_path)
    pin = swcheck.pinned(at(tmp_path))
    flip(tmp_path / name)
    (ok, why), _ = periodic(tmp_path, pin)
    assert not ok and why.startswith("%s was modified" % name)


def test_the_periodic_check_refuses_a_manifest_that_is_not_the_one_verified_at_boot(tmp_path):
    flashed(tmp_path)
    pin = swcheck.pinned(at(tmp_path))
    m = json.loads((tmp_path / "manifest.json").read_text())
    flip(tmp_path / "main.py")  # and the manifest rewritten to match it
    m["files"]["main.py"] = hashlib.sha256((tmp_path / "main.py").read_bytes()).hexdigest()
    (tmp_path / "manifest.json").write_text(json.dumps(m))
    (ok, why), _ = periodic(tmp_path, pin)
    assert not ok and "not the one verified at boot" in why
    (ok, why), _ = periodic(tmp_path / "nowhere", b"")
    assert not ok and "cannot check" in why


def board_table(root, seed=3):
    """A table with a journal and an event log (in memory) whose board runs what `root` holds."""
    t = EmulatedTable(seed, "ecarte", journal=Journal(MemoryStore(), device="test-board"),
                      events=EventLog(MemoryStore(), device="test-board", clock=lambda: 0, unit="ms"))
    t.controller.root = at(root)
    return t


def logged(t):
    """The event log's entries: (class, detail, locks)."""
    return [(e["c"], e["d"], bool(e.get("l"))) for e in EventLog(t.events.store).since(0)]


def ticked(t, pin, ms=200000):
    """main.py's loop: once due, swcheck.tick a turn until it has a result."""
    check = None
    for _ in range(ms):
        t.step()
        check = swcheck.tick(t.controller, check, pin)
        if check is False:
            return t.now
    raise AssertionError("no result in %d ms" % ms)


def test_the_periodic_check_begins_between_deals_and_its_result_is_an_event(tmp_path):
    flashed(tmp_path)
    t = board_table(tmp_path)
    t.run_deals(1)
    t.run(lambda g: g.to_act >= 0)  # a deal in play: the check waits for its end
    deals = t.game.finished_deals()
    ticked(t, swcheck.pinned(at(tmp_path)))
    assert t.game.finished_deals() > deals  # begun only once that deal was over
    cls, detail, locks = logged(t)[-1]
    assert (cls, locks) == ("check-passed", False) and detail.startswith("passed: ")


def test_a_failed_periodic_check_tilts(tmp_path):
    flashed(tmp_path)
    t = board_table(tmp_path)
    pin = swcheck.pinned(at(tmp_path))
    flip(tmp_path / "firmware.img")
    ticked(t, pin)
    cls, detail, locks = logged(t)[-1]
    assert (cls, locks) == ("check-failed", True) and "failed: firmware.img was modified" in detail
    assert t.controller.locked == ["check-failed"]  # play stops until the supervisor clears it


def test_the_interval_is_in_the_signed_configuration(tmp_path):
    from tapis.firmware.boot import config
    from tapis.host.flash_image import configuration as conf
    (tmp_path / "a.json").write_bytes(conf("ecarte"))
    assert config.check_ms(str(tmp_path / "a.json")) == config.CHECK_MINUTES * 60000
    (tmp_path / "a.json").write_bytes(conf("ecarte", check_minutes=7))  # tapis flash --check-minutes 7
    assert config.check_ms(str(tmp_path / "a.json")) == 7 * 60000
    raw = json.loads(conf("ecarte"))
    for m, ok in ((5, True), (0, True), (-1, False), ("5", False), (True, False), (1441, False)):
        (tmp_path / "b.json").write_text(json.dumps(dict(raw, check_minutes=m)))
        if ok:
            config.load(str(tmp_path / "b.json"))
            assert config.check_ms(str(tmp_path / "b.json")) == m * 60000
        else:
            with pytest.raises(config.ConfigError, match="check_minutes"):
                config.load(str(tmp_path / "b.json"))


# ---- on demand, over the supervisor's path -------------------------------------------------

def usb(t):
    ctrl_end, host_end = pipe()
    link = Link(ctrl_end)
    t.controller.route[W.HOST] = link
    t.controller.links.append(link)
    return host_end


def test_the_host_tool_on_its_own_link_gets_the_boards_answer(board):
    root, image = board
    t = board_table(root)
    t.run_deals(1)
    got, device, why = ask(usb(t), SEED1, step=t.step, timeout=30)
    assert (got, device, why) == (expected(image, SEED1), "test-board", None)
    cls, detail, _locks = logged(t)[-1]
    assert cls == "check-passed"
    assert "by usb" in detail and SEED1.hex() in detail and got.hex() in detail


def test_the_supervisor_device_gets_it_and_a_seats_console_does_not(board):
    root, image = board
    t = board_table(root)
    sup = EmuSupervisor(t.lines[1].end("supervisor"))
    t.devices.append(sup)
    t.run_deals(1)
    sup.verify(SEED2)
    t.run(lambda g: sup.checked is not None)
    assert sup.checked == b"\0" + expected(image, SEED2) + b"test-board\0no monotonic counter"
    before = t.controller.errors.get("credentials", 0), sum(ln.forged for ln in t.controller.links)
    spy = t.consoles[0]
    heard = records_heard(spy, W.CHECKED)
    for addr in (W.PANEL, W.HOST):
        spy.link.send(addr, W.VERIFY, SEED1)
    for _ in range(4000):
        t.step()
    # each refused: as the panel's, for want of the credential; as the host's, by the keyed
    # bus's link, each time it is resent (no device paired there: tests/test_bus_recovery.py)
    assert heard == [] and t.controller.errors.get("credentials", 0) - before[0] == 1
    assert sum(ln.forged for ln in t.controller.links) > before[1]


def test_a_board_without_a_manifest_says_so_and_tilts(tmp_path):
    t = board_table(tmp_path / "empty")
    got, _device, why = ask(usb(t), SEED1, step=t.step, timeout=30)
    assert got is None and "no signed manifest" in why
    assert [e[0] for e in logged(t)[-1:]] == ["check-failed"] and t.controller.locked == ["check-failed"]


# ---- tapis verify -----------------------------------------------------------------------

def tapis(*argv):
    return subprocess.run([sys.executable, "-m", "tapis", *argv], capture_output=True, text=True, timeout=120)


def test_flash_refuses_a_check_interval_that_is_not_minutes():
    p = tapis("flash", "--port", "loop://", "--check-minutes", "-5")
    assert p.returncode == 2 and "--check-minutes wants a whole number of minutes 0..1440" in p.stderr


@pytest.mark.parametrize("seed", ["", "abc", "00" * 15, "00" * 17, "zz" * 16])
def test_a_bad_seed_is_one_clear_line_and_exit_2(seed):
    p = tapis("verify", "--port", "loop://", "--seed", seed)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "32 hex digits" in p.stderr


def on_a_pty(t):
    """The table stepped in a thread, its host link on a pty: a pyserial URL for tapis."""
    end = PtyEnd()
    link = Link(end)
    t.controller.route[W.HOST] = link
    t.controller.links.append(link)
    stop = threading.Event()

    def run():
        import time
        while not stop.is_set():
            for _ in range(20):
                t.step()
            time.sleep(0.001)

    th = threading.Thread(target=run, daemon=True)
    th.start()
    return end.name, lambda: (stop.set(), th.join(), end.close())


def verify_cli(argv, capsys):
    from tapis.host.cli import main
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_tapis_verify_matches_a_board_running_what_was_flashed(tmp_path, board, capsys):
    root, image = board
    keep_image(tmp_path / "test-board.image", image)
    t = board_table(root)
    t.run_deals(1)
    url, done = on_a_pty(t)
    try:
        code, out, err = verify_cli(["verify", "--port", url, "--seed", SEED1.hex(), "--json",
                                     "--key-file", str(tmp_path / "test-board.key")], capsys)
        assert code == 0, err
        result = json.loads(out)
        assert schemas.validate(result) == "tapis.verify/1"
        assert result["match"] and result["board"] == result["host"] == expected(image, SEED1).hex()
        assert result["device"] == "test-board" and result["files"] == sorted(image)
    finally:
        done()
    # (a second host tool on the same link is not answered, as for tapis recall: a table anew)
    t = board_table(root)
    url, done = on_a_pty(t)
    try:
        code, out, err = verify_cli(["verify", "--port", url, "--seed", SEED2.hex(),
                                     "--image", str(tmp_path / "test-board.image")], capsys)
        assert code == 0 and "MATCH" in out and expected(image, SEED2).hex() in out, err
    finally:
        done()


def test_tapis_verify_exits_2_on_a_board_that_runs_a_changed_byte(tmp_path, capsys):
    image = flashed(tmp_path / "b")
    keep_image(tmp_path / "flashed.image", image)
    flip(tmp_path / "b" / "config.json")  # an offline edit of the signed configuration
    t = board_table(tmp_path / "b")
    url, done = on_a_pty(t)
    try:
        code, out, err = verify_cli(["verify", "--port", url, "--seed", SEED1.hex(), "--json",
                                     "--image", str(tmp_path / "flashed.image")], capsys)
    finally:
        done()
    result = json.loads(out)
    assert code == 2 and not result["match"] and result["board"] != result["host"]
    assert schemas.validate(result) == "tapis.verify/1"
