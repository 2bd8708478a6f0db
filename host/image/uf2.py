# The product image's bytes as a board will read them, from its UF2 (issue 32): the flash a
# UF2 writes, and the region firmware/verify/xip.py hashes on the board (its end from the image's
# own binary info, walked by the same code), so that the host signs the SHA-256 the board
# will compute.
import hashlib
import struct

from tapis.firmware.verify import xip

MAGIC = (0x0A324655, 0x9E5D5157)
END_MAGIC = 0x0AB16F30
FAMILY_RP2040 = 0xE48BFF56
BOOTSEL_INFO = "INFO_UF2.TXT"  # the file a Pico's BOOTSEL drive holds (Board-ID: RPI-RP2)


class UF2Error(ValueError):
    """Not a UF2 image of an RP2040 program in flash, from 0x10000000 without gaps."""


def flash(uf2):
    """The flash bytes a UF2 writes from xip.BASE (its RP2040 flash blocks, in address order,
    without gaps)."""
    blocks = {}
    for off in range(0, len(uf2) - 511, 512):
        m0, m1, flags, addr, size = struct.unpack_from("<IIIII", uf2, off)
        family = struct.unpack_from("<I", uf2, off + 28)[0]
        if (m0, m1) != MAGIC or struct.unpack_from("<I", uf2, off + 508)[0] != END_MAGIC:
            raise UF2Error("not a UF2 image: bad magic in the block at byte %d" % off)
        if flags & 1 or (flags & 0x2000 and family != FAMILY_RP2040):
            continue  # not main flash, or another chip's block
        blocks[addr] = uf2[off + 32:off + 32 + size]
    if not blocks:
        raise UF2Error("the UF2 image has no RP2040 flash blocks")
    out, at = bytearray(), xip.BASE
    for addr in sorted(blocks):
        if addr != at:
            raise UF2Error("the UF2 image does not cover the flash from 0x%08x without gaps (a block at 0x%08x)"
                           % (at, addr))
        out += blocks[addr]
        at += len(blocks[addr])
    return bytes(out)


def region(uf2):
    """The image's bytes as firmware/verify/xip.py hashes them on the board: from xip.BASE to the
    end its binary info records."""
    data = flash(uf2)
    try:
        end = xip.walk(lambda a: struct.unpack_from("<I", data, a - xip.BASE)[0], xip.BASE + len(data))
    except (ValueError, struct.error) as e:
        raise UF2Error("the UF2 image: %s" % e) from None
    return data[:end - xip.BASE]


def feed(h, uf2, piece=xip.PIECE):
    """The host's twin of xip.feed: the region fed into h in the same pieces; its length."""
    data = region(uf2)
    for at in range(0, len(data), piece):
        h.update(data[at:at + piece])
    return len(data)


def whole(uf2):
    """The manifest's "image" entry for this UF2: {"sha256": hex, "bytes": n}."""
    h = hashlib.sha256()
    n = feed(h, uf2)
    return {"sha256": h.hexdigest(), "bytes": n}



def is_product(uf2):
    """Was this UF2 built by tapis image build (its frozen modules name tapis_image)?"""
    try:
        return b"tapis_image.py\0" in flash(uf2)
    except UF2Error:
        return False
