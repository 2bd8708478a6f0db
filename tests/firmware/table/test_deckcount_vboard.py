"""Deck counts across a power cycle on the MicroPython virtual board (the unix port: its
journal and event log outlive the cut): the board power-cycled in the middle of a pack
(écarté: a deal's pack; club: its shoe of 104) goes on counting it from what its journal's
game says came out of it, so its end is counted right: right packs never tilt, and a card
lost from the pack before the power cut is still found at that pack's end
(firmware/table/packcount.py resumed; certification.md note 3)."""
from pathlib import Path

import pytest

from tapis.firmware.eventlog.log import EventLog
from tapis.firmware.link.hello import TEST_KEY
from tapis.firmware.offboard.memstore import MemoryStore
from tapis.firmware.offboard.rng import source
from tapis.simulator.table.faults import FaultyShoe
from tapis.simulator.boards.vtable import VirtualBoardTable

SIZE = {"ecarte": 32, "club": 104}


def board(seed, game, faults=None):
    vb = VirtualBoardTable(seed, game, unix_heap=400 * 1024)
    port = vb.devices[0].link.port
    vb.devices[0] = vb.shoe = FaultyShoe(port, source(seed), faults, None, key=vb.key)
    return vb


def entries(vb):
    return EventLog(MemoryStore((Path(vb.board.flash.name) / "events.bin").read_bytes()), TEST_KEY).since(0)


def tilts(vb):
    return [e["d"] for e in entries(vb) if e["c"] == "deck-count"]


def mid_pack(vb, game):
    """On to the middle of a pack: écarté's first deal with four cards of its pack out (the
    pack before it was the cut's own); club's shoe with two deals of it dealt."""
    g = vb.game
    if game == "club":
        vb.run(lambda g: g.finished_deals() >= 2 and g.dealt >= 2)
    else:
        vb.run(lambda g: g.delivered >= 4)
    assert not g.cards_due()[1]  # (in a pack, not between two)


def until(vb, game, done):
    vb.run(lambda g: tilts(vb) or done(g))


@pytest.mark.parametrize("game", ("ecarte", "club"))
def test_right_packs_are_counted_right_across_a_power_cycle_in_the_middle_of_one(game):
    with board(5, game) as vb:
        mid_pack(vb, game)
        vb.power_cycle()
        n = vb.game.finished_deals()
        until(vb, game, lambda g: g.finished_deals() >= n + (12 if game == "club" else 3))
        assert tilts(vb) == []
        assert [e["c"] for e in entries(vb)].count("power-up") == 2


@pytest.mark.parametrize("game", ("ecarte", "club"))
def test_a_card_lost_before_the_power_cut_is_found_at_the_end_of_its_pack(game):
    first = 1 if game == "club" else 2  # (écarté cuts from a pack of its own first)
    with board(3, game, {(first, 3): "lose"}) as vb:
        mid_pack(vb, game)
        vb.power_cycle()
        until(vb, game, lambda g: g.finished_deals() >= 30)
        got = tilts(vb)
    assert len(got) == 1 and got[0].startswith(
        "the pack of %d ended with %d cards: " % (SIZE[game], SIZE[game] - 1)), got
