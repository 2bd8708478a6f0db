# The event log opened at boot (firmware/eventlog/opening.py): walked whole, or a board's
# quick open from its last seal, both ending where the records end and agreeing; every record
# after the seal checked by its tag. The public behaviour only (events.py's format is its own).
import pytest

from tapis.firmware.eventlog import log as E
from tapis.firmware.eventlog import opening
from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.journal.store import JournalError
from tapis.firmware.offboard.memstore import MemoryStore

KEY = bytes(range(32))


def written(n):
    t = [0]

    def clock():
        t[0] += 1
        return t[0]
    log = EventLog(MemoryStore(), KEY, "dev", clock=clock, unit="ms")
    for i in range(n):
        log.log(E.FORGED, "entry %04d" % i)
    return log.store.read()


def opened(data):
    return EventLog(MemoryStore(data), KEY, "dev", clock=lambda: 7)


def test_the_quick_open_and_the_whole_walk_end_where_the_records_end_and_agree():
    data = written(1000)
    a, b = opened(data), opened(data)
    assert opening.whole(a, lambda payload: False) == len(data)
    assert opening.quick(b, lambda payload: False) == len(data)
    assert (a.seq, a.open, a.head) == (b.seq, b.open, b.head) == (1000, [], opened(data).head)
    assert b.unchecked > 0  # what lies before the last seal: checked later (powerup.deferred)


def test_a_short_log_is_walked_whole_not_opened_quick():
    data = written(10)
    assert opening.quick(opened(data), lambda payload: False) == 0
    assert opening.whole(opened(data), lambda payload: False) == len(data)


def test_the_records_after_a_seal_are_checked_one_by_one_and_a_torn_last_one_is_left():
    data = written(1000)
    log = opened(data)
    off, chain = log.seg  # the last seal's end and its tag: the records after it follow
    seen = []
    end, head = opening.tail(log, [bytearray(512), 0, 0], off, chain, len(data),
                             lambda at, whole, n: seen.append(at))
    assert end == len(data) and head == log.head and seen and seen[0] == off
    torn = opened(data + data[seen[-1]:seen[-1] + 20])
    assert opening.tail(torn, [bytearray(512), 0, 0], off, chain, torn.store.size())[0] == len(data)
    bad = bytearray(data)
    bad[seen[-1] + 10] ^= 1
    log = EventLog(MemoryStore(bytes(data)), KEY, "dev", clock=lambda: 7)
    log.store = MemoryStore(bytes(bad))
    with pytest.raises(JournalError, match="event log corrupt at byte %d" % seen[-1]):
        opening.tail(log, [bytearray(512), 0, 0], off, chain, len(bad))
