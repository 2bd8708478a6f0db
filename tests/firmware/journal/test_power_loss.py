# Power loss: the board is reset after EVERY journal write of a seeded game (and while it
# boots, which writes too); the game must complete with the same events and result as an
# uninterrupted run. The devices and wires live on; what the board's UARTs had buffered
# is lost. The journal is the board's: chained under its device key. A torn write during a deal being dealt voids that deal (docs/rules.md, Recovery).
import pytest

from tapis.firmware.journal.store import JournalError
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.boot.build import build
from tapis.firmware.journal.writer import Journal
from tapis.firmware.journal.resume import load
from tapis.simulator.testkey import TEST_DEVICE, TEST_KEY
from table_rig import FailingStore, Rig as _Rig, total_events

KEY = dict(key=TEST_KEY, device=TEST_DEVICE)  # a board's journal: chained under its device key


def Rig(*args, **kw):
    return _Rig(*args, **dict(KEY, **kw))


def reset_after_every_write(seed, game, games):
    store = FailingStore()
    rig = Rig(seed, game, store)
    store.at = store.writes + 1

    def again(r):
        r.store.at = r.store.writes + 1

    return rig, rig.run(games, on_reset=again)


@pytest.mark.parametrize("game, seed, games", [("ecarte", 11, 2), ("club", 3, 1),
                                               ("piquet", 5, 1)])
def test_a_reset_after_every_journal_write_changes_nothing(game, seed, games):
    clean = Rig(seed, game)
    ref = clean.run(games)
    rig, got = reset_after_every_write(seed, game, games)
    # every write but the first was followed by a reset (the journal holds records and
    # writes them at safe points: fewer writes than inputs)
    assert rig.resets >= rig.store.writes - 1 and rig.resets >= clean.store.writes // 2 >= 2
    assert total_events(got) == total_events(ref)
    assert [g["done"] for g in got] == [g["done"] for g in ref]
    # the rules state it ended in is the same: scores and money
    a, b = clean.ctrl.game, rig.ctrl.game
    for attr in ("scores", "games", "balances", "wagers"):
        if hasattr(a, attr):
            x, y = getattr(a, attr), getattr(b, attr)
            assert (vars(x) if hasattr(x, "__dict__") else x) == \
                (vars(y) if hasattr(y, "__dict__") else y)
    assert not rig.ctrl.faults or all("fault" in f for f in rig.ctrl.faults)


def test_a_torn_write_while_cards_are_dealt_voids_the_deal_and_says_so():
    store = FailingStore()
    rig = Rig(4, "ecarte", store, held=False)  # a record a write: a card's own can be torn
    # run to the first card of the second deal, and tear the next write (a card)
    while not any(e[0] == "deal" and e[2] == 2 for e in rig.ctrl.game.log):
        rig.step()
    cards_before = store.writes
    store.at, store.torn = store.writes + 2, 5  # the 2nd card's record is cut after 5 bytes
    rig.run(1)
    assert store.writes > cards_before
    games = load(Journal(MemoryStore(store.read()), **KEY))
    voided = [v for g in games for v in g["voided"]]
    assert len(voided) == 1 and "dealt" in voided[0]["why"]
    assert len(voided[0]["inputs"]) == 1  # the one card that was journaled whole
    assert [i[0][0] for i in voided[0]["inputs"]] == ["shoe"]
    assert rig.resets == 1 and any("power lost" in f for f in rig.ctrl.faults)
    assert games[0]["done"]  # and the game went on to its end with a new deal


def test_a_corrupt_journal_is_refused_at_boot_and_nothing_is_sent():
    rig = Rig(2, "ecarte")
    rig.run(0, limit=200)
    data = bytearray(rig.store.read())
    data[len(data) // 2] ^= 0x40
    sent = []

    class Port:
        def read(self):
            return b""

        def write(self, b):
            sent.append(b)

    from tapis.firmware import wire as W
    from tapis.firmware.link.link import Link
    link = Link(Port())
    route = {W.SHOE: link, W.TABLE_DISPLAY: link, W.PANEL: link, W.DISPLAY: link,
             W.PANEL + 1: link, W.DISPLAY + 1: link}
    with pytest.raises(JournalError, match="corrupt"):
        build(route, Journal(MemoryStore(bytes(data)), **KEY))
    assert sent == []


@pytest.mark.parametrize("game", ["ecarte", "piquet"])
def test_the_board_s_journal_writes_once_a_decision_not_once_an_input(game):
    """Real flash (littlefs) rewrites a file's last block at every append: the board holds
    records and writes them together once what came has all come (a seat's presses, the
    cards asked for), before anything they caused leaves the board. A journal that writes
    each input does so once an input; the games journaled are the same."""
    each, held = Rig(6, game, held=False), Rig(6, game, held=True)
    got_each, got_held = each.run(1), held.run(1)
    inputs = sum(len(g["inputs"]) for g in got_each)
    assert total_events(got_each) == total_events(got_held)
    assert each.store.writes >= inputs > 20
    assert held.store.writes * 10 <= each.store.writes * 6, (held.store.writes, each.store.writes)
    assert [g["done"] for g in got_held] == [g["done"] for g in got_each]


def down_for(seed, game, at, ms, held):
    """A board that goes down `at` events into the game for `ms` while its devices go on
    (what they send meanwhile is lost), then boots from its journal; its log after 3 deals
    (at=None: never down)."""
    rig = Rig(seed, game, held=held)

    def step(board=True):
        rig.now += 1
        if board:
            rig.ctrl.step(rig.now)
        for d in rig.devices:
            d.step(rig.now)
        for line in rig.lines:
            line.step(rig.now)

    if at is not None:  # (None: the uninterrupted game)
        while len(rig.game.log) < at:
            step()
        for _ in range(ms):
            step(False)
            for _a, end in rig.wires:
                end.inbox.clear()
        rig.boot()
    while rig.game.finished_deals() < 3:
        assert rig.now < 200000, rig.ctrl.faults
        step()
    return list(rig.game.log)


def first_game_lasts(seed, game, events, held):
    """Whether the seed's first game, never down, is still going at `events` events."""
    rig = Rig(seed, game, held=held)
    while len(rig.game.log) < events and rig.game.finished_games() == 0:
        rig.now += 1
        rig.ctrl.step(rig.now)
        for d in rig.devices:
            d.step(rig.now)
        for line in rig.lines:
            line.step(rig.now)
    return rig.game.finished_games() == 0


@pytest.mark.parametrize("game", ["ecarte", "piquet", "club"])
@pytest.mark.parametrize("held", [False, True], ids=["a-record-a-write", "held"])
def test_a_board_down_while_its_devices_go_on_resumes_into_the_same_game(game, held):
    """Every input the board took was written before anything it caused left the board
    (its acknowledgement, a view, a DRAW): so the devices send again what it lost, and
    after an outage of any length the game is the uninterrupted one. (The held journal
    used to show views of inputs not yet written: a seat acted on them, and after the
    outage the other seat's press came first; écarté and club resumed into another game.)"""
    outages = ((60, 1500), (60, 5), (120, 300))
    seed = next(s for s in range(7, 60) if first_game_lasts(s, game, 120, held))  # every outage in one game
    ref = down_for(seed, game, None, 0, held)
    for at, ms in outages:
        got = down_for(seed, game, at, ms, held)
        n = min(len(got), len(ref))
        assert n > 100 and got[:n] == ref[:n], (at, ms)
