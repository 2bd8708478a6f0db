# Software checks while running (SPEC §10, issue 30 point 4; AGCO 22.1.1; GLI's seeded
# check, SAS's ROM-signature poll): the boot check is manifest.py's. Out of the board's
# heap until a check runs: recall.py loads it for a VERIFY, main.py every N minutes
# between deals (N: config.check_ms), and each unloads it after.
#
# What the board runs: the files its signed manifest lists (main.py, fwimage.mpy,
# firmware.img, config.json, boot.py and lib/** when flashed), in the order of their paths,
# each fed as  path, 0x00, its length (4 bytes, big-endian), its bytes  so that no two
# sets of files feed the same bytes. The signed configuration is one of them. A product
# image's frozen code is one more source (its manifest, version 3, signs an "image": image()):
# xip.feed, the image's bytes from 0x10000000 to the end it records, handed in `more` after
# the files (recall.py; the host feeds the same region of the UF2 it flashed).
#
#   answer(seed)  HMAC-SHA256(seed, every byte the board runs): a seed the board cannot
#                 know before it is asked, so no stored answer can be replayed
#   Periodic      the files' SHA-256 against the manifest's, one piece a call (the
#                 watchdog is fed between pieces), then a product image's against its
#                 "image" entry (xip.py's region, a piece a call too), and the manifest
#                 against the one the boot check verified (pinned()); tick() begins it at a
#                 point between deals (a fresh pack due: each deal in écarté and piquet,
#                 each shoe in club)
#   note()        a result to the event log (Controller.event), a failure a tilt (Controller.tilt)
#                 (packcount.py's as well); seeded(): a seeded check's, once for one request
# The host computes the same answer from the files it flashed (host/flash/verify.py).
import json
from hashlib import sha256

from ..compat import const
from ..mac import pads
from ..games.rules import CHANCE

_CHUNK = const(512)  # bytes hashed a piece: about 1 ms on a Pico
SEED_BYTES = const(16)  # a 128-bit seed
MANIFEST = "manifest.json"


def _manifest(root):
    with open(root + MANIFEST) as f:
        return json.loads(f.read())


def listed(root="/"):
    """The paths the manifest lists, sorted, with their SHA-256 (hex); OSError or
    ValueError if there is no readable manifest."""
    return sorted(_manifest(root)["files"].items())


def image(root="/"):
    """The manifest's "image" entry ({"sha256", "bytes"}) when the board runs a product image
    (a version 3 manifest: the boot check refused any other, firmware/boot/start.py), else None."""
    m = _manifest(root)
    return m["image"] if m.get("v") == 3 else None


def header(path, size):
    """What goes before a file's bytes (the host's feed is the same)."""
    return path.encode() + b"\0" + bytes((size >> 24 & 255, size >> 16 & 255, size >> 8 & 255, size & 255))


