# Deck counts (issue 30 point 6; SPEC §10; COMAR 36.05.03.27 C: count the cards, pull the
# deck if the count is wrong). A counting shoe reads every card of a pack as a SHUFFLE
# loads it, and counts what is left in it as the next SHUFFLE unloads it (COUNT frames,
# wire.py). The board counts the cards that came out (controller.py: each CARD, and the
# cards a FAULT brought out), so a pack is counted twice:
#   loaded  the shoe holds the pack's size: 32 (écarté, piquet), 36 (piquet au cent),
#           104 (club's shoe)
#   ended   the cards that came out of it and those left in it make its size (a board
#           resumed in the middle of a pack counts on from what its journal's game says
#           came out of it: resumed())
# A wrong count is a deck-count tilt (note: Controller.tilt), which needs the
# supervisor (the lock is the event log's). What it voids follows the laws (SPEC §4;
# seed 000:79, an imperfect pack: the deal in which it is found is void, earlier deals
# stand; piquet and club follow it): at its loading no card of the deal has come, so the
# deal is dealt again from another pack (the pack is pulled: what it sends is set aside
# and a fresh one is asked for); at its end the deal it was found in is over and scored,
# and earlier deals stand: the tilt stops the next one until the supervisor has a look.
# A shoe that never counts (the text dialect's) is not counted. Loaded for a COUNT only.
from .. import wire as W
from ..compat import const

_PACK, _SHOE = const(32), const(104)  # deck.PACK_32, deck.SHOE_104 (piquet: its options' pack)


def resumed(ctrl, voided):
    """boot.build's, for a controller resumed from the journal: the pack in play when the
    power went is counted on from what the game rebuilt says came out of it (club: the
    cards dealt from its shoe; écarté, piquet: the deal's), so that its end is counted as
    if the power had not gone. A deal the reboot voided (a torn record while it was dealt:
    boot.resume) is not the game's, but its `voided` cards came out of the pack all the
    same (and those in flight, the torn record's among them, come again: on_frame counts
    them as it sets them aside). Not between two packs."""
    g = ctrl.game
    size, left = getattr(g.options, "pack", _PACK), getattr(g, "left", None)
    if voided:  # (écarté, piquet: club's deals go on)
        out = voided
    elif g.cards_due()[1]:
        return
    elif left is not None:  # club
        size, out = _SHOE, _SHOE - left
    else:
        out = getattr(g, "delivered", 0)
    if out > 0:
        ctrl.pack, ctrl.out = size, out


def note(ctrl, detail, tilt=False):
    """A count's result to the event log (class "deck-count"): a wrong count is a tilt
    (Controller.tilt), which locks the table until the supervisor clears it (eventlog/log.py LOCKS)."""
    if tilt:
        ctrl.tilt("deck-count", detail)
    else:
        ctrl.event("deck-count", detail)


def on_count(ctrl, payload):
    """The controller's: a COUNT from the shoe."""
    if len(payload) != 3 or payload[0] not in (W.LOADED, W.LEFT):
        return ctrl.error("malformed", "the shoe's COUNT %r" % (bytes(payload),))
    n = payload[1] << 8 | payload[2]
    if payload[0] == W.LEFT:
        size, out = ctrl.pack, ctrl.out
        ctrl.pack = 0  # (a pulled one's cards end here)
        if size > 0 and out + n != size:
            note(ctrl, "the pack of %d ended with %d cards: %d came out, %d were left in it"
                      % (size, out + n, out, n), True)
        return
    ctrl.pack, ctrl.out = ctrl.asked, 0
    if not ctrl.asked:  # a SHUFFLE of before this boot, answered after it: its size unknown here
        return
    if n != ctrl.asked:
        note(ctrl, "a pack of %d loaded with %d cards: pulled, a fresh one asked for" % (ctrl.asked, n), True)
        ctrl.faults.append("pack count wrong: %d cards for %d" % (n, ctrl.asked))
        # what it sends is set aside until the shoe counts again (controller.on_frame: the
        # next SHUFFLE's COUNTs come after the cards of this DRAW); no card of the deal has
        # come, so the fresh pack asked for now deals it (outgoing.feed_shoe)
        ctrl.pack = -1
        ctrl.awaiting = 0
