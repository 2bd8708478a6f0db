"""docs/protocol.md, "The host interface": each frame shown there built with firmware/link/frames.py
(the sealed one by firmware/link/link.py in a session) and compared with the bytes in the doc."""
import os
import re

from tapis.firmware.link import frames as F
from tapis.firmware import wire as W
from tapis.firmware.link.hello import begin, pair_key
from tapis.firmware.link.link import Link
from tapis.simulator.table.pipes import pipe

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "protocol.md")

FRAMES = {
    "DEALS": (W.HOST, 1, W.DEALS, bytes.fromhex("0000000C01")),
    "RECORD": (W.HOST, 5, W.RECORD, bytes((0, 1, 0, 1)) + b'{"game": "ecarte"}'),
    "SUBSCRIBE": (W.HOST, 2, W.SUBSCRIBE, b"\x01"),
    "NOTICE": (W.HOST, 6, W.NOTICE, bytes.fromhex("0000000D0000000500")),
    "DISABLE": (W.HOST, 3, W.BUTTON, b"\x05\x02"),
    "ENABLE": (W.HOST, 4, W.BUTTON, b"\x05\x03"),
}


def shown():
    """{name: bytes} of the section's example lines."""
    text = open(DOC).read()
    part = text[text.index("## The host interface"):]
    part = part[:part.index("\n## ", 10)]
    return {m.group(1): bytes.fromhex(m.group(2)) for m in
            re.finditer(r"^    ([A-Z]+) +(A5(?: [0-9A-F]{2})+)$", part, re.M)}


def sealed():
    """The DEALS as a host in a session sends it (session key 32 bytes 00, its first frame)."""
    a, _b = pipe()
    link = Link(a, W.DEV_HOST, b"tapis-pit", keys={W.HOST: pair_key(bytes(32), W.DEV_HOST, W.HOST, b"tapis-pit")})
    begin(link.peer(W.HOST), bytes(32))
    return bytes(link.seal(bytearray(F.encode(*FRAMES["DEALS"]))))


def test_every_host_interface_frame_in_the_doc_is_what_the_code_builds():
    doc = shown()
    assert set(doc) == set(FRAMES) | {"SEALED"}
    for name, f in FRAMES.items():
        assert F.encode(*f) == doc[name], name
        assert F.decode(doc[name]) == f
    assert sealed() == doc["SEALED"]


def test_the_sealed_frame_opens_at_the_boards_end_only_under_the_session_key():
    """The board's end (keyed with the device key, as hostlink.board_end) takes it in a
    session of that key, and refuses it in another."""
    from tapis.firmware.operator.hostlink import board_end
    for sk, ok in ((bytes(32), True), (b"\1" * 32, False)):
        a, _b = pipe()
        board = board_end(a, bytes(32))
        begin(board.peer(W.HOST), sk)
        out = []
        f = F.decode(sealed())
        board.take(f[0], f[1], f[2], f[3], out)
        assert (board.forged == 0) == ok
