# Checking a flashed board against the host's record (host/flash/steps.py's --verify, `tapis flash
# --check`): its public key, the manifest's signature and version, every file's hash read back,
# and the board's own boot check.
import ast
import hashlib
import json

from tapis.firmware.verify import wots as S
from tapis.host.flash.board import RAW_REPL_WAIT, board_version, connect, device_id, exec_ok
from tapis.host.errors import FlashError
from tapis.host.flash.files import board_hashes
from tapis.host.keys import sign_path
from tapis.host.flash.sign import Signer


def verify(url, key_file=None, wait=RAW_REPL_WAIT):
    """Read the board's manifest and hashes back and check them under the host's key,
    without deploying (wait: the seconds the board may take to answer, board.connect's).
    Returns a summary dict; raises FlashError on any mismatch."""
    t = connect(url, wait)
    try:
        device = device_id(t)
        if not device:
            raise FlashError("the board has no device id: it was never flashed by tapis")
        n = check_board(t, device, key_file, None)
        return {"device": device, "files": n, "micropython": ".".join(map(str, board_version(t)[0])),
                "verified": True}
    finally:
        t.exit_raw_repl()
        t.close()


def check_board(t, device, key_file, image, whole=None):
    """Check that the board's public key is the host's for this device, the manifest's
    signature under it, that the manifest names the device and is the newest version the
    host signed for it (the host's record of versions is the floor an offline editor of the
    board cannot lower), every file's hash, and the board's own boot check; `image` (when given) is what was just deployed. Returns the
    number of files. A product image's manifest (version 3) signs the image too: the board's
    check hashes it as it reads it (whole: the UF2's entry just deployed)."""
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
    if whole is not None and m.get("image") != whole:
        raise FlashError("the board's manifest does not sign the image just deployed")
    hashes = board_hashes(t, files)
    bad = sorted(p for p in files if hashes.get(p) != files[p])
    if bad:
        raise FlashError("hash read back differs from the manifest: %s" % ", ".join(bad))
    ok = exec_ok(t, BOARD_CHECK[m.get("v") == 3]).strip()
    verdict = ast.literal_eval(ok)
    if not verdict[0]:
        raise FlashError("the board refuses its code: %s" % verdict[1])
    return len(files)


# The board's own check, as its boot runs it: the stock image's (the firmware image mounted),
# the product image's (under the public key baked into it, the image hashed as read).
BOARD_CHECK = ("import fwimage\nfwimage.mount()\nfrom firmware.verify.manifest import check\nprint(repr(check()))",
               "import tapis_image\nfrom firmware.verify.manifest import check\n"
               "print(repr(check('/', tapis_image.PUBLIC_KEY, True)))")
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
