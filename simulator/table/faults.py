# A fault-injecting emulated shoe: it misdeals on cue, as a worn shoe or a careless
# dealer would, and reports what its reader saw in the same frames a real shoe sends.
#
#   "unread"            a card comes out unread            FAULT "U", then the shoe stops
#   "faceup"            a card comes out face up           FAULT "F" card, then stops
#   "double"            two cards come out together        FAULT "D" card card, then stops
#   "duplicate"         a card already dealt comes again   CARD (the shoe cannot tell)
#   "overdraw"          one card more than was asked       CARD beyond the DRAW count
#   "missing"           the pack is short from here on     FAULT "E" when it runs out
#   ("outofturn", seat) the shoe is dealt from that seat   FAULT "T" seat, then stops
#   "lose"              a card falls out of the pack unseen  nothing (its end count is short)
# and, at delivery 0 (as the pack is loaded: its COUNT says so, firmware/table/packcount.py):
#   "short"             the pack loaded lacks a card       COUNT "L" size - 1
#   "long"              a card of another pack is in it    COUNT "L" size + 1
#
# `faults` maps (pack number, delivery number) to a fault: pack 1 is the first pack the
# table loads, delivery n the n-th card (or fault) to come out of it. `rate`: besides, each
# delivery misfeeds with that probability (a card unread, face up or two together; from
# a seeded generator of its own: tapis table --faults shoe=P).
import random

from tapis.firmware.offboard import deck
from tapis.firmware import wire as W
from tapis.firmware.link.hello import TEST_KEY
from tapis.simulator.table.devices import EmuShoe


class FaultyShoe(EmuShoe):
    RANDOM = ("unread", "faceup", "double")

    def __init__(self, port, rng, faults=None, stack=None, addr=W.SHOE, rate=0.0, seed=0, key=TEST_KEY):
        EmuShoe.__init__(self, port, rng, addr, cuts={}, key=key)
        self.rate = rate
        self.chance = random.Random(seed)
        self.faults = dict(faults or {})
        self.stack = [list(p) for p in stack or ()]  # packs to load in this order, then shuffles
        self.packs = 0
        self.n = 0  # deliveries from the current pack
        self.injected = []  # (pack, delivery, fault) as they happened

    def step(self, now_ms):
        for _addr, _seq, ftype, payload in self.link.poll(now_ms):
            if ftype == W.SHUFFLE:
                self.unload()
                self.packs += 1
                self.pack = self.stack.pop(0) if self.stack else \
                    deck.shuffle(deck.pack(payload[0]), self.rng.below)
                self.dealt = self.n = 0
                loaded = len(self.pack)  # a card missing from here on was in it when counted
                for (pack, n), fault in list(self.faults.items()):
                    if pack == self.packs and fault == "missing":
                        del self.faults[(pack, n)]
                        self.injected.append((pack, n, fault))
                        self.pack = self.pack[:n - 1]
                    elif pack == self.packs and n == 0 and fault in ("short", "long"):
                        del self.faults[(pack, n)]
                        self.injected.append((pack, n, fault))
                        self.pack = self.pack[1:] if fault == "short" else self.pack + self.pack[:1]
                        loaded = len(self.pack)
                self.count(W.LOADED, loaded)
            elif ftype == W.DRAW:
                extra = False
                for _ in range(payload[0]):
                    go, more = self.deliver_next()
                    extra = extra or more
                    if not go:
                        break
                else:
                    if extra:
                        self.deliver()

    def deliver_next(self):
        """One delivery; returns (go on with this request, an over-draw is due)."""
        self.n += 1
        fault = self.faults.pop((self.packs, self.n), None)
        if fault is None and self.rate and self.chance.random() < self.rate:
            fault = self.chance.choice(self.RANDOM)
        if fault is None:
            return self._card(), False
        self.injected.append((self.packs, self.n, fault))
        kind = fault[0] if isinstance(fault, tuple) else fault
        if kind == "overdraw":
            return self._card(), True
        if kind == "duplicate":
            self.link.send(self.addr, W.CARD, bytes((self.pack[0],)))
            return True, False
        if kind == "lose":  # unseen: the card after this one falls out of the pack
            self.pack = self.pack[:self.dealt + 1] + self.pack[self.dealt + 2:]
            return self._card(), False
        if kind == "outofturn":
            self.n -= 1  # nothing came out
            self.link.send(self.addr, W.FAULT, bytes((W.OUT_OF_TURN, fault[1])))
            return False, False
        take = 2 if kind == "double" else 1
        if self.dealt + take > len(self.pack):
            return self._card(), False
        cards = bytes(self.pack[self.dealt:self.dealt + take])
        self.dealt += take
        code = {"unread": bytes((W.UNREAD,)), "faceup": bytes((W.FACE_UP,)) + cards,
                "double": bytes((W.DOUBLE,)) + cards}[kind]
        self.link.send(self.addr, W.FAULT, code)
        return False, False

    def _card(self):
        if self.dealt >= len(self.pack):
            self.link.send(self.addr, W.FAULT, bytes((W.EMPTY,)))  # the shoe stops
            return False
        self.deliver()
        return True

