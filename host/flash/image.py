# The image `tapis flash` deploys (host/flash/steps.py): every firmware module compiled with mpy-cross
# and packed in one file (firmware/verify/fwimage.py), the mounter beside it, main.py (the boot stub),
# config.json (what the table plays) and the operator's boot.py and lib/ files, as
# {board path: bytes}. Signing it is host/flash/sign.py's.
import json
import tempfile
from pathlib import Path

from tapis.firmware.verify import fwimage
from tapis.host.errors import FlashError
from tapis.simulator.boards.image import NOT_DEPLOYED, ImageError, compile_firmware

DEFAULT_ENTRY = "firmware.boot.main"
IMAGE = fwimage.IMAGE
MOUNTER = "fwimage.mpy"  # at the root: it mounts the image the rest of the firmware is in


def boot_stub(entry):
    """main.py: the image mounted, the check (which unloads itself), then the entry, from
    the stub's own namespace, so that nothing of the check stays referenced while the table
    runs."""
    return ("# Written by tapis flash: mount the firmware image, check the signed manifest, then start the table.\n"
            "if __import__('fwimage').mount() and __import__('firmware.verify.manifest').verify.manifest.boot() and %r:\n"
            "    __import__(%r)\n" % (entry or "", entry or "")).encode()


def configuration(game="ecarte", variant=None, options=None, check_minutes=None, text_shoe=False,
                  host_link=None):
    """config.json's bytes: the game, its variant by name (docs/rules.md) and options
    (Options keyword arguments over the variant's: seats, stakes...), and when given the
    software check's interval (firmware/boot/config.py check_ms); text_shoe: a text-dialect
    shoe is taken, unauthenticated (config.text_shoe); host_link "usb": the operator's link,
    keyed, on the USB in place of the console (firmware/operator/usb.py). FlashError names what
    is wrong."""
    from tapis.firmware.games import find
    from tapis.firmware.offboard import named

    try:
        kit = find(game)
        kw = dict(named.variants(game)[variant]) if variant is not None else {}
    except ValueError as e:
        raise FlashError(str(e)) from None
    except KeyError:
        raise FlashError("%s has no variant %r (variants: %s)" % (
            game, variant, ", ".join(sorted(named.variants(game))))) from None
    kw.update(options or {})
    try:
        opts = kit.Options(**kw)
    except (TypeError, ValueError) as e:
        raise FlashError("%s refuses the options %r: %s" % (game, kw, e)) from None
    c = {"v": 1, "game": game, "variant": variant, "options": opts.snapshot()}
    if check_minutes is not None:  # (else none: the bytes of a configuration flashed before)
        c["check_minutes"] = check_minutes
    if text_shoe:
        c["text_shoe"] = True
    if host_link is not None:
        if host_link != "usb":
            raise FlashError("the host link is on the USB (usb) or absent, not %r" % (host_link,))
        c["host_link"] = host_link
    return json.dumps(c, sort_keys=True).encode()


def build_image(entry=DEFAULT_ENTRY, out_dir=None, config=None, extra=None):
    """{board path: bytes} of the code to deploy: the compiled firmware, main.py and the
    configuration (config: config.json's bytes; écarté's defaults if None); extra: more
    files the board runs ({"boot.py": ..., "lib/x.py": ...}), signed with them."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            sizes = compile_firmware(tmp, NOT_DEPLOYED)
        except ImageError as e:
            raise FlashError(str(e)) from None
        modules = {path: (Path(tmp) / path).read_bytes() for path in sizes}
    image = {MOUNTER: modules.pop("firmware/verify/" + MOUNTER), IMAGE[1:]: fwimage.pack(modules)}
    image["main.py"] = boot_stub(entry)
    image["config.json"] = config if config is not None else configuration()
    for path, data in (extra or {}).items():
        if path != "boot.py" and not path.startswith("lib/"):
            raise FlashError("only boot.py and files under lib/ can be added, not %r" % (path,))
        image[path] = data
    if out_dir is not None:
        for path, data in image.items():
            (Path(out_dir) / path).parent.mkdir(parents=True, exist_ok=True)
            (Path(out_dir) / path).write_bytes(data)
    return image


def extra_files(boot_py=None, lib=None):
    """{board path: bytes} of --boot-py FILE and every file under --lib DIR (as lib/...)."""
    out = {}
    try:
        if boot_py:
            out["boot.py"] = Path(boot_py).read_bytes()
        if lib:
            if not Path(lib).is_dir():
                raise FlashError("--lib %s is not a directory" % lib)
            for f in sorted(Path(lib).rglob("*")):
                if f.is_file():
                    out["lib/" + f.relative_to(lib).as_posix()] = f.read_bytes()
    except OSError as e:
        raise FlashError("cannot read %s: %s" % (e.filename, e.strerror)) from None
    return out
