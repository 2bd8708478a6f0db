"""Deck counts (issue 30 point 6, SPEC §10; COMAR 36.05.03.27 C; firmware/table/packcount.py):
each pack (32 cards: écarté, piquet; 36 au cent) or club's shoe (104) is counted as it is
loaded and at its end; a wrong count is a shoe tilt. A pack loaded short or long is pulled
before any card of it is played (the deal is dealt from a fresh pack, 000:79); a pack that
ends short is found when the next is loaded, the deal it was found in standing. The
emulated shoe deals a short or long pack (simulator/table/faults.py), and counts as a counting
shoe does (COUNT frames), while the board counts the cards that came out."""
import pytest

from tapis.firmware.offboard import deck
from tapis.firmware import wire as W
from tapis.firmware.table import packcount
from tapis.firmware.journal.writer import Journal
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.journal.resume import load
from tapis.firmware.games.rules import CHANCE
from tapis.firmware.eventlog.log import EventLog
from tapis.simulator.table.emulated import EmulatedTable, faulty_table
from test_tilts import frozen, run_cleared

GAMES = ("ecarte", "piquet", "club")
SIZE = {"ecarte": deck.PACK_32, "piquet": deck.PACK_32, "club": deck.SHOE_104}


def logged():
    """An event log for a table (in memory): its deck-count tilts are read back from it."""
    return EventLog(MemoryStore(), device="test", clock=lambda: 0, unit="ms")


def tilts(t):
    store = getattr(t, "events_store", None) or t.events.store
    return [e["d"] for e in EventLog(store).since(0) if e["c"] == "deck-count" and e.get("l")]


def load_events(t):
    """The rules events the board journaled, in order."""
    t.journal.flush()
    return [e for g in load(t.journal) for _a, evs, _f in g["inputs"] for e in evs]


def shoe_cards(t):
    """The shoe's cards the board applied, in order (the journal's inputs)."""
    t.journal.flush()
    return [a[2] for g in load(t.journal) for a, _e, _f in g["inputs"] if a[0] == "shoe" and a[1] == CHANCE]


def packs(game, n, seed=11):
    """n packs of the game's size in known orders."""
    import random
    r = random.Random(seed)
    out = []
    for _ in range(n):
        p = deck.pack(SIZE[game])
        r.shuffle(p)
        out.append(p)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_right_packs_never_tilt_and_deal_as_before(game):
    """Every pack loaded and ended counted right, over several packs (club: more than one
    shoe); the deal records are the same with the counts on (tests/firmware/games/test_golden.py too)."""
    t = EmulatedTable(5, game, events=logged())
    t.run_deals({"ecarte": 6, "piquet": 4, "club": 12}[game])
    assert tilts(t) == [] and t.controller.errors.get("malformed", 0) == 0
    assert t.controller.pack == SIZE[game]  # the pack in play was counted as it was loaded


@pytest.mark.parametrize("game", ("ecarte", "piquet"))  # (club's table takes no misfeed)
def test_misfeeds_are_counted_out_of_the_pack(game):
    """Cards the shoe brought out in a FAULT (unread, face up, two at once) are out of the
    pack like a CARD: a pack that misfeeds still counts right at its end."""
    t = faulty_table(7, game=game, events=logged())
    t.shoe.rate = 0.05
    t.run_deals({"ecarte": 6, "piquet": 4, "club": 10}[game])
    assert [f for _p, _n, f in t.shoe.injected]  # it did misfeed
    assert tilts(t) == []


@pytest.mark.parametrize("fault, loaded", [("short", -1), ("long", +1)])
@pytest.mark.parametrize("game", GAMES)
def test_a_pack_loaded_short_or_long_tilts_and_is_pulled_before_a_card_of_it_is_played(game, fault, loaded):
    stack = packs(game, 3)
    t = faulty_table(3, {(1, 0): fault}, [list(p) for p in stack], game=game, journal=Journal(MemoryStore()),
                     events=logged())
    t.run(lambda g: bool(t.controller.locked))
    assert t.controller.locked == ["deck-count"] and frozen(t)  # locked until the supervisor clears it
    run_cleared(t, lambda g: g.finished_deals() >= 2)
    n = SIZE[game]
    seen = tilts(t)
    assert seen[0] == "a pack of %d loaded with %d cards: pulled, a fresh one asked for" % (n, n + loaded)
    assert len(seen) == 1 and t.shoe.packs >= 2
    # no card of the pulled pack was played: the deal began with the fresh pack's first cards
    assert shoe_cards(t)[:2] == stack[1][:2]  # (écarté, piquet: the cut; club: its first deal)
    assert any("pack count wrong: %d cards for %d" % (n + loaded, n) in f for f in t.controller.faults)


