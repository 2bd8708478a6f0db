# Reliable delivery's own pieces (firmware/link/delivery.py and its peer.py; the link over it is
# test_link.py's): sequence numbers compared modulo 256 within half the space, as the link
# takes the later of two across the wrap, and a peer that holds only what was set of it.
from hypothesis import given, strategies as st

from tapis.firmware.link.delivery import Delivery, later
from tapis.firmware.link.peer import Peer

seqs = st.integers(0, 255)


def test_the_later_of_two_across_the_wrap():
    assert later(5, 3) == 5 and later(3, 5) == 5
    assert later(1, 255) == 1 and later(255, 1) == 1  # 255, then 0, then 1
    assert later(0, 128) == 128 and later(128, 0) == 0  # half the space apart: the second is taken
    assert later(7, 7) == 7


@given(seqs, st.integers(1, 127))
def test_a_number_up_to_127_ahead_is_later_whichever_side_it_is_given(a, ahead):
    b = (a + ahead) & 255
    assert later(a, b) == b and later(b, a) == b


def test_a_new_peer_holds_its_own_queue_and_errors_and_the_class_defaults_else():
    a, b = Peer(), Peer()
    assert a.pending == [] and a.errors == {} and a.pending is not b.pending
    assert (a.seq, a.rx, a.dead, a.greet, a.stream) == (0, None, False, False, None)
    assert set(vars(a)) == {"pending", "errors"}  # nothing else set: the slots a board keeps free
    a.seq = 9
    assert (a.seq, b.seq, Peer.seq) == (9, 0, 0)
    assert Delivery.PEER is Peer
