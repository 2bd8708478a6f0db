"""The classified event log (firmware/eventlog/log.py): chained under its own key like the
journal, at least the last 1,000 entries kept through compaction, the open tilts never
lost, and a power cut at any write leaving it readable."""
import pytest

from tapis.firmware.eventlog import log as E
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.journal.store import JournalError
from tests.table_rig import FailingStore, PowerLoss

KEY = bytes(range(32))


def ticker():
    t = [0]

    def clock():
        t[0] += 1
        return t[0]
    return clock


def test_entries_have_a_seq_a_clock_a_class_a_detail_and_who():
    log = EventLog(MemoryStore(), KEY, "dev", clock=ticker(), unit="ms")
    assert log.log(E.POWER_UP, "cold") == 1
    assert log.log(E.SUPERVISOR, "void", who="sup-7") == 2
    a, b = log.since(0)
    assert (a["n"], a["t"], a["c"], a["d"]) == (1, 1, "power-up", "cold") and "w" not in a
    assert b["w"] == "sup-7"
    assert [e["n"] for e in log.since(1)] == [2]
    assert log.since(0, cls=E.POWER_UP) == [a]


def test_a_tilt_stays_open_until_cleared_and_the_clear_names_it_and_who():
    store = MemoryStore()
    log = EventLog(store, KEY, "dev")
    log.log(E.DOOR, "door opened", locks=True)
    log.log(E.FORGED, "3 frames")
    assert log.locked() == [E.DOOR]
    assert EventLog(store, KEY, "dev").locked() == [E.DOOR]  # from the file: a reboot
    n = log.clear("sup-7")
    again = EventLog(store, KEY, "dev")
    assert again.locked() == [] and log.locked() == []
    door, _forged, clear = again.since(0)
    assert door["cleared"] == "sup-7"
    assert clear["c"] == E.CLEAR and clear["n"] == n and clear["x"] == [1] and clear["w"] == "sup-7"
    assert log.clear("sup-7") is None  # nothing open: nothing logged
    assert len(EventLog(store, KEY, "dev").since(0)) == 3


def test_a_clear_of_some_classes_leaves_the_others_locked():
    log = EventLog(MemoryStore(), KEY)
    log.log(E.DOOR, locks=True)
    log.log(E.RAM, locks=True)
    log.clear("s", classes=(E.RAM,))
    assert log.locked() == [E.DOOR]


@pytest.mark.parametrize("where", ["tag", "payload", "header"])
def test_the_chain_catches_an_edit(where):
    store = MemoryStore()
    log = EventLog(store, KEY, "dev")
    for i in range(5):
        log.log(E.FORGED, "n%d" % i)
    data = bytearray(store.read())
    at = {"tag": len(data) - 30, "payload": data.index(b"n2"), "header": 0}[where]
    data[at + 1 if where == "payload" else at] ^= 1
    with pytest.raises(JournalError, match="event log corrupt at (entry|byte)"):
        EventLog(MemoryStore(bytes(data)), KEY, "dev")


def test_a_deleted_entry_and_another_key_break_the_chain():
    store = MemoryStore()
    log = EventLog(store, KEY, "dev")
    offs = []
    for i in range(4):
        offs.append(store.size())
        log.log(E.FORGED, "n%d" % i)
    data = store.read()
    cut = data[:offs[2]] + data[offs[3]:]
    with pytest.raises(JournalError):
        EventLog(MemoryStore(cut), KEY, "dev")
    with pytest.raises(JournalError):
        EventLog(MemoryStore(data), bytes(32), "dev")
    with pytest.raises(JournalError):  # an unkeyed reader refuses a keyed log
        EventLog(MemoryStore(data))


def test_an_unkeyed_log_is_hashed():
    store = MemoryStore()
    EventLog(store).log(E.POWER_UP)
    assert store.read()[:1] == b"\x4b"
    data = bytearray(store.read())
    data[10] ^= 1
    with pytest.raises(JournalError):
        EventLog(MemoryStore(bytes(data)))


