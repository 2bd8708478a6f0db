# The shoe's fault codes the 32-card games read alike (firmware/games/faults.py): each FAULT
# payload of the wire (wire.py's letters) as the rules' chance action, and a payload malformed
# or of a fault a game reads itself (a short pack, a deal out of turn) as None.
import pytest

from tapis.firmware import wire as W
from tapis.firmware.games.faults import shoe_fault
from tapis.firmware.games.rules import CHANCE


def test_a_card_not_read_face_up_or_two_at_once_is_the_rules_action():
    assert shoe_fault(bytes([W.UNREAD])) == ("unread", CHANCE, None)
    assert shoe_fault(bytes([W.FACE_UP, 0x39])) == ("exposed", CHANCE, 0x39)
    assert shoe_fault(bytes([W.DOUBLE, 0x39, 0x0A])) == ("double feed", CHANCE, (0x39, 0x0A))


@pytest.mark.parametrize("code", [b"", bytes([W.FACE_UP]), bytes([W.FACE_UP, 1, 2]), bytes([W.DOUBLE, 0x39]),
                                  bytes([W.DOUBLE, 1, 2, 3]), b"?", b"\xff\x01"])
def test_a_malformed_or_unknown_payload_is_no_action(code):
    assert shoe_fault(code) is None
