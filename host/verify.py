# The seeded software check from the host's side (tapis verify; firmware/verify/swcheck.py is the
# board's): the host keeps every file it flashed (keep_image, at each tapis flash), computes
# HMAC-SHA256(seed, those files) as the board feeds them, and asks the board over the
# supervisor's path (a VERIFY frame on the operator's link, firmware/operator/recall.py) for its own.
# A board that runs the product image (tapis flash --image) runs mostly its frozen code, not
# files: the record keeps the UF2 flashed too (under UF2, no board path), and the answer feeds
# after the files the region the board feeds (host/image_uf2.py's feed, the twin of
# firmware/verify/xip.py's: the same walk to the end the image records).
# A board that answers what the host computes runs, byte for byte, what the host flashed; a
# stored answer is no use against a seed it has not seen.
import os
import time
from pathlib import Path

from tapis.firmware.verify import fwimage
from tapis.firmware import wire as W
from tapis.firmware.verify.swcheck import SEED_BYTES, Hmac, header
from tapis.host import image_uf2

UF2 = "@product.uf2"  # the record's entry for the product image's UF2 (never a board path)


def keep_image(path, image, uf2=None):
    """Save {board path: bytes}, what the manifest lists, packed (firmware/verify/fwimage.py), and
    `uf2`, the product image's UF2 the board runs (None: a stock MicroPython)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(fwimage.pack(dict(image, **{UF2: uf2}) if uf2 is not None else image))
    os.replace(tmp, path)


def load_kept(path):
    """({board path: bytes}, the product image's UF2 or None) as keep_image saved them;
    OSError or ValueError."""
    data = Path(path).read_bytes()
    files = {p: data[a:b] for p, (a, b) in fwimage.index(data).items()}
    return files, files.pop(UF2, None)


def load_image(path):
    """{board path: bytes} as keep_image saved them; OSError or ValueError."""
    return load_kept(path)[0]


def expected(image, seed, uf2=None):
    """HMAC-SHA256(seed, every file of `image`, then the region of the product image's `uf2`
    the board reads, when it runs one): what a board running them answers. UF2Error (a
    ValueError) when the UF2 records no end."""
    h = Hmac(seed)
    for path in sorted(image):
        h.update(header(path, len(image[path])))
        h.update(image[path])
    if uf2 is not None:
        image_uf2.feed(h, uf2)
    return h.digest()


def parse_seed(text):
    """The seed from 32 hex digits (128 bits); ValueError saying what is wrong."""
    t = text.strip().lower()
    if t.startswith("0x"):
        t = t[2:]
    if len(t) != 2 * SEED_BYTES or any(c not in "0123456789abcdef" for c in t):
        raise ValueError("a seed is %d hex digits (128 bits), got %r" % (2 * SEED_BYTES, text))
    return bytes.fromhex(t)


def ask(port, seed, step=None, timeout=10.0, key=None, heard=None):
    """VERIFY [seed] to the table on `port` (read()/write()); `step()` lets an in-process
    table run between polls. Returns (answer: 32 bytes or None, device id, why when None);
    heard["counter"]: what the board said of its monotonic counter (counter_value reads it)."""
    from tapis.host.operator_link import open_link
    link = open_link(port, b"tapis-verify", key, timeout)
    link.send(W.HOST, W.VERIFY, seed)
    deadline = time.monotonic() + timeout
    ms = 0
    while time.monotonic() < deadline:
        ms += 1
        for _a, _s, ftype, payload in link.poll(ms):
            if ftype == W.CHECKED and payload:
                payload = bytes(payload)
                link.poll(ms + 1)  # acknowledge it
                if payload[0] == 0 and len(payload) >= 33:
                    ident, _, said = payload[33:].partition(b"\0")  # (a board before issue 44: no counter said)
                    if heard is not None:
                        heard["counter"] = said.decode("utf-8", "replace") or None
                    return payload[1:33], ident.decode("utf-8", "replace"), None
                return None, "", payload[1:].decode("utf-8", "replace")
        if step is not None:
            step()
        else:
            time.sleep(0.001)
    raise TimeoutError("no answer from the table in %.1f s" % timeout)


def counter_value(said):
    """The value in a board's words of its monotonic counter (link/counter.said), else None."""
    head = "monotonic counter "
    if said and said.startswith(head) and said[len(head):].isdigit():
        return int(said[len(head):])
    return None