def test_at_least_1000_entries_are_kept_across_compaction_and_an_open_tilt_is_never_lost():
    store = MemoryStore()
    log = EventLog(store, KEY, "dev")
    log.log(E.RAM, "both copies bad", locks=True)
    for i in range(3000):
        log.log(E.FORGED, "n%d" % i)
        assert log.count >= min(i + 2, E.KEEP)
    again = EventLog(store, KEY, "dev")  # the chain re-headed: still checks
    got = again.since(0)
    assert len(got) >= E.KEEP and got[-1]["n"] == 3001
    # the tilt kept as a significant entry before those kept (walk.compact, issue 44.3)
    assert [e["n"] for e in got] == [1] + list(range(3003 - len(got), 3002))
    assert again.locked() == [E.RAM]  # the tilt was cut with its entry, carried by the head
    again.clear("sup")
    assert EventLog(store, KEY, "dev").locked() == []
    assert store.size() < 200 * 1024


def test_a_power_cut_at_every_write_leaves_the_log_readable():
    """Each write torn at every length: the log reopens, the torn entry dropped, every
    whole one kept, and goes on."""
    ref = MemoryStore()
    ref_log = EventLog(ref, KEY, "dev", clock=lambda: 7)
    plan = [(E.DOOR, True), (E.FORGED, False), (E.CLEAR, False), (E.POWER_UP, False)]
    sizes = [0]
    for cls, locks in plan:
        if cls == E.CLEAR:
            ref_log.clear("sup")
        else:
            ref_log.log(cls, "x", locks=locks)
        sizes.append(ref.size())
    for w in range(len(plan)):
        for torn in range(0, sizes[w + 1] - sizes[w]):
            store = FailingStore(ref.read()[:sizes[w]])
            store.at, store.torn = store.writes + 1, torn
            log = EventLog(store, KEY, "dev", clock=lambda: 7)
            cls, locks = plan[w]
            with pytest.raises(PowerLoss):
                if cls == E.CLEAR:
                    log.clear("sup")
                else:
                    log.log(cls, "x", locks=locks)
            again = EventLog(store, KEY, "dev", clock=lambda: 7)
            # what is left is a prefix: the whole entries before (and a fresh log's head,
            # if the cut came after it), the torn one dropped
            assert ref.read().startswith(store.read()) and store.size() >= sizes[w]
            if torn:  # (0: the whole write reached flash, then the power went)
                assert again.torn == torn - (store.size() - sizes[w])
            assert len(again.since(0)) == w + (not torn)
            again.log(E.POWER_UP, "after")
            assert EventLog(store, KEY, "dev").since(0)[-1]["d"] == "after"


def test_beside_the_journal():
    assert E.beside("/journal.bin") == "/events.bin"
    assert E.beside("/tmp/t.jnl") == "/tmp/t.jnl.events"


def test_a_broken_log_is_set_aside_at_boot_and_the_new_one_locked(tmp_path):
    """powerup.open_events (main.py's): the broken log kept as events.bad for the lab, a new
    one begun with a journal-failure tilt, and this boot's power-up."""
    from tapis.firmware.boot.powerup import open_events
    from tapis.firmware.journal.store import FileStore
    path = tmp_path / "events.bin"
    log = EventLog(FileStore(str(path)), KEY, "dev")
    log.log(E.POWER_UP)
    log.log(E.FORGED, "n")
    data = bytearray(path.read_bytes())
    data[-3] ^= 1
    path.write_bytes(bytes(data))
    got = open_events(FileStore(str(path)), KEY, "dev", crashed=2)
    assert (tmp_path / "events.bad").read_bytes() == bytes(data)
    assert got.locked() == [E.JOURNAL]
    entries = EventLog(FileStore(str(path)), KEY, "dev").since(0)
    assert [e["c"] for e in entries] == [E.JOURNAL, E.POWER_UP]
    assert "2 crashes in a row" in entries[1]["d"]


def test_the_bus_attack_policy_comes_from_the_signed_configuration():
    import json
    from tapis.firmware.boot import config
    from tapis.firmware.table.watch import ATTACK, WINDOW_MS
    base = {"v": 1, "game": "ecarte", "options": {}}
    assert config.tilts(json.dumps(base).encode()) == (ATTACK, WINDOW_MS, False)
    base["tilts"] = {"attack": 5, "window": 60, "lock": True}
    assert config.tilts(json.dumps(base).encode()) == (5, 60000, True)
    for bad in ({"attack": 0}, {"window": -1}, {"lock": "yes"}, [1]):
        base["tilts"] = bad
        with pytest.raises(config.ConfigError):
            config.tilts(json.dumps(base).encode())


