"""Tilts that lock (issue 30.3): a RAM error, a failed software check, a journal failure, a
wrong deck count and an open door stop play at a safe point, stay locked across a reboot
(the open tilts come back from the event log) and are cleared only with the supervisor's
credential, the clear logged with who; recall still answers while locked and the
displays say the table's mode. A burst of refused frames is a bus-attack event."""
import pytest

from tapis.firmware.eventlog import log as E
from tapis.firmware import wire as W
from tapis.firmware.table import tilts
from tapis.firmware.wire import CLEAR
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.journal.resume import load
from tapis.firmware.journal.writer import Journal
from table_rig import PowerLoss, Rig
from tapis.simulator.table.supervisor import EmuSupervisor
from test_supervisor import step, usb_link, with_supervisor

KEY = bytes(range(32))


def rig(seed=3, game="ecarte"):
    return Rig(seed, game, MemoryStore(), key=KEY, device="dev", events_store=MemoryStore())


def play(t, n, limit=600000):
    """Step until n deals are finished (Rig's run counts games)."""
    end = t.now + limit
    while t.controller.game.finished_deals() < n:
        assert t.now < end, t.controller.faults[-5:]
        t.step()


def frozen(t, ms=3000):
    """Whether play stays stopped: (the game's log, its state) the same after `ms` (once
    what was already asked for has come in)."""
    step(t, 500)
    before = (len(t.controller.game.log), t.controller.game.finished_deals(), t.controller.game.to_act)
    step(t, ms)
    return (len(t.controller.game.log), t.controller.game.finished_deals(), t.controller.game.to_act) == before


def clear_over_usb(t, ram=False):
    host = usb_link(t)
    host.send(W.HOST, W.BUTTON, bytes((CLEAR, 1 if ram else 0)))
    got = []
    for _ in range(2000):
        t.step()
        got += [p for _a, _s, f, p in host.poll(t.now) if f == W.RECORD]
        if got and len(got) >= (got[0][1] or 1):
            break
    return got


def run_cleared(t, until, on_events=None):
    """Play until until(game), the supervisor clearing each tilt as it comes over the
    operator's link (a deck-count tilt locks the table: play waits for the clear)."""
    for i in range(50):
        again = [i > 0 and on_events is not None]

        def told(events, again=again):  # a run begins by telling the log from its start:
            if again[0]:  # told by the runs before
                again[0] = False
            else:
                on_events(events)
        t.run(lambda g: until(g) or bool(t.controller.locked), told if on_events else None)
        if not t.controller.locked:
            return
        clear_over_usb(t)
    raise AssertionError("still locked: %r" % t.controller.locked)


@pytest.mark.parametrize("cls", [E.RAM, E.CHECK_FAILED, E.JOURNAL, E.DECK, E.DOOR])
def test_each_tilt_locks_survives_a_reboot_and_clears_only_with_the_credential(cls):
    t = rig()
    play(t, 1)
    if cls == E.DOOR:
        t.open_door()
        step(t, 100)
        t.close_door()
    else:
        t.controller.tilt(cls, "as the others report it")
    assert t.controller.locked == [cls]
    assert frozen(t)
    assert all(c.view.get("mode") == "locked: " + cls for c in t.consoles)
    assert t.devices[-1].view.get("mode") == "locked: " + cls  # the table display
    t.boot()  # a power cycle: the lock comes back from the event log
    assert t.controller.locked == [cls]
    assert frozen(t)
    # a seat's console cannot clear it, nor a device not paired: nothing changes
    log = t.events_store.read()
    refused = sum(t.controller.errors.values())
    t.consoles[1].link.send(W.PANEL + 1, W.BUTTON, bytes((CLEAR, 0)))
    spy = EmuSupervisor(t.lines[1].end("spy"), b"SPY", key=bytes(32))  # not paired with this table
    t.devices.append(spy)
    spy.command(CLEAR, 0)
    step(t, 2000)
    t.devices.remove(spy)
    assert t.controller.locked == [cls] and t.events_store.read() == log
    assert sum(t.controller.errors.values()) > refused  # (forged: the spy is not paired)
    got = clear_over_usb(t)
    assert t.controller.locked == []
    entries = EventLog(t.events_store, KEY, "dev").since(0)
    tilt = [e for e in entries if e["c"] == cls][0]
    assert tilt["cleared"] == "usb" and entries[-1]["c"] == E.CLEAR and entries[-1]["w"] == "usb"
    assert got and b'"clear"' in got[0]  # the board answered with the clear's entry
    deals = t.controller.game.finished_deals()
    play(t, deals + 1)  # play goes on


