"""A host tool's link is as patient as the tool (issue 31): a board acknowledges a question
only at its poll after it answered it, and a long answer (the pit's DEALS) may take it
longer than the link's own resends, 40 ms apart, six times. The host's end then gave the
board up, ended its session and refused the answer's frames, sealed in that session, as
forged: on the emulated Pico of a loaded machine the pit never stored a deal. Here a board
that answers only every half second of wall time (a slow chip) is asked by the pit's
BoardLink with its default wait (5 s): one session, nothing refused, the answer whole."""
import time

from tapis.firmware import wire as W
from tapis.host.pit.boardlink import BoardLink
from test_hostlink import wire_host
from test_tilts import play, rig, step


def slow(t, every=10, pause=0.05):
    """t.step, the table run only at every `every`-th call, each call `pause` s of wall time."""
    calls = [0]

    def run():
        calls[0] += 1
        time.sleep(pause)
        if calls[0] % every == 0:
            t.step()
    return run


def test_a_slow_board_keeps_its_session_and_its_answer_is_taken():
    t = rig()
    step(t, 1000)
    play(t, 1)
    board, port = wire_host(t, t.key)
    link = BoardLink(port=port, key=t.key, step=slow(t), name="board-1")
    got = link.connect()  # DEALS (a game's JSON in RECORD frames), then SUBSCRIBE
    assert got["game"] == "ecarte" and link.noticed
    host = link.link.peers[W.HOST]
    assert "dead" not in host.errors and link.link.forged == 0, host.errors
    assert board.forged == 0


def test_the_link_gives_the_board_up_only_once_the_tool_would():
    from tapis.host.operator_link import patience
    for timeout in (0.5, 5.0, 10.0, 120.0):
        rto, retries = patience(timeout)
        assert 40 <= rto <= 1000 and retries >= 6
        assert rto * (retries + 1) >= timeout * 1000 > rto * retries - 1000


def tools():
    """Each host tool's question over --port, as its command asks it, and a table that has
    what it asks for: (name, table, ask(port, step, timeout, key))."""
    from test_meters_power import MeteredRig
    from tapis.host.memory import events as events_read
    from tapis.host.flash import verify
    from tapis.host.commands import meters, recall
    return [("events", rig, lambda p, s, w, k: events_read.fetch(p, timeout=w, step=s, key=k)),
            ("meters", lambda: MeteredRig(3), lambda p, s, w, k: meters.fetch(p, step=s, timeout=w, key=k)),
            ("recall", rig, lambda p, s, w, k: recall.fetch(p, 1, step=s, timeout=w, key=k)),
            ("verify", rig, lambda p, s, w, k: verify.ask(p, bytes(16), step=s, timeout=w, key=k)[2])]  # (its answer: no image here)


def test_each_host_tool_keeps_its_session_with_a_slow_board(monkeypatch):
    """tapis events, meters, recall and verify over --port, each as patient as its --timeout.
    With the link's own 6 resends 40 ms apart, each gave up on a board that acts only every
    400th poll: its session died 3 times, a frame of the answer was refused as forged, and
    recall's 10 s went by with no complete answer."""
    from tapis.host import operator_link
    real, links = operator_link.open_link, []

    def spy(*a, **kw):
        links.append(real(*a, **kw))
        return links[-1]
    monkeypatch.setattr(operator_link, "open_link", spy)
    for name, table, ask in tools():
        t = table()
        step(t, 1000)
        play(t, 1)
        board, port = wire_host(t, t.key)
        assert ask(port, slow(t, every=400, pause=0), 10.0, t.key), name
        errors = links[-1].peers[W.HOST].errors
        assert "dead" not in errors and links[-1].forged == 0 and board.forged == 0, (name, errors)