def sealed_log(n, store=None, clock=None):
    log = EventLog(store if store is not None else MemoryStore(), KEY, "dev", clock=clock or ticker(), unit="ms")
    for i in range(n):
        log.log(E.FORGED, "entry %04d" % i)
    return log


def records(data):
    """(offset, payload) of each record of a keyed log's bytes."""
    off, out = 0, []
    while off < len(data):
        n = data[off + 1] << 8 | data[off + 2]
        out.append((off, data[off + 4:off + 4 + n]))
        off += 12 + n
    return out


def test_a_keyed_log_is_sealed_and_its_boot_makes_an_hmac_for_the_head_each_seal_and_what_follows_the_last(monkeypatch):
    """A board's boot (issue 30's 2 s resume): the sealed segments hashed, not one HMAC an entry."""
    store = MemoryStore()
    sealed_log(1000, store)
    recs = records(store.read())
    seals = [i for i, (_o, body) in enumerate(recs) if body.startswith(b'{"k": "s"')]
    assert len(seals) >= 10 and len(recs) == 1001 + len(seals)
    from tapis.firmware import mac
    made = []
    keyed = mac.keyed
    counted = lambda *a: made.append(1) or keyed(*a)  # noqa: E731
    monkeypatch.setattr(E, "keyed", counted)  # (the head's and the seals')
    monkeypatch.setattr(mac, "keyed", counted)  # (eventwalk.unsealed's, after the last seal)
    again = EventLog(store, KEY, "dev")
    # (and one for the log's key, derived from the device key)
    assert len(made) == 1 + 1 + len(seals) + len(recs) - seals[-1] - 1 < 100
    assert again.count == 1000 and again.seq == 1000  # the seals are not entries
    got = again.since(0)
    assert [e["n"] for e in got] == list(range(1, 1001)) and all(e["k"] == "e" for e in got)
    again.log(E.POWER_UP, "after")  # going on from the boot's open segment, still sealed right
    assert len(EventLog(store, KEY, "dev").since(995)) == 6


@pytest.mark.parametrize("what", ["entry", "seal", "segment"])
def test_a_sealed_segment_edited_or_cut_out_is_refused(what):
    store = MemoryStore()
    sealed_log(300, store)
    data = store.read()
    recs = records(data)
    seals = [i for i, (_o, body) in enumerate(recs) if body.startswith(b'{"k": "s"')]
    first = recs[seals[0]][0]
    if what == "entry":  # a byte of an entry inside the first sealed segment
        at = data.index(b"entry 0005")
        bad = data[:at] + b"entry 0105" + data[at + 10:]
    elif what == "seal":  # a hex digit of the first seal
        at = first + 4 + data[first + 4:].index(b'"h": "') + 6
        bad = data[:at] + (b"0" if data[at:at + 1] != b"0" else b"1") + data[at + 1:]
    else:  # the second segment cut out with its seal
        bad = data[:recs[seals[0] + 1][0]] + data[recs[seals[1] + 1][0]:]
    with pytest.raises(JournalError, match="event log corrupt"):
        EventLog(MemoryStore(bad), KEY, "dev")


def test_a_power_cut_in_the_write_that_seals_leaves_the_log_readable():
    """The entry that fills a segment and its seal go in one write: torn at every length,
    the log reopens with the whole entries and seals, and seals again as it goes on."""
    ref = sealed_log(0, clock=lambda: 7)
    size = 0
    while True:
        before = ref.store.size()
        ref.log(E.FORGED, "entry %d" % ref.seq)
        if b'{"k": "s"' in ref.store.read()[before:]:
            break
        size = ref.store.size()
    base, whole = ref.store.read()[:size], ref.store.read()
    for torn in range(0, len(whole) - size, 7):
        store = FailingStore(base)
        store.at, store.torn = store.writes + 1, torn
        log = EventLog(store, KEY, "dev", clock=lambda: 7, unit="ms")
        with pytest.raises(PowerLoss):
            log.log(E.FORGED, "entry %d" % log.seq)
        again = EventLog(store, KEY, "dev", clock=lambda: 7, unit="ms")
        assert whole.startswith(store.read())
        for _ in range(80):  # past the next seal
            again.log(E.POWER_UP, "after")
        assert EventLog(store, KEY, "dev").since(0)[-1]["d"] == "after"


