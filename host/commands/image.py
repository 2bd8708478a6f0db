# `tapis image build`: the product image (issue 32), MicroPython built from its source with the
# firmware frozen in (host/image/build.py). Missing source or tools exit 2 saying where to get
# them; a build step that fails exits 1 with the end of its log.
import json
import os
import sys

from tapis.host.image.source import MICROPYTHON_ENV, PICOTOOL_ENV


def register(sub):
    p = sub.add_parser("image", help="build the product image: MicroPython with the firmware frozen in",
                       description="A product ships one image: MicroPython built from source for the "
                       "board with the firmware frozen into it (its bytecode runs from flash), the signing "
                       "public key and the configuration format baked in.")
    sp = p.add_subparsers(dest="action", metavar="ACTION")
    sp.required = True
    b = sp.add_parser("build", help="build the RPI_PICO image: a UF2 and its JSON manifest",
                      description="Builds MicroPython v1.27.0 for the Raspberry Pi Pico (RPI_PICO) with "
                      "the firmware package frozen in, and writes tapis-RPI_PICO-firmware.uf2 and "
                      "tapis-RPI_PICO-manifest.json (schema tapis.image/1: the source's commit or archive "
                      "SHA-256, the image's SHA-256 and each frozen module's) to --out. Builds are cached "
                      "(under ~/.cache/tapis/image); the same inputs give the same bytes. Needs Debian's "
                      "gcc-arm-none-eabi, libnewlib-arm-none-eabi and cmake.")
    b.add_argument("--source", help="MicroPython's source: a v1.27.0 checkout with its rp2 submodules, or "
                   "a .tar.gz of one (default: $%s)" % MICROPYTHON_ENV)
    b.add_argument("--picotool", help="picotool 2.1.1's source, a checkout or a .tar.gz (default: $%s, else "
                   "a picotool checkout or picotool*.tar.gz beside MicroPython's source)" % PICOTOOL_ENV)
    key = b.add_mutually_exclusive_group()
    key.add_argument("--device", help="bake in this device's signing public key (the host's <device>.sign, "
                     "made by its first tapis flash)")
    key.add_argument("--public-key", help="bake in this public key (64 hex digits)")
    key.add_argument("--test-key", action="store_true", help="bake in the emulated boards' public test "
                     "signing key (tapis table --board pico --image; a real table refuses it): the default "
                     "when no key option is given")
    b.add_argument("--key-file", help="the device key file whose signing key (beside it, .sign) is baked in; "
                   "made when there is none, as tapis flash makes it (with --device: if not in the key folder)")
    b.add_argument("--out", default=".", help="the folder to write the image and manifest to (default: here)")
    b.add_argument("--json", action="store_true", help="print the manifest as one JSON object")
    b.set_defaults(func=build, parser=b)


def build(args):
    from tapis.host.errors import FlashError
    from tapis.host.image.build import build as build_image
    from tapis.host.image.source import BuildError, SourceError, given_path

    from tapis.host.image.build import BUILD_STEPS
    from tapis.host.progress import progress

    args.key_default = not (args.device or args.public_key or args.test_key or args.key_file)
    try:  # what was given, checked before anything is made (a key, the cache, --out)
        makes_a_key = bool(args.device or args.key_file)  # (made when there is none: last)
        public = None if makes_a_key else public_key_of(args)
        mp = given_path(args.source, MICROPYTHON_ENV, "ports/rp2/Makefile")
        picotool = given_path(_picotool(args.picotool, mp), PICOTOOL_ENV, "CMakeLists.txt")
        _check_out(args.out)
        if makes_a_key:
            public = public_key_of(args)
        with progress(BUILD_STEPS, "steps", quiet=args.json) as advance:
            got = build_image(str(mp), str(picotool), public_key=public, out=args.out, on_step=advance)
    except (SourceError, FlashError) as e:
        sys.stderr.write("tapis image build: %s\n" % e)
        return 2
    except BuildError as e:
        sys.stderr.write("tapis image build: %s\n" % e)
        return 1
    got.pop("path")
    if args.json:
        print(json.dumps(got, sort_keys=True))
        return 0
    print("%s: %d bytes, sha256 %s, %d frozen modules, public key %s"
          % (args.out.rstrip("/") + "/tapis-RPI_PICO-firmware.uf2", got["image"]["bytes"], got["image"]["sha256"],
             len(got["frozen"]), got["baked"]["public_key"]))
    if args.key_default or args.test_key:
        print("the emulated boards' test key is baked in: tapis table --board pico --image takes it; a real "
              "table refuses it (build its image with --device or --key-file)")
    return 0


def _picotool(given, mp):
    """picotool's source as MicroPython's is found: given, else $TAPIS_PICOTOOL_SRC, else beside
    MicroPython's (a picotool checkout, or a picotool*.tar.gz, in the same folder)."""
    if given is not None or os.environ.get(PICOTOOL_ENV):
        return given
    folder = mp.parent
    found = [folder / "picotool"] if (folder / "picotool").is_dir() else sorted(folder.glob("picotool*.tar.gz"))
    return str(found[-1]) if found else None


def _check_out(out):
    from tapis.host.errors import FlashError

    if not out.strip() or (os.path.exists(out) and not os.path.isdir(out)):
        raise FlashError("--out %r: give a folder to write the image to" % out)
    if not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        raise FlashError("--out %r: no folder %s to make it in" % (out, os.path.dirname(os.path.abspath(out))))


def public_key_of(args):
    from tapis.host.errors import FlashError

    if args.public_key is not None:
        try:
            if len(bytes.fromhex(args.public_key)) == 32:
                return args.public_key.lower()
        except ValueError:
            pass
        raise FlashError("--public-key is not 64 hex digits")
    if getattr(args, "test_key", False):
        from tapis.host.flash.sign import public_key
        from tapis.simulator.testkey import TEST_SIGNING_SEED

        return public_key(TEST_SIGNING_SEED).hex()
    for option, given in (("--device", args.device), ("--key-file", getattr(args, "key_file", None))):
        if given is not None and (not given.strip() or os.path.isdir(given)):
            raise FlashError("%s %r: give a device name or a key file, not %s" % (
                option, given, "a folder" if given.strip() else "nothing"))
    if args.key_file is not None and not os.path.isdir(os.path.dirname(os.path.abspath(args.key_file))):
        raise FlashError("--key-file %s: no folder %s" % (args.key_file, os.path.dirname(os.path.abspath(args.key_file))))
    if args.device or getattr(args, "key_file", None):
        from tapis.host.keys import sign_path
        from tapis.host.flash.sign import Signer

        # made here when the device has none yet: the image is built before its first flash
        return Signer.provision(sign_path(args.device, args.key_file)).public.hex()
    if getattr(args, "key_default", False):  # image build with no key option: the emulated boards'
        args.test_key = True
        return public_key_of(args)
    return None