def test_a_door_still_open_is_not_cleared():
    t = rig()
    play(t, 1)
    t.open_door()
    step(t, 100)
    assert t.controller.locked == [E.DOOR]
    clear_over_usb(t)
    assert t.controller.locked == [E.DOOR]
    t.close_door()
    clear_over_usb(t)
    assert t.controller.locked == []


def test_the_supervisor_device_clears_and_the_log_names_it():
    t = rig()
    play(t, 1)
    sup = with_supervisor(t)
    step(t, 1500)  # its HELLO
    t.controller.tilt(E.RAM, "both meter copies bad")
    sup.command(CLEAR, 0)
    step(t, 1500)
    assert t.controller.locked == []
    assert EventLog(t.events_store, KEY, "dev").since(0)[-1]["w"] == "EMU-SUPERVISOR"


def test_recall_answers_while_locked_and_the_displays_say_recall_mode():
    t = rig()
    play(t, 2)
    t.controller.tilt(E.RAM, "x")
    sup = with_supervisor(t)
    step(t, 1500)
    sup.recall(2)
    step(t, 2000)
    assert sup.games
    t.controller.locked = []  # (only to see the recall mode, which a lock outranks)
    t.controller.recalled = t.now
    step(t, 300)
    assert t.devices[-2].view.get("mode") == "recall" or t.consoles[0].view.get("mode") == "recall"


def test_a_burst_of_refused_frames_is_a_bus_attack_that_alerts_and_locks_only_if_configured():
    t = rig()
    play(t, 1)
    bus = t.controller.links[1]
    bus.forged += 30
    step(t, 100)
    entries = EventLog(t.events_store, KEY, "dev").since(0)
    assert [e["c"] for e in entries if e["c"] == E.ATTACK] == [E.ATTACK]
    assert t.controller.locked == []
    step(t, 11000)
    assert any(e["c"] == E.FORGED and e["d"].startswith("30 frames") for e in
               EventLog(t.events_store, KEY, "dev").since(0))
    t.controller.watch.lock = True
    bus.forged += 30
    step(t, 100)
    assert t.controller.locked == [E.ATTACK]


def test_power_up_and_supervisor_actions_and_devices_are_logged():
    t = rig()
    play(t, 1)
    t.boot()
    play(t, 2)
    c = t.controller
    c.on_frame(c.route[W.SHOE], W.SHOE, 0, W.FAULT, bytes((W.EMPTY,)))  # as the shoe reports one
    sup = with_supervisor(t)
    step(t, 1500)
    sup.recall(1)
    step(t, 1500)
    entries = EventLog(t.events_store, KEY, "dev").since(0)
    classes = [e["c"] for e in entries]
    assert classes.count(E.POWER_UP) == 2 and E.SHOE in classes
    assert [e["w"] for e in entries if e["c"] == E.SUPERVISOR] == ["EMU-SUPERVISOR"]


class Kept:
    """Meters as the journal tells them and the clear asks them: committed at the journal's end
    (their figures .m), then cleared."""
    m = [2, 0, 0, 0, 40]  # (deals, games, voids, power-ups, house: layout.py's order, as a copy's array)
    cleared = False

    def saw(self, recs):
        pass

    def commit(self, journal, force=False, tilt=None):
        return self

    def clear(self, journal):
        self.cleared = True