@pytest.mark.parametrize("game", GAMES)
def test_a_card_lost_from_the_pack_is_found_at_its_end(game):
    """A card falls out of the pack unseen: the pack ends a card short (what came out and
    what is left), found when the next pack is loaded; the deal it was found in stands."""
    first = 1 if game == "club" else 2  # (écarté and piquet cut from a pack of their own first)
    t = faulty_table(3, {(first, 3): "lose"}, game=game, events=logged())
    if game == "club":  # a shoe lasts several deals: until its talia ends
        t.run(lambda g: tilts(t) or g.finished_deals() >= 30)
    else:
        run_cleared(t, lambda g: g.finished_deals() >= 2)
    got = tilts(t)
    assert len(got) == 1 and got[0].startswith("the pack of %d ended with %d cards: " % (SIZE[game], SIZE[game] - 1))
    assert t.game.finished_deals() >= 1


@pytest.mark.parametrize("game", ("ecarte", "piquet"))
def test_a_short_pack_the_shoe_ran_out_of_voids_the_deal_and_its_count_tilts(game):
    """The shoe runs empty in a deal (the pack lacks every card from the 5th on, though it
    was loaded whole): the laws void the deal (the game's "missing"), and the pack, counted
    at its end, is short: a tilt."""
    t = faulty_table(3, {(2, 5): "missing"}, game=game, events=logged(), journal=Journal(MemoryStore()))
    run_cleared(t, lambda g: g.finished_deals() >= 2)
    voids = [e for e in load_events(t) if e[0] in ("missing", "void")]
    assert [e[0] for e in voids][:2] == ["missing", "void"]
    assert tilts(t) == ["the pack of 32 ended with 4 cards: 4 came out, 0 were left in it"]


def test_a_malformed_count_is_counted_and_changes_nothing():
    t = EmulatedTable(3, "ecarte", events=logged())
    t.run_deals(1)
    before = t.controller.pack, t.controller.errors.get("malformed", 0)
    t.shoe.link.send(W.SHOE, W.COUNT, b"X\x00\x20")
    t.shoe.link.send(W.SHOE, W.COUNT, b"L\x00")
    for _ in range(500):
        t.step()
    assert t.controller.errors.get("malformed", 0) == before[1] + 2 and tilts(t) == []


def test_a_board_that_resumed_mid_pack_counts_it_on_from_its_journal():
    """What came out before the reboot is what the journal's game dealt of the pack: the
    board counts on from there, so that pack's end is counted too (and the next ones)."""
    from table_rig import Rig
    t = Rig(3, "ecarte", events_store=MemoryStore())
    t.run(0)
    t.run_until = None
    for _ in range(3000):
        t.step()
    dealt = t.ctrl.game.delivered
    assert 0 < dealt < SIZE["ecarte"] and t.ctrl.pack == SIZE["ecarte"]
    t.boot()  # a reboot in the middle of a pack
    assert (t.ctrl.pack, t.ctrl.out) == (SIZE["ecarte"], dealt)
    t.run(1)
    for _ in range(20000):  # (the pack ended and counted, the next counted as it was loaded)
        if t.ctrl.game.delivered and t.ctrl.out == t.ctrl.game.delivered and t.ctrl.game.finished_deals() >= 1:
            break
        t.step()
    assert tilts(t) == [] and t.ctrl.pack == SIZE["ecarte"]