def test_compaction_cuts_a_keyed_log_just_after_a_seal():
    store = MemoryStore()
    log = sealed_log(E.KEEP + 260, store)
    data = store.read()
    head = records(data)[0][1]
    assert head.startswith(b'{"k": "h"') and b'"p": []' not in head  # re-headed, chaining on
    assert E.KEEP <= log.count < E.KEEP + 150
    again = EventLog(store, KEY, "dev")
    assert again.count == log.count and [e["n"] for e in again.since(0)][-1] == E.KEEP + 260


@pytest.mark.parametrize("torn", [0, 30])
def test_a_reopened_log_goes_on_from_its_last_seq_when_its_last_write_sealed_or_tore(torn):
    """The entry a seal follows in the same write is not parsed by the boot's walk, nor the
    last whole one before a torn record: its seq is read all the same, so that the next
    entry's does not repeat it."""
    log = sealed_log(0)
    while b'{"k": "s"' not in log.store.read():
        log.log(E.FORGED, "entry %d" % log.seq)
    data = log.store.read()
    start = data.rindex(b'{"k": "s"') - 4
    data += data[start:start + torn]  # (a record's first bytes: torn)
    again = EventLog(MemoryStore(data), KEY, "dev", clock=lambda: 7)
    assert again.seq == log.seq and again.count == log.count
    again.log(E.POWER_UP, "next")
    assert [e["n"] for e in again.since(log.seq - 2)] == [log.seq - 1, log.seq, log.seq + 1]


def state(log):
    """What a boot takes from its log (and goes on from)."""
    return (log.seq, log.count, log.open, log.cleared, log.head, log.seg, log.size, log.torn, log.unit)


def shapes():
    """Keyed logs of several shapes: (name, bytes)."""
    out = []
    log = sealed_log(1000)
    out.append(("plain", log.store.read()))
    log = EventLog(MemoryStore(), KEY, "dev", clock=ticker(), unit="ms")
    for i in range(1300):  # tilts opened and cleared in every segment, one left open, compacted
        if i % 97 == 5:
            log.log(E.DOOR, "door %d" % i, locks=True)
        elif i % 97 == 40:
            log.clear("sup")
        else:
            log.log(E.FORGED, "entry %04d" % i)
    log.log(E.RAM, "both copies bad", locks=True)
    for i in range(120):
        log.log(E.FORGED, "after %d" % i)
    out.append(("tilts, compacted", log.store.read()))
    from tapis.firmware.eventlog.walk import restart
    restart(log, E.RAM_CLEAR, {"meters": {}}, "sup", [(E.DOOR, "kept", "host")])
    for i in range(150):
        log.log(E.FORGED, "after the clear %d" % i)
    out.append(("a RAM clear's", log.store.read()))
    data = out[0][1]
    last = records(data)[-1][0]
    out.append(("torn", data + data[last:last + 30]))  # (a record's first 30 bytes: torn)
    return out


