# What piquet speaks (firmware/games/piquet/events.py): its phases named in order, every event
# the rules emit declared, and the flags that keep hidden cards and declarations off the display.
from tapis.firmware.games import rules as G
from tapis.firmware.games.piquet import events as E
from tapis.firmware.games.piquet import rules as R
import piquet_driver


def test_the_phases_are_named_in_their_order():
    for phase, label in ((E.CUT, "cut"), (E.DEAL, "deal"), (E.BLANCHE, "blanche"), (E.EXCHANGE, "exchange"),
                         (E.LOOK, "look"), (E.DECLARE, "declare"), (E.PLAY, "play")):
        assert E.PHASE_NAMES[phase] == label
    assert R.Piquet.PHASE_NAMES is E.PHASE_NAMES and R.Piquet.EVENTS is E.EVENTS


def test_cards_a_seat_holds_are_hidden_and_declarations_never_shown():
    for kind in ("card", "talon", "draw", "rest", "double feed"):
        assert E.EVENTS[kind] & G.HIDDEN, kind
    for kind in ("cut", "show", "play", "exposed"):
        assert E.EVENTS[kind] & G.CARDS and not E.EVENTS[kind] & G.HIDDEN, kind
    assert E.EVENTS["declare"] & G.OFF and E.EVENTS["sink"] & G.OFF
    for kind in E.PLAYER_ACTIONS:  # a player's action replays as itself
        assert E.EVENTS[kind] & G.INPUT, kind


def test_every_event_the_rules_emit_is_declared():
    seen = set()
    piquet_driver.drive(7, 6, first_dealer=None, check=lambda g: seen.update(e[0] for e in g.log))
    assert seen <= set(E.EVENTS), sorted(seen - set(E.EVENTS))
    assert {"cut", "deal", "card", "talon", "exchange", "draw", "verdict", "play", "trick", "end",
            "partie"} <= seen
