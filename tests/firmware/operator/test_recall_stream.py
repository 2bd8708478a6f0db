"""A DEALS or RECALL answer streamed (recall._send through link.Delivery.stream): frames made as
the host acknowledges them, a few unacknowledged at a time. Sent at once, a pit's DEALS of a
club table's 11 games (about 200 RECORDs of 900 B) overflowed the link's window of 96: the
board counted the pit dead at each frame past it, the pit's fetch timed out at every round
and stored no deal, and a Pico held 96 such frames for resending (its MemoryError of 918 B)."""
from tapis.firmware import wire as W
from tapis.firmware.journal.writer import KEEP
from tapis.host.memory.games import deal_records
from tapis.host.pit.boardlink import BoardLink
from test_hostlink import wire_host
from test_meters_power import MeteredRig

STREAM = 4  # link.delivery's _STREAM: a stream's frames unacknowledged at most


def club_table():
    """A club table whose journal has compacted games away, a pit's link to it connected, and
    the board's end of that link."""
    t = MeteredRig(3, "club")
    while t.controller.journal.number < KEEP + 4:
        t.step()
    board, port = wire_host(t, t.key)
    link = BoardLink(port=port, key=t.key, step=t.step, name="board-1")
    link.connect()
    return t, board, link


def test_a_deals_answer_many_times_the_window_comes_whole_and_the_pit_is_never_counted_dead():
    t, board, link = club_table()
    most = 0

    def step():
        nonlocal most
        t.step()
        # the answer's frames in flight (a NOTICE of the deals the table plays meanwhile may be too)
        most = max(most, sum(1 for f in board.peers[W.HOST].pending if f[1][3] == W.RECORD))
    link.step = step
    got = link.ask(W.DEALS, bytes(4) + bytes((KEEP + 2,)))
    assert len(got) == KEEP + 1 and len(deal_records(got)) > 50  # (11 games, ~200 frames)
    assert board.stats(W.HOST)["dead"] == 0 and board.stats(W.HOST)["retransmits"] == 0
    assert 0 < most <= STREAM


def test_an_answer_the_journal_compacts_under_ends_as_none_and_the_table_plays_on():
    """The games' inputs are read from flash as their frames go: once the journal compacted
    (its records moved), what is read there is not theirs. The answer ends as none, [0, 0, 0,
    0], as soon as it is seen; the pit asks again at its next round."""
    t, board, link = club_table()
    j, calls = t.controller.journal, 0

    def step():  # the table plays on between the host's polls until its journal compacts
        nonlocal calls
        calls += 1
        t.step()
        if calls == 2:  # (its games were walked for the answer: a new list of where they start)
            starts = j.starts
            while j.starts is starts:
                t.step()
    link.step = step
    assert link.ask(W.DEALS, bytes(4) + bytes((KEEP + 2,))) == []
    assert not [f for f in t.controller.faults if "journal" in f.lower()]
    again = link.ask(W.DEALS, bytes(4) + bytes((KEEP + 2,)))
    assert len(again) == KEEP + 1  # (the pit, silent while the table played a game, was given up
    # on by the board meanwhile: its next word brought the link back)
