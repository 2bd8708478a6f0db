# The product image as the board reads it (issue 32): its bytes in the RP2040's XIP flash
# address space, from 0x10000000 to the end the image itself records. A UF2 dragged on a Pico
# writes only the sectors it covers, so what lies past an image is whatever was there before
# (an older, longer image's tail): the end must come from the image, not from the flash.
# pico-sdk records it in the image's binary info (picotool reads the same): a header in the
# first 256 bytes after boot2, two markers around the bounds of a table of pointers to
# entries, one of which is (ID_AND_INT, 'RP', BINARY_END, end). walk() finds it through any
# read32, so that the host (reading a UF2, host/image/uf2.py) and the board (reading its
# flash) run the same code and agree on the region they hash.
#
# feed(h) is the board's: it feeds the region into a hash object in pieces (hashlib.sha256,
# or the seeded HMAC of "A certifiable table": firmware/operator/recall.py's VERIFY, after the files);
# sha256(hashlib) is the whole-image hash that the signed manifest's "image" entry holds
# (firmware/verify/manifest.py), which swcheck.Periodic hashes again, a view() a piece.
BASE = 0x10000000
_HEADER = (0x10000100, 0x10000200)  # where pico-sdk puts the binary info header
_START, _END = 0x7188EBF2, 0xE71AA390  # its markers
_ID_AND_INT, _TAG_RP, _BINARY_END = 5, 0x5052, 0x68F465DE
PIECE = 4096


def walk(read32, limit):
    """The image's end address (its binary info's BINARY_END) through read32(address), the
    addresses below `limit`; ValueError when the image does not record it."""
    for at in range(_HEADER[0], _HEADER[1], 4):
        if read32(at) == _START and read32(at + 16) == _END:
            first, last = read32(at + 4), read32(at + 8)
            if not (BASE <= first <= last <= limit):
                break
            for p in range(first, last, 4):
                entry = read32(p)
                if not entry & 3 and BASE <= entry <= limit - 12 and read32(entry) == _ID_AND_INT | _TAG_RP << 16 \
                        and read32(entry + 4) == _BINARY_END:
                    end = read32(entry + 8)
                    if BASE < end <= limit:
                        return end
            break
    raise ValueError("the flash holds no image with its end recorded (pico-sdk's binary info)")


def end(limit=BASE + 2 * 1024 * 1024):
    """The end address of the image this board runs (its words read through one view of the
    flash: 6 ms on the Pico, against 110 ms through machine.mem32, a word an import)."""
    from struct import unpack_from

    flash = view(BASE, limit - BASE)
    return walk(lambda address: unpack_from("<I", flash, address - BASE)[0], limit)


def view(at, n):
    """n bytes of the flash from address `at`, as the board reads them (a view, no copy)."""
    import uctypes  # type: ignore  # (only on a board: the host reads a UF2)

    return uctypes.bytearray_at(at, n)


def feed(h, piece=PIECE, fed=None):
    """Feed the running image's bytes, as the board reads them, into `h` (h.update) in
    pieces of `piece` bytes, fed() (the watchdog's) between them; the number of bytes fed.
    (The seeded check's source for a product image's frozen code: firmware/operator/recall.py hands
    it to swcheck.answer.)"""
    stop = end()
    for at in range(BASE, stop, piece):
        h.update(view(at, min(piece, stop - at)))
        if fed is not None:
            fed()
    return stop - BASE


def sha256(hashlib):
    """(hex SHA-256 of the running image, its length in bytes); hashlib handed in (the check's
    own, imported with the filesystem off the path: firmware/verify/wots.py)."""
    from binascii import hexlify

    h = hashlib.sha256()
    n = feed(h)
    return hexlify(h.digest()).decode(), n