@pytest.mark.parametrize("lost", [False, True])
def test_a_pack_whose_deal_a_torn_record_voided_is_counted_at_its_end(lost):
    """The power goes while a card's record is written in the middle of a deal being dealt:
    the reboot voids the deal (docs/rules.md) and a fresh pack deals it again. The voided
    deal's cards came out of the pack all the same (those journaled whole, and the one in
    flight, which comes again and is set aside), so the pack is counted at its end: right,
    no tilt; a card that fell out of it unseen before the cut, a tilt."""
    from table_rig import FailingStore, PowerLoss, Rig
    from tapis.simulator.table.faults import FaultyShoe
    from tapis.simulator.table.emulated import source
    store = FailingStore()
    t = Rig(4, "ecarte", store, held=False, events_store=MemoryStore())
    port = t.devices[0].link.port
    faults = {(3, 1): "lose"} if lost else {}  # pack 3: the voided deal's
    t.devices[0] = t.shoe = FaultyShoe(port, source(4), faults, None, key=t.key)
    t.boot()
    while not any(e[0] == "deal" and e[2] == 2 for e in t.ctrl.game.log):
        t.step()
    store.at, store.torn = store.writes + 2, 5  # the deal's 2nd card's record is cut after 5 bytes
    try:
        for _ in range(5000):
            t.step()
    except PowerLoss:
        t.boot()
    assert t.ctrl.voided
    assert (t.ctrl.pack, t.ctrl.out) == (SIZE["ecarte"], 1)  # the card journaled whole
    while t.ctrl.game.finished_deals() < 2 and not t.ctrl.locked:
        t.step()
    # 11 came out: the card journaled whole, the ten of the DRAW in flight set aside
    expect = ["the pack of 32 ended with 31 cards: 11 came out, 20 were left in it"] if lost else []
    assert tilts(t) == expect


# ---- packcount's rule, on a controller's fields alone (firmware/table/packcount.py) ----------
class CountingController:
    """The fields and calls of Controller that packcount reads and makes."""

    def __init__(self, asked=32):
        self.asked, self.pack, self.out, self.awaiting = asked, 0, 0, 17
        self.faults, self.tilts, self.events, self.errors = [], [], [], []

    def tilt(self, cls, detail):
        self.tilts.append((cls, detail))

    def event(self, cls, detail):
        self.events.append((cls, detail))

    def error(self, kind, detail):
        self.errors.append((kind, detail))


def count(what, n):
    return bytes([what, n >> 8, n & 0xFF])


def test_a_pack_loaded_whole_is_counted_on_and_one_that_ends_whole_raises_nothing():
    c = CountingController(asked=104)
    packcount.on_count(c, count(W.LOADED, 104))
    assert (c.pack, c.out) == (104, 0) and not c.tilts
    c.out = 90  # the board counted 90 cards out of it
    packcount.on_count(c, count(W.LEFT, 14))
    assert c.pack == 0 and not c.tilts and not c.errors


def test_a_wrong_count_at_loading_pulls_the_pack_and_at_its_end_tilts():
    c = CountingController(asked=32)
    packcount.on_count(c, count(W.LOADED, 31))
    assert [t[0] for t in c.tilts] == ["deck-count"] and "31 cards" in c.tilts[0][1]
    assert c.pack == -1 and c.awaiting == 0 and c.faults == ["pack count wrong: 31 cards for 32"]
    c = CountingController(asked=32)
    packcount.on_count(c, count(W.LOADED, 32))
    c.out = 20
    packcount.on_count(c, count(W.LEFT, 13))  # 20 out and 13 left: 33 in a pack of 32
    assert c.tilts == [("deck-count", "the pack of 32 ended with 33 cards: 20 came out, 13 were left in it")]


def test_a_malformed_count_is_an_error_not_a_tilt():
    c = CountingController()
    packcount.on_count(c, bytes([0x00, 0, 32]))
    packcount.on_count(c, count(W.LOADED, 32)[:2])
    assert [e[0] for e in c.errors] == ["malformed", "malformed"] and not c.tilts and c.pack == 0


def test_a_resumed_board_counts_on_from_what_its_game_says_came_out():
    from types import SimpleNamespace
    from tapis.firmware.games.club import rules as club
    g = club.Club(club.Options(seats=3, bank=20, minimums=(0, 0)))
    g.left = 60  # 44 cards of its shoe dealt
    c = SimpleNamespace(game=g, pack=0, out=0)
    packcount.resumed(c, 0)
    assert (c.pack, c.out) == (deck.SHOE_104, 44)
    from tapis.firmware.games.piquet import rules as piquet
    g = piquet.Piquet(piquet.Options(pack=36, deals=6), first_dealer=0)
    c = SimpleNamespace(game=g, pack=0, out=0)
    packcount.resumed(c, 5)  # a deal the reboot voided (piquet au cent): its cards came out all the same
    assert (c.pack, c.out) == (36, 5)
    c = SimpleNamespace(game=g, pack=0, out=0)
    packcount.resumed(c, 0)  # between two packs: nothing to count on
    assert (c.pack, c.out) == (0, 0)