@pytest.mark.parametrize("name, data", shapes())
def test_a_boots_quick_open_from_the_last_seal_agrees_with_the_whole_walk(name, data, monkeypatch):
    """A board's boot opens its log from the last seal (eventopen.quick, issue 30's 2 s
    resume): the same state as the whole walk, with an HMAC for the head, the last seal and
    the records after it only, and the log's end read, not all of it."""
    whole = EventLog(MemoryStore(data), KEY, "dev", clock=lambda: 7)
    from tapis.firmware import mac
    made, read = [], []
    keyed = mac.keyed
    monkeypatch.setattr(mac, "keyed", lambda *a: made.append(1) or keyed(*a))

    class Counted(MemoryStore):
        def read_at(self, off, n):
            got = MemoryStore.read_at(self, off, n)
            read.append(n if isinstance(n, int) else got)
            return got
    fast = EventLog(Counted(data), KEY, "dev", clock=lambda: 7, quick=True)
    assert fast.unchecked and state(fast) == state(whole)
    after = len(records(data[fast.seg[0]:fast.size]))
    # the log's key (derived from the device key), the head, the last seal, what follows it
    assert len(made) == 1 + 1 + 1 + after < 60 and sum(read) < 8192 + 1024
    assert fast.locked() == whole.locked() and (name != "tilts, compacted" or fast.locked() == [E.DOOR, E.RAM])
    for log in (fast, whole):  # and both go on alike
        log.log(E.POWER_UP, "next")
    assert fast.store.read() == whole.store.read()
    assert state(EventLog(MemoryStore(fast.store.read()), KEY, "dev", quick=True))[:7] == state(whole)[:7]


def test_a_short_log_or_one_written_before_seals_carried_the_state_is_walked_whole():
    small = sealed_log(30)
    assert EventLog(small.store, KEY, "dev", quick=True).unchecked == 0
    old = sealed_log(1000)  # its head without "g", as one written before it
    data = old.store.read()
    recs = records(data)
    assert b'"g": 0' in recs[0][1]
    log = EventLog(MemoryStore(), KEY, "dev", clock=ticker(), unit="ms")
    head = log.frame({"k": "h", "d": "dev", "p": [], "u": "ms", "o": []})
    rest = data[recs[1][0]:]  # (its records chained from the new head's tag: written again)
    log.store.append(head)
    log.size, log.seg = len(head), (len(head), log.head)
    for i in range(1000):
        log.log(E.FORGED, "entry %04d" % i)
    assert rest and b'"g"' not in log.store.read()[:len(head)]
    got = EventLog(MemoryStore(log.store.read()), KEY, "dev", quick=True)
    assert got.unchecked == 0 and got.seq == 1000 and got.count == 1000


@pytest.mark.parametrize("where", ["last seal", "after it"])
def test_an_edit_at_the_logs_end_is_refused_by_the_quick_open(where):
    data = bytearray(sealed_log(1000).store.read())
    at = data.rindex(b'{"k": "s"') + 20 if where == "last seal" else len(data) - 20
    data[at] ^= 1
    with pytest.raises(JournalError, match="event log corrupt"):
        EventLog(MemoryStore(bytes(data)), KEY, "dev", quick=True)


class Board:
    """What powerup.deferred needs of a controller: its parked log, its tilts."""

    def __init__(self, log):
        self.events, self.locked, self.tilts = log.park(), log.locked(), []

    def tilt(self, cls, detail):
        log = EventLog(None, parked=self.events)
        log.log(cls, detail, None, True)
        self.events, self.locked = log.park(), log.locked()
        self.tilts.append(cls)


@pytest.mark.parametrize("what", ["entry", "seal", "segment"])
def test_an_edit_before_the_last_seal_is_found_once_play_has_begun_and_locks(tmp_path, what):
    """The quick open leaves the segments before the last seal to powerup.deferred (main.py,
    once playing): an entry or a seal edited there, or a segment cut out with its seal, is
    found then; the log is set aside as at boot (events.bad) and the new one locked."""
    from tapis.firmware.boot.powerup import deferred
    from tapis.firmware.journal.store import FileStore
    path = tmp_path / "events.bin"
    good = sealed_log(1000, FileStore(str(path)))
    data = path.read_bytes()
    log = EventLog(FileStore(str(path)), KEY, "dev", quick=True)
    assert deferred(Board(log), KEY, "dev", log.unchecked) is True
    assert path.read_bytes() == data and not (tmp_path / "events.bad").exists()
    recs = records(data)
    seals = [i for i, (_o, body) in enumerate(recs) if body.startswith(b'{"k": "s"')]
    if what == "entry":
        at = data.index(b"entry 0005")
        bad = data[:at] + b"entry 0105" + data[at + 10:]
    elif what == "seal":
        at = recs[seals[0]][0] + 4 + data[recs[seals[0]][0] + 4:].index(b'"h": "') + 6
        bad = data[:at] + (b"0" if data[at:at + 1] != b"0" else b"1") + data[at + 1:]
    else:
        bad = data[:recs[seals[0] + 1][0]] + data[recs[seals[1] + 1][0]:]
    path.write_bytes(bad)
    log = EventLog(FileStore(str(path)), KEY, "dev", quick=True)  # the boot: quick, no error
    assert log.unchecked and log.seq == good.seq
    board = Board(log)
    assert deferred(board, KEY, "dev", log.unchecked) is False
    assert (tmp_path / "events.bad").read_bytes() == bad
    assert board.tilts == [E.JOURNAL] and board.locked == [E.JOURNAL]
    again = EventLog(FileStore(str(path)), KEY, "dev")
    assert again.locked() == [E.JOURNAL] and "kept as events.bad" in again.since(0)[0]["d"]


