import pytest
from hypothesis import given, strategies as st

from tapis.firmware import wire as W

from tapis.firmware.link import frames as F

frames = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255),
                   st.binary(max_size=300))


def test_crc_is_ccitt_false_and_both_paths_agree():
    assert F.crc16_table(b"123456789") == 0x29B1
    assert F.crc16(b"123456789", 0xFFFF) == 0x29B1


@given(st.binary(max_size=200))
def test_table_crc_matches_the_platform_crc(data):
    assert F.crc16_table(data) == F.crc16(data, 0xFFFF)


@pytest.mark.parametrize("frame, text", [  # the examples in docs/protocol.md
    ((0x10, 1, W.CARD, b"\x1b"), "A5 10 01 10 00 01 1B 35 09"),
    ((0x10, 2, W.DRAW, b"\x0b"), "A5 10 02 12 00 01 0B 24 82"),
    ((0x21, 7, W.BUTTON, b"\x05\x03"), "A5 21 07 20 00 02 05 03 46 5A"),
])
def test_byte_level_examples(frame, text):
    f = F.encode(*frame)
    assert f.hex(" ").upper() == text
    assert F.decode(f) == frame


@given(frames)
def test_round_trip(frame):
    addr, seq, ftype, payload = frame
    assert F.decode(F.encode(addr, seq, ftype, payload)) == frame


@given(st.lists(frames, max_size=6), st.integers(1, 7))
def test_a_stream_decodes_whole_in_any_chunking(fs, chunk):
    data = b"".join(F.encode(*f) for f in fs)
    d = F.Decoder()
    got = []
    for i in range(0, len(data), chunk):
        got.extend(d.feed(data[i:i + chunk]))
    assert got == fs and d.errors == 0


@given(frames, st.data())
def test_corrupt_frames_are_rejected(frame, data):
    raw = bytearray(F.encode(*frame))
    i = data.draw(st.integers(1, len(raw) - 1))  # any byte after the start byte
    raw[i] ^= 1 << data.draw(st.integers(0, 7))
    d = F.Decoder()
    got = d.feed(bytes(raw))
    assert frame not in got
    with pytest.raises(F.FrameError):
        F.decode(bytes(raw))


@given(frames, st.binary(max_size=40))
def test_the_decoder_resynchronises_after_garbage(frame, junk):
    # Garbage may look like the start of a long frame and swallow what follows; by
    # MAX_PAYLOAD bytes later that false frame fails its CRC and the next real one decodes.
    d = F.Decoder()
    good = F.encode(*frame)
    got = d.feed(junk + good) + d.feed(bytes(W.MAX_PAYLOAD + 8) + good)
    assert got[-1] == frame


@pytest.mark.parametrize("args", [(256, 0, 0), (0, -1, 0), (0, 0, 300)])
def test_encode_refuses_values_that_are_not_bytes(args):
    with pytest.raises(F.FrameError):
        F.encode(*args)


def test_encode_refuses_oversized_payloads():
    with pytest.raises(F.FrameError, match="exceeds"):
        F.encode(1, 1, 1, bytes(W.MAX_PAYLOAD + 1))
