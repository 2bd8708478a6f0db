"""An event log cut back behind the meters (issue 30's critical memory; docs/security.md):
every byte of flash may be edited, and a log cut at a record boundary is a sound, shorter
chain that no tag can tell from a whole one. A locking tilt cut off that way was gone after
a power cycle and the table played on. The meters' copies (HMACed under the device key, two
of them) now note the log's last entry at each commit, a tilt's entry before it is counted;
a log that ends before it is a journal-failure tilt at boot, which locks."""
import struct

import pytest

from tapis.firmware.eventlog import log as E
from tapis.firmware.meters import tally
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.mac import keyed, pads
from test_meters_log import KEY, Metered, play
from test_tilts import clear_over_usb, step


def tilted(t, cls):
    """A tilt of class cls after a deal (as its watcher reports it); the log's size before it."""
    play(t, 1)
    step(t, 200)
    before = t.events_store.size()
    t.controller.tilt(cls, "as the others report it")
    step(t, 200)
    assert t.controller.locked == [cls]
    return before


@pytest.mark.parametrize("cls", [E.DOOR, E.CHECK_FAILED, E.DECK])
def test_a_locking_tilt_cut_off_the_event_log_is_a_journal_failure_after_a_power_cycle(cls):
    t = Metered()
    before = tilted(t, cls)
    t.events_store.data[before:] = b""  # the flash edited: the log cut back before the tilt
    t.boot()
    assert t.controller.locked == [E.JOURNAL], t.controller.faults[-3:]
    entries = EventLog(t.events_store, KEY, "dev").since(0)
    assert entries[-1]["d"].startswith("event log cut at entry") and entries[-1]["c"] == E.JOURNAL
    assert not [e for e in entries if e["c"] == cls]  # (the tilt is gone: what is left says so)


def test_a_power_cycle_and_a_cleared_tilt_raise_no_alarm():
    t = Metered()
    tilted(t, E.CHECK_FAILED)
    t.boot()
    assert t.controller.locked == [E.CHECK_FAILED]
    clear_over_usb(t)
    assert t.controller.locked == []
    for _ in range(3):
        t.boot()
        assert t.controller.locked == [], t.controller.faults[-3:]
    play(t, t.controller.game.finished_deals() + 1)
    assert t.controller.locked == []


def test_copies_of_version_1_are_read_and_written_as_version_3():
    """A board updated over copies written before the field (version 1, 320 bytes, 73
    meters) takes them, and its next commit writes version 3 (issue 44: 75 meters and the
    chain of custody, 348 bytes)."""
    t = Metered()
    play(t, 1)
    m = t.journal.meters
    now = tally.unpack(m.key, tally.read(m.copies[0]))
    assert now is not None and now.ev > 0
    body = struct.pack("<2sBBII8s", b"TM", 1, 73, now.gen, now.pos, now.tag) + \
        struct.pack("<73I", *now.m[:73])
    old = body + keyed(pads(m.key), b"", body)[:8]  # (docs/protocol.md: CHECK, an HMAC under the meters' key)
    assert len(old) == 320
    got = tally.unpack(m.key, old)
    assert (got.gen, got.pos, got.tag, list(got.m[:73]), list(got.m[73:]), got.ev) == (now.gen, now.pos, now.tag, list(now.m[:73]), [0, 0], 0)
    for c in m.copies:
        c.replace(old)
    t.boot()
    assert t.controller.locked == [], t.controller.faults[-3:]
    again = tally.unpack(m.key, tally.read(m.copies[0]))
    assert len(tally.read(m.copies[0])) == 348 and again.ev > 0 and again.m[:11] >= now.m[:11]


@pytest.mark.parametrize("cut", [None, "journal", "meters"])
def test_a_ram_clear_begins_the_log_anew_without_an_alarm_even_cut_by_a_power_cut(cut, monkeypatch):
    """A RAM clear numbers the new log from 1 while the copies noted the old log's last
    entry: the clear zeroes them (or the boot finishes it: eventwalk.finish) before any
    commit compares, whichever write the power cut stopped."""
    from table_rig import PowerLoss
    from tapis.firmware.operator.clears import ram_clear
    from tapis.firmware.meters.holder import Meters
    t = Metered()
    tilted(t, E.CHECK_FAILED)

    def off(*_a, **_k):
        raise PowerLoss()
    if cut == "journal":
        monkeypatch.setattr(t.store, "keep", off)
    elif cut == "meters":
        monkeypatch.setattr(Meters, "clear", off)
    if cut:
        with pytest.raises(PowerLoss):
            ram_clear(t.controller, "usb")
        monkeypatch.undo()
    else:
        ram_clear(t.controller, "usb")
    for _ in range(2):
        t.boot()
        assert t.controller.locked == [], t.controller.faults[-3:]
    assert not [e for e in t.logged() if "event log cut" in str(e["d"])]