def test_a_ram_clear_needs_the_credential_and_begins_a_new_log_with_the_old_meters():
    t = rig()
    play(t, 2)
    t.controller.tilt(E.RAM, "both copies bad")
    t.controller.journal.meters = Kept()  # the journal's meters, as a RAM clear reads them
    t.consoles[0].link.send(W.HOST, W.BUTTON, bytes((CLEAR, 1)))
    step(t, 1000)
    assert t.controller.locked == [E.RAM] and t.controller.game.finished_deals() == 2
    got = clear_over_usb(t, ram=True)
    assert got and b"ram-clear" in got[0]
    first, = EventLog(t.events_store, KEY, "dev").since(0)
    assert first["n"] == 1 and first["c"] == E.RAM_CLEAR and first["w"] == "usb"
    assert first["d"]["meters"] == [2, 0, 0, 0, 40] and first["d"]["tilts"] == [E.RAM]
    assert t.controller.locked == [] and t.controller.game.finished_deals() <= 0  # a new game
    j = Journal(t.store, key=KEY, device="dev")
    load(j)
    assert j.number == 1 and j.last["done"] is False
    play(t, 1)  # a new game plays
    t.boot()
    assert t.controller.locked == []


def test_a_power_cut_in_a_ram_clear_after_the_new_log_finishes_it_at_boot():
    t = rig()
    play(t, 2)
    ctrl = t.controller

    def cut(*_a, **_k):
        raise PowerLoss()
    t.store.keep = cut  # the power goes as the journal is cleared
    with pytest.raises(PowerLoss):
        from tapis.firmware.operator.clears import ram_clear
        ram_clear(ctrl, "usb")
    del t.store.keep
    assert EventLog(t.events_store, KEY, "dev").since(0)[0]["c"] == E.RAM_CLEAR
    t.boot()
    assert t.controller.game.finished_deals() <= 0 and t.journal.number == 1


def test_a_full_filesystem_never_clears_the_event_log():
    """powerup.make_room (main.py's at boot) cuts the journal only: the event log is never
    its to cut, nor a RAM clear's (test_make_room.py runs it; this reads it)."""
    import ast
    from pathlib import Path
    tree = ast.parse((Path(E.__file__).parent.parent / "boot" / "powerup.py").read_text())
    make_room = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "make_room"][0]
    names = {n.id for n in ast.walk(make_room) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(make_room) if isinstance(n, ast.Attribute)}
    assert not names & {"events", "EventLog", "EVENTS", "ram_clear", "restart"}


# ---- tilts.check on a controller's fields alone (firmware/table/tilts.py) --------------------
class Watched:
    """The fields and calls of Controller that tilts.check reads and makes."""

    def __init__(self, door=None, **policy):
        from tapis.firmware.table.watch import Watch
        self.watch = Watch(door, **policy)
        self.locked, self.tilts, self.events = [], [], []

    def tilt(self, cls, detail, locks=True):
        self.tilts.append((cls, locks))

    def event(self, cls, detail):
        self.events.append((cls, detail))


def test_the_door_opened_is_a_tilt_once_not_again_while_locked():
    door = {"open": False}
    c = Watched(lambda now: door["open"])
    tilts.check(c, 0, 0)
    assert not c.tilts
    door["open"] = True
    tilts.check(c, 50, 0)
    assert c.tilts == [("door-open", True)] and c.watch.opened
    c.locked.append("door-open")
    door["open"] = False
    tilts.check(c, 100, 0)
    door["open"] = True
    tilts.check(c, 150, 0)
    assert len(c.tilts) == 1 and not tilts.shut(c.watch, 150)


def test_refused_frames_in_a_window_are_a_burst_logged_once_then_counted_at_its_end():
    c = Watched(attack=4, window_ms=10000, lock=False)
    tilts.check(c, 1000, 3)
    assert not c.tilts  # three refused: noise so far
    tilts.check(c, 2000, 1)
    tilts.check(c, 3000, 5)
    assert c.tilts == [("bus-attack", False)]  # the fourth makes the burst, logged once
    tilts.check(c, 11000, 0)  # the window from the first is over: its count logged
    assert c.events == [("forged", "9 frames refused in 10 s")]
    assert c.watch.refused == 0 and not c.watch.alerted
