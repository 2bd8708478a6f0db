"""The host interface's operations (issue 31.1): finished deal records since a number (never
the deal in play), NOTICE to a subscribed host, disable and enable play logged with who and
kept over a reboot; spoken by the pit's BoardLink over a keyed operator's link."""
from tapis.firmware.eventlog import log as E
from tapis.firmware import wire as W
from tapis.host.pit.boardlink import BoardLink
from helpers import until
from test_hostlink import wire_host
from test_tilts import play, rig, step


def board(t, key=True):
    _link, port = wire_host(t, t.key if key else None)
    b = BoardLink(port=port, key=t.key if key else None, step=t.step, name="t1")
    return b


def test_deal_records_since_a_number_finished_deals_only():
    t = rig()
    play(t, 5)
    b = board(t)
    who = b.connect()
    assert who["game"] == "ecarte" and who["state"] == "running"
    before = t.controller.game.finished_deals()
    got = b.fetch(0, 0)
    done = t.controller.game.finished_deals()
    numbers = [n for n, _at, _r in got["records"]]  # (a deal may end while the answer streams)
    assert numbers == list(range(1, len(numbers) + 1)) and before <= len(numbers) <= done
    done = len(numbers)
    assert all(r.get("complete", True) for _n, _a, r in got["records"])
    assert got["events"][0]["kind"] == "power-up"
    assert [e["seq"] for e in got["events"]] == list(range(1, len(got["events"]) + 1))
    later = [n for n, _at, _r in b.fetch(done, len(got["events"]))["records"]]
    assert later == list(range(done + 1, t.controller.game.finished_deals() + 1))[:len(later)]
    play(t, done + 3)  # three more: only those
    more = b.fetch(done, 0)["records"]
    assert [n for n, _a, _r in more] == list(range(done + 1, done + 1 + len(more))) and len(more) >= 3
    assert [r["deal"] for _n, _a, r in more] == [n for n, _a, _r in more]


def listening(b, t):
    """The host listening as the table plays: a NOTICE comes at the board's next poll after
    the deal or the event, and its frames are as many steps on as the link's resends (timed
    in the host's wall ms) make them."""
    return lambda: (b._poll(), t.step())


def test_a_notice_at_each_deal_end_and_event():
    t = rig()
    b = board(t)
    b.connect()
    woke = []
    b.subscribe(lambda: woke.append(1))
    while t.controller.game.finished_deals() < 2:  # the host listening as the table plays
        b._poll()
        t.step()
    until(listening(b, t), lambda: woke and b.counts[0] == t.controller.game.finished_deals() >= 2, 5000)
    t.controller.tilt(E.DOOR, "x")
    until(listening(b, t), lambda: b.state == "locked" and b.counts[1] == t.controller.events["seq"], 5000)


def test_disable_and_enable_logged_with_who_and_kept_over_a_clear():
    t = rig()
    step(t, 1000)
    b = board(t)
    b.connect()
    said = b.act("disable", "sup", "cred")
    assert "disabled" in said and t.controller.locked == ["disabled"]
    got = b.fetch(0, 0)
    assert got["events"][-1]["kind"] == "disabled" and got["events"][-1]["who"] == "host:tapis-pit"
    assert not got["events"][-1]["tilt"]  # the host's own doing: no alert
    assert "nothing" in b.act("clear", "sup", "cred") and t.controller.locked == ["disabled"]
    frozen = t.controller.game.finished_deals()
    step(t, 20000)
    assert t.controller.game.finished_deals() <= frozen + 1  # stopped at the next safe point
    for _ in range(50):
        b._poll()
        t.step()
    assert b.state == "disabled"
    assert t.devices[-1].view.get("mode") == "disabled"  # the table display says so, not a tilt
    said = b.act("enable", "sup", "cred")
    assert "clear" in said and t.controller.locked == []
    assert b.fetch(0, 0)["events"][-1]["who"] == "host:tapis-pit"


def test_a_disable_survives_a_reboot():
    from tapis.firmware.eventlog.log import EventLog
    from test_tilts import KEY
    t = rig()
    step(t, 1000)
    b = board(t)
    b.connect()
    b.act("disable", "sup", "cred")
    assert EventLog(t.events_store, KEY, "dev").locked() == ["disabled"]


def test_verify_through_the_board_link():
    t = rig()
    step(t, 1000)
    b = board(t)
    b.connect()
    try:
        b.act("verify", "sup", "cred", "00" * 16)
    except Exception as e:  # a simulated table has no signed manifest: the board says why
        assert "manifest" in str(e) or "image" in str(e)
    assert any(e["kind"] == "check-failed" or "check" in e["kind"] for e in b.fetch(0, 0)["events"])


class Watchdog:
    """main.py's machine.WDT().feed as store.FileStore.feed: a callable counting its feeds."""

    def __init__(self):
        self.fed = 0

    def __call__(self):
        self.fed += 1


class Sent:
    """A link that keeps what the board sends; a stream (Delivery.stream) taken whole, as if
    each frame were acknowledged at once."""

    def __init__(self):
        self.frames = []

    def send(self, addr, ftype, payload=b""):
        self.frames.append(ftype)

    def stream(self, addr, frames):
        for ftype, payload in frames:
            self.send(addr, ftype, payload)


def test_the_watchdog_is_fed_at_each_frame_of_a_long_answer(monkeypatch):
    """A DEALS (or RECALL) answer's frames are made as the link has room for them (streamed):
    on the emulated Pico a game's frames took 4.7 s over its USB, and the pit's DEALS of 2
    games (11.2 s), sent in one go, outlasted the watchdog's 8 s and reset the board at each
    try. It is fed after every frame."""
    from tapis.firmware.operator import recall
    from tapis.firmware.journal.store import FileStore
    dog = Watchdog()
    monkeypatch.setattr(FileStore, "feed", dog)
    t = rig()
    while len(t.controller.journal.starts) < 3:  # two games over, a third begun
        t.step()
    link = Sent()
    recall.deals(t.controller, link, W.HOST, 0, 3)
    assert link.frames.count(W.RECORD) >= 3 and dog.fed >= link.frames.count(W.RECORD)
