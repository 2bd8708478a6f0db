# The meters and the event log on one table (issue 30): a tilt is logged and counted in
# the meters by class; a copy rebuilt is an event in the log, both copies bad a RAM-error
# tilt; a RAM clear logs the meters' last values and zeroes them, and a power cut at any
# step of it is finished at boot (the journal emptied, the meters at 0).
import pytest

from tapis.firmware.eventlog import log as E
from tapis.firmware.boot.build import build
from tapis.firmware.operator.clears import ram_clear
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.journal.writer import Journal
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.meters.holder import Meters
from tapis.firmware.meters.tally import held
from tapis.host.memory.meters import as_dict
from table_rig import PowerLoss, Rig

KEY = bytes(range(32))


class Copy(MemoryStore):
    """A meters copy in memory (tally.read/_write take an object with read and replace)."""


class Metered(Rig):
    """The table rig with an event log and meters beside its journal, as a board boots them."""

    def __init__(self, seed=3, game="ecarte"):
        self.copies = (Copy(), Copy())
        Rig.__init__(self, seed, game, MemoryStore(), key=KEY, device="dev", events_store=MemoryStore())

    def _controller(self):
        for _addrs, end in self.wires:
            end.inbox.clear()
        self.journal = Journal(self.store, held=self.held, key=KEY, device="dev")
        self.journal.meters = Meters(*self.copies, key=KEY)
        self.events = EventLog(self.events_store, KEY, "dev", clock=lambda: 0, unit="ms")
        ctrl = build(self.route(), self.journal, self.name, self.options, events=self.events)
        self.game = ctrl.game
        return ctrl

    def meters(self):
        self.journal.flush()  # (what the journal holds first, as recall.meters does)
        return as_dict(held(self.journal.meters, self.journal))

    def logged(self):
        return EventLog(self.events_store, KEY, "dev").since(0)


def play(t, n, limit=600000):
    end = t.now + limit
    while t.controller.game.finished_deals() < n:
        assert t.now < end, (t.controller.locked, t.controller.faults[-5:])
        t.step()


def test_a_tilt_is_logged_and_counted_in_the_meters_by_class():
    t = Metered()
    play(t, 1)
    assert t.meters()["tilts"] == dict.fromkeys(("ram", "software", "journal", "door", "shoe", "bus", "other"), 0)
    t.controller.tilt(E.DOOR, "the door was opened")
    t.controller.tilt(E.CHECK_FAILED, "firmware.img was modified")
    t.controller.tilt(E.DECK, "a pack of 32 loaded with 31 cards")
    m = t.meters()["tilts"]
    assert (m["door"], m["software"], m["shoe"], m["ram"]) == (1, 1, 1, 0)
    assert [e["c"] for e in t.logged() if e.get("l")] == [E.DOOR, E.CHECK_FAILED, E.DECK]
    t.boot()  # counted in the copies: a power cycle keeps them (and the locks)
    assert t.meters()["tilts"]["door"] == 1 and t.controller.locked == [E.DOOR, E.CHECK_FAILED, E.DECK]


def test_a_copy_rebuilt_is_an_event_and_both_bad_a_ram_tilt_in_the_log():
    t = Metered()
    play(t, 1)
    a = bytearray(t.copies[0].read())
    a[20] ^= 0xFF
    t.copies[0].replace(bytes(a))
    t.boot()
    assert [e for e in t.logged() if e["c"] == E.METER and "copy a was bad" in e["d"]]
    assert t.controller.locked == []
    for c in t.copies:
        b = bytearray(c.read())
        b[30] ^= 0xFF
        c.replace(bytes(b))
    t.boot()
    assert t.controller.locked == [E.RAM]  # play stops until the supervisor's RAM clear
    assert [e for e in t.logged() if e["c"] == E.RAM and e.get("l")]


def test_a_ram_clear_logs_the_meters_last_values_and_zeroes_them():
    t = Metered()
    play(t, 3)
    deals = t.meters()["deals"]
    assert deals >= 3
    ram_clear(t.controller, "usb")
    first = t.logged()[0]
    assert first["c"] == E.RAM_CLEAR and first["d"]["meters"][0] == deals  # (tally.py's order: deals first)
    m = t.meters()
    assert (m["deals"], m["games"], m["power_ups"]) == (0, 0, 0)
    play(t, 1)  # the new game's deals counted from 0
    t.boot()
    assert t.meters()["deals"] == t.controller.game.finished_deals() + 1 >= 1


@pytest.mark.parametrize("cut", ["journal", "meters"])
def test_a_power_cut_in_a_ram_clear_is_finished_at_boot_meters_and_all(cut, monkeypatch):
    """The power goes as the journal is emptied, or after it but before the meters are
    cleared: at boot the journal is a fresh one and the meters 0 (never the old values)."""
    t = Metered()
    play(t, 3)
    assert t.meters()["deals"] >= 3

    def off(*_a, **_k):
        raise PowerLoss()
    if cut == "journal":
        monkeypatch.setattr(t.store, "keep", off)
    else:
        monkeypatch.setattr(Meters, "clear", off)
    with pytest.raises(PowerLoss):
        ram_clear(t.controller, "usb")
    monkeypatch.undo()
    t.boot()
    m = t.meters()
    assert t.journal.number == 1 and t.controller.game.finished_deals() <= 0
    assert (m["deals"], m["games"]) == (0, 0) and m["power_ups"] <= 1
    play(t, 1)
    assert t.meters()["deals"] >= 1


def test_the_meters_answer_while_the_table_is_locked():
    """Issue 30.3: a tilt stops play, not the supervisor's questions: METERS over the
    operator's link answers with the meters as the copies and the journal say."""
    from tapis.firmware import wire as W
    from tapis.firmware.link.link import Link
    from tapis.host.commands import meters as cmd
    from tapis.simulator.table.pipes import pipe
    t = Metered(5, "club")
    play(t, 2)
    t.controller.tilt(E.DOOR, "the door was opened")
    assert t.controller.locked == [E.DOOR]
    ctrl_end, host_end = pipe()
    link = Link(ctrl_end)
    t.controller.route[W.HOST] = link
    t.controller.links.append(link)
    got = cmd.fetch(host_end, step=t.step, timeout=30)
    assert got.m == held(t.journal.meters, t.journal).m and as_dict(got)["deals"] >= 2
    assert as_dict(got)["tilts"]["door"] == 1 and t.controller.locked == [E.DOOR]
