# The lab's software identification (issue 47.5; issue 30.4: GLI's seeded check, and the labs' "software
# verification": the program's identity and a seeded signature a regulator's tool checks).
# Two boards a table may be: one flashed with files (tapis flash: the compiled firmware in
# firmware.img, its mounter, main.py, the signed configuration) and one running the product
# image (tapis image build: MicroPython with the firmware frozen in; tapis flash --image adds
# the configuration). For each, what it runs (the files' SHA-256, the image's and its frozen
# modules'), and for each seed the lab supplies the seeded check's answer, HMAC-SHA256(seed,
# every byte it runs), as host/flash/verify.py computes it and tapis verify compares it with the
# board's (firmware/verify/swcheck.py).
import hashlib
import os
from pathlib import Path

from tapis.firmware.verify import fwimage
from tapis.host.flash import verify


class SeedsError(ValueError):
    """A seeds file that cannot be read or holds something else than seeds."""


def read_seeds(path):
    """The seeds of a file: one 128-bit seed a line as 32 hex digits; blank lines and # comments skipped."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as e:
        raise SeedsError("cannot read %s: %s" % (path, e.strerror or e)) from None
    except UnicodeDecodeError:
        raise SeedsError("%s is not a text file of seeds" % path) from None
    seeds = []
    for n, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            seeds.append(verify.parse_seed(text))
        except ValueError as e:
            raise SeedsError("%s line %d: %s" % (path, n, e)) from None
    if not seeds:
        raise SeedsError("%s holds no seed (one a line, 32 hex digits)" % path)
    return seeds


def fresh_seeds(n=3):
    return [os.urandom(16) for _ in range(n)]


def _sha(b):
    return hashlib.sha256(b).hexdigest()


def files_board(game="ecarte"):
    """What tapis flash writes to a board for `game`: {board path: bytes}."""
    from tapis.host.flash.image import build_image, configuration

    return build_image(config=configuration(game))


def product_image(uf2_path=None, quick=False):
    """(the UF2's bytes, its manifest or None, why not) for the product image: the file given,
    else tapis image build's (cached; the MicroPython source from $TAPIS_MICROPYTHON_SRC; not
    built in --quick)."""
    if uf2_path is not None:
        return Path(uf2_path).read_bytes(), None, None
    if quick:
        return None, None, "not built in --quick (give --image UF2, or run without --quick)"
    from tapis.host.image.build import build
    from tapis.host.image.source import BuildError, SourceError

    try:
        got = build(public_key=_test_key())
    except (SourceError, BuildError, OSError) as e:
        return None, None, "tapis image build could not build it: %s" % e
    return Path(got.pop("path")).read_bytes(), got, None


def _test_key():
    from tapis.host.flash.sign import public_key
    from tapis.simulator.testkey import TEST_SIGNING_SEED

    return public_key(TEST_SIGNING_SEED).hex()


def run(out, seeds, image=None, quick=False, game="ecarte"):
    """The section: {boards: [...]} with each board's identity and answers; raw files under out/identity/."""
    from tapis.host.flash.image import configuration
    from tapis.host.flash.product import files as product_files
    from tapis.host.image.uf2 import region

    raw = out / "identity"
    raw.mkdir(parents=True, exist_ok=True)
    files = files_board(game)
    verify.keep_image(raw / "files-board.image", files)
    modules = {p: _sha(files["firmware.img"][a:b]) for p, (a, b) in sorted(fwimage.index(files["firmware.img"]).items())}
    boards = [{"board": "files (tapis flash)", "files": {p: {"bytes": len(b), "sha256": _sha(b)} for p, b in sorted(files.items())},
               "modules": modules,
               "answers": [{"seed": s.hex(), "answer": verify.expected(files, s).hex()} for s in seeds]}]
    uf2, manifest, why = product_image(image, quick)
    if uf2 is None:
        boards.append({"board": "product image (tapis image build)", "missing": why})
    else:
        pfiles = product_files("firmware.boot.main", configuration(game), None, "firmware.boot.main")
        verify.keep_image(raw / "product-board.image", pfiles, uf2)
        entry = {"board": "product image (tapis image build)", "uf2_sha256": _sha(uf2), "uf2_bytes": len(uf2),
                 "region_sha256": _sha(region(uf2)), "region_bytes": len(region(uf2)),
                 "files": {p: {"bytes": len(b), "sha256": _sha(b)} for p, b in sorted(pfiles.items())},
                 "answers": [{"seed": s.hex(), "answer": verify.expected(pfiles, s, uf2).hex()} for s in seeds]}
        if manifest is not None:
            entry["manifest"] = {k: manifest[k] for k in ("board", "version", "micropython", "image", "baked")}
            entry["modules"] = manifest["frozen"]
        boards.append(entry)
    (raw / "seeds.txt").write_text("".join(s.hex() + "\n" for s in seeds))
    return {"game": game, "seeds": [s.hex() for s in seeds], "boards": boards}