def feed(h, root="/"):
    """Every byte the board runs into `h` (anything with update()), one piece at a time."""
    buf = bytearray(_CHUNK)
    for path, _sha in listed(root):
        with open(root + path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(0)
            h.update(header(path, size))
            while True:
                n = f.readinto(buf)
                if not n:
                    break
                h.update(buf if n == _CHUNK else buf[:n])


class Hmac:
    """HMAC-SHA256 fed in pieces (mac.py's keyed() takes its message at once)."""

    def __init__(self, key):
        self.p = pads(key)
        self.inner = sha256(self.p[0])

    def update(self, data):
        self.inner.update(data)

    def digest(self):
        outer = sha256(self.p[1])
        outer.update(self.inner.digest())
        return outer.digest()


def answer(seed, root="/", more=()):
    """HMAC-SHA256(seed, every byte the board runs) as 32 bytes; `more`: further sources,
    each a function feed(h) (a product image's frozen code). OSError or ValueError when the
    board has no manifest to say what it runs."""
    if len(seed) != SEED_BYTES:
        raise ValueError("a seed is %d bytes, not %d" % (SEED_BYTES, len(seed)))
    h = Hmac(seed)
    feed(h, root)
    for f in more:
        f(h)
    return h.digest()


def pinned(root="/"):
    """The manifest's SHA-256 as it is now: main.py takes it right after the boot check
    verified the manifest's signature, and each Periodic check compares it (b"" if there
    is none: each check fails, and says why)."""
    h = sha256()
    try:
        with open(root + MANIFEST, "rb") as f:
            h.update(f.read())
    except OSError:
        return b""
    return h.digest()


class Periodic:
    """A check in pieces: step() hashes one piece and returns None, until it returns
    (ok, detail). A file missing or changed, or a manifest that is not the one verified at
    boot, is a failure."""

    def __init__(self, pin, root="/"):
        self.root, self.files, self.f, self.h = root, None, None, sha256()
        self.pin, self.n, self.image, self.at = pin, 0, None, None
        self.buf = bytearray(_CHUNK)

    def step(self):
        try:
            if self.files is None:
                if pinned(self.root) != self.pin:
                    return False, "the manifest is not the one verified at boot"
                self.files, self.image = listed(self.root), image(self.root)
            if self.f is None:
                if self.n == len(self.files):
                    return self.whole()
                self.f = open(self.root + self.files[self.n][0], "rb")
                self.h = sha256()
            n = self.f.readinto(self.buf)
            if n:
                self.h.update(self.buf if n == _CHUNK else self.buf[:n])
                return None
            self.close()
            path, want = self.files[self.n]
            got = _hex(self.h.digest())
            if got != want:
                return False, "%s was modified (sha256 %s, manifest %s)" % (path, got[:16], want[:16])
            self.n += 1
            return None
        except (OSError, ValueError, KeyError, TypeError, ImportError, AttributeError) as e:
            self.close()
            return False, "cannot check: %r" % (e,)

    def whole(self):
        """After the files: a product image's bytes a piece a call (xip.py's region, as the
        boot check hashed it; None until the last), then the verdict."""
        what = "%d files" % self.n
        if self.image is not None:
            from . import xip  # (unloaded with this module: main.py)

            if self.at is None:
                self.at, self.stop, self.h = xip.BASE, xip.end(), sha256()
            if self.at < self.stop:
                n = min(_CHUNK, self.stop - self.at)
                self.h.update(xip.view(self.at, n))
                self.at += n
                return None
            got, n = _hex(self.h.digest()), self.stop - xip.BASE
            if (got, n) != (self.image.get("sha256"), self.image.get("bytes")):
                return False, "the image was modified (sha256 %s, %d bytes; manifest %s, %r bytes)" % (
                    got[:16], n, str(self.image.get("sha256"))[:16], self.image.get("bytes"))
            what = "the image (%d bytes) and %s" % (n, what)
        return True, "%s match the signed manifest" % what

    def close(self):
        if self.f is not None:
            self.f.close()
            self.f = None


def _hex(digest):
    return "".join("%02x" % b for b in digest)


def note(ctrl, detail, tilt=False):
    """A check's result to the event log (Controller.event): a check passed, or a
    check-failed tilt, which locks the table until the supervisor clears it (eventlog/log.py
    LOCKS)."""
    if tilt:
        ctrl.tilt("check-failed", detail)
    else:
        ctrl.event("check-passed", detail)


def seeded(ctrl, detail, failed=False):
    """A seeded check's result (recall.verify's) to the event log, unless the last seeded
    check the log holds is this one: the same device, seed and answer. One request, one
    entry: a device that re-sends its VERIFY to a board rebooted since (its journal does
    not show the frame taken, so the device's link sends it again) is answered again
    without a second entry (nor a second lock). A lab sends a fresh seed each check."""
    cls = "check-failed" if failed else "check-passed"
    if ctrl.events is not None:
        from ..eventlog.log import EventLog
        log = EventLog(None, parked=ctrl.events)
        last = None
        for _off, rec in log.walk(False, None, lambda b: b"seeded check by" in b):
            if rec is not None and rec.get("k") == "e" and rec["d"].startswith("seeded check by"):
                last = rec
        st = log.store
        if st is not None:
            st.close()  # (the file read_at keeps open)
        if last is not None and last["c"] == cls and last["d"] == detail:
            return
    note(ctrl, detail, failed)


def tick(ctrl, check, pin):
    """A turn of the board's loop once the periodic check is due (main.py): None while it
    waits for a point between deals (a fresh pack due), then the Periodic check, a piece a
    call; False once its result went to the controller (a failure tilts)."""
    if check is None:
        g = ctrl.game
        return Periodic(pin, ctrl.root) if g.to_act == CHANCE and g.cards_due()[1] else None
    r = check.step()
    if r is None:
        return check
    note(ctrl, ("passed: " if r[0] else "failed: ") + r[1], not r[0])
    return False