MP_LOG = """
from binascii import hexlify
from tapis.firmware.eventlog import log as E
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.offboard.memstore import MemoryStore
st = MemoryStore()
log = EventLog(st, bytes(range(32)), "dev", clock=lambda: 7, unit="ms")
log.log(E.RAM, "both copies bad", locks=True)
for i in range(1400):
    log.log(E.FORGED, "entry %d" % i)
again = EventLog(MemoryStore(bytes(st.data)), bytes(range(32)), "dev")
print(again.count, again.seq, again.locked())
print(hexlify(bytes(st.data)).decode())
fast = EventLog(MemoryStore(bytes(st.data)), bytes(range(32)), "dev", quick=True)
print(fast.count, fast.seq, fast.locked(), fast.unchecked > 0, fast.head == again.head, fast.seg == again.seg)
"""


def test_micropython_seals_and_compacts_the_log_as_cpython_reads_it():
    """The webassembly MicroPython writes past several seals and a compaction; its reopened
    log (walked whole, and quick from its last seal) and CPython's reading of its bytes agree."""
    import subprocess
    from tapis.simulator import micropython
    micropython.ensure_installed()
    argv = micropython.command(code=MP_LOG, roots=(micropython.AS_TAPIS,))
    p = subprocess.run(argv, capture_output=True, text=True, timeout=300, input="")
    assert p.returncode == 0, p.stderr
    counts, data, fast = p.stdout.split("\n")[:3]
    assert fast == counts + " True True True"  # the boot's quick open from the last seal, alike
    log = EventLog(MemoryStore(bytes.fromhex(data)), KEY, "dev")
    assert counts == "%d %d ['ram-error']" % (log.count, log.seq)
    assert log.seq == 1401 and E.KEEP <= log.count < E.KEEP + 250 and log.locked() == [E.RAM]
    assert bytes.fromhex(data).count(b'{"k": "s"') >= 10
    assert [e["n"] for e in log.since(0)] == [1] + list(range(1402 - log.count, 1402))  # (1: the tilt, carried)


def test_a_boards_power_up_is_written_once_playing_and_before_anything_else(tmp_path):
    """open_events(quick=True), main.py's: the power-up entry is framed at boot and written
    after the loop's first step (powerup.deferred), which spares the boot littlefs's append
    (about 55 ms on the Pico); an entry logged before then goes after it, in one write."""
    from tapis.firmware.boot.powerup import deferred, open_events
    from tapis.firmware.journal.store import FileStore
    path = tmp_path / "events.bin"
    sealed_log(300, FileStore(str(path)))
    before = path.read_bytes()
    log = open_events(FileStore(str(path)), KEY, "dev", quick=True)
    assert path.read_bytes() == before and log.pending
    board = Board(log)
    assert deferred(board, KEY, "dev", log.unchecked) is True
    assert [e["c"] for e in EventLog(FileStore(str(path)), KEY, "dev").since(300)] == [E.POWER_UP]
    log = open_events(FileStore(str(path)), KEY, "dev", quick=True)
    log.log(E.METER, "copy b rebuilt")  # (the boot's meters, before play)
    assert [e["c"] for e in EventLog(FileStore(str(path)), KEY, "dev").since(301)] == [E.POWER_UP, E.METER]
    assert not log.pending and log.size == path.stat().st_size
