"""The emulated Pico's flash as an operator handles it (host/picotable.py): the firmware
deployed with `tapis flash --verify` over its USB CDC (a pty) with a game's configuration, a
flash file kept in the cache for the same firmware and configuration; and its raw REPL, reached
by Ctrl-C before main.py's watchdog starts, to read the device key and id or to put files.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

from tapis.firmware.boot.report import FLAG
from tapis.simulator.pico.board import PicoError
from tapis.simulator.pico.setup import cache_dir

BOOT_MS = 60_000  # emulated ms a boot may take before the game reports


def _kwargs(options):
    return {k: getattr(options, k) for k in options.FIELDS} if options is not None else {}


def product(pico):
    """Does the emulated Pico run a product image (tapis image build), its code frozen?"""
    from tapis.host.image_uf2 import is_product

    return is_product(pico.image.read_bytes())


def flash_key(pico, game, options, key, host_link=None, check_minutes=None):
    """What names a flash file in the cache: the chip's image, its unique ID (the manifest names
    the device: a flash made for another chip is refused at its boot), the device key, the files."""
    from tapis.host.flash_image import build_image, configuration
    config = configuration(game, None, _kwargs(options), check_minutes, host_link=host_link)
    image = {"config.json": config} if product(pico) else build_image(config=config)
    h = hashlib.sha256(pico.image.read_bytes())
    h.update(pico.unique_id)
    h.update(key)  # the device key it is flashed with (the bus devices are paired with it)
    for path in sorted(image):
        h.update(path.encode() + b"\0" + image[path])
    return h.hexdigest()[:24]


def deploy(pico, game, options, key, say, host_link=None, check_minutes=None):
    """`tapis flash --verify` over a pty to the USB CDC with this game's configuration
    (host_link "usb": --host-link usb; check_minutes: --check-minutes), then report.on. A flash file already made for the same firmware and configuration
    is taken from the cache instead (the same bytes tapis flash would write)."""
    cached = cache_dir() / ("pico-flash-%s.bin" % flash_key(pico, game, options, key, host_link, check_minutes))
    if cached.exists():  # (the runner has not started: it will load this flash)
        shutil.copyfile(cached, pico.flash_path)
        say("tapis: the flashed board from the cache (%s)" % cached.name)
        return
    path = pico.pty()
    try:
        with tempfile.TemporaryDirectory() as keys:
            key_file = os.path.join(keys, "table.key")  # the key the emulated devices are paired with
            with open(key_file, "w") as f:
                f.write(key.hex() + "\n")
            argv = [sys.executable, "-m", "tapis", "flash", "--port", path, "--verify", "--json",
                    "--game", game, "--key-file", key_file]
            if product(pico):  # the image's code is frozen: it must bake in the public test signing key
                _test_signer(key_file, pico.image)
                argv += ["--image", str(pico.image)]
            if host_link:
                argv += ["--host-link", host_link]
            if check_minutes is not None:
                argv += ["--check-minutes", str(check_minutes)]
            for k, v in sorted(_kwargs(options).items()):
                argv += ["--option", "%s=%s" % (k, json.dumps(list(v) if isinstance(v, tuple) else v))]
            say("tapis: flashing the emulated Pico (tapis flash --verify)...")
            p = subprocess.run(argv, capture_output=True, text=True, timeout=1800,
                               env=dict(os.environ, TAPIS_KEY_DIR=keys))
        if p.returncode:
            raise PicoError("tapis flash failed: %s" % (p.stderr.strip() or p.stdout))
    finally:
        pico.stop_pty()
    # report.on, through the raw REPL in lockstep (mpremote's soft reset would wait on a
    # product image's whole check, which an emulated Pico on a loaded machine can take 5 s of wall time on)
    _out, err = stopped(pico).exec_raw("open(%r, 'w').close()" % FLAG)
    if err:
        raise PicoError("report.on on the Pico: %s" % err.strip())
    pico.save_flash()
    cached.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(pico.flash_path, str(cached) + ".tmp")
    os.replace(str(cached) + ".tmp", cached)


def _test_signer(key_file, image):
    """The signing key beside key_file: the emulated boards' public test seed, whose public
    key `tapis image build --test-key` bakes in (host/flash_sign.py Signer's file)."""
    from tapis.host.flash_keys import sign_path
    from tapis.host.flash_sign import public_key
    from tapis.host.image_uf2 import flash
    from tapis.simulator.testkey import TEST_SIGNING_SEED

    if public_key(TEST_SIGNING_SEED) not in flash(image.read_bytes()):
        raise PicoError("the product image %s does not bake in the emulated boards' public test key: build it "
                        "with tapis image build --test-key" % image)

    with open(sign_path("", key_file), "w") as f:
        json.dump({"seed": TEST_SIGNING_SEED.hex(), "signed": {}}, f)


def stopped(pico):
    """Power on, Ctrl-C main.py (before its watchdog starts): the raw REPL, as an
    operator reaches it with mpremote. The table is not running after it: boot()
    starts it."""
    from tapis.simulator.pico.repl import Repl

    pico.power_cycle()
    repl = Repl(pico)
    start = pico.now_ms
    while b">>> " not in repl.buf:  # Ctrl-C every ms until the REPL answers
        pico.usb.write(b"\x03")
        pico.step(1)
        data = pico.usb.read()
        repl.buf += data
        repl.transcript += data
        if pico.now_ms - start > BOOT_MS:
            raise PicoError("the Pico never came to its REPL; it said %r" % bytes(repl.buf[-300:]))
    repl.sync()
    return repl


def identity(pico):
    """(device key, device id) the flashed board chains its journal under
    (firmware/boot/powerup.py device()), read off the board."""
    repl = stopped(pico)
    # (what firmware/boot/powerup.py device() reads, on the board)
    got, err = repl.exec_raw("import binascii, machine\nprint(open('device.key').read().strip(), "
                             "binascii.hexlify(machine.unique_id()).decode())")
    if err or len(got.split()) != 2:
        raise PicoError("the Pico's device key and id: %r %r" % (got, err))
    key, ident = got.split()
    return bytes.fromhex(key), ident


def put_files(pico, files, chunk=2048):
    """Write {board path: bytes} on the board's filesystem, as an operator would with
    mpremote (the raw REPL). The table is not running after it: boot() starts it."""
    import binascii

    repl = stopped(pico)
    for path, data in sorted(files.items()):
        chunks = ["f.write(binascii.a2b_base64(%r))" % binascii.b2a_base64(data[i:i + chunk], newline=False)
                  for i in range(0, len(data), chunk)]
        for code in ["import binascii\nf = open(%r, 'wb')" % path] + chunks + ["f.close()"]:
            _out, err = repl.exec_raw(code)
            if err:
                raise PicoError("writing %s on the Pico: %s" % (path, err.strip()))
    got, err = repl.exec_raw("import os\nprint(sorted((p, os.stat(p)[6]) for p in %r))"
                             % (sorted(files),))
    want = str(sorted((p, len(d)) for p, d in files.items()))
    if err or got.strip() != want:
        raise PicoError("the files on the Pico are not those written: %r %r" % (got, err))


def get_files(pico, paths):
    """{board path: bytes} of those of `paths` on the board's filesystem (one missing is left
    out), read through the raw REPL. The table is not running after it: boot() starts it."""
    repl = stopped(pico)
    out = {}
    for path in paths:
        got, err = repl.exec_raw("import binascii\ntry:\n    print(binascii.hexlify(open(%r, 'rb').read()).decode())\n"
                                 "except OSError:\n    print('-')" % path)
        if err:
            raise PicoError("reading %s on the Pico: %s" % (path, err.strip()))
        got = got if isinstance(got, str) else got.decode()
        if got.strip() != "-":
            out[path] = bytes.fromhex(got.strip())
    return out
