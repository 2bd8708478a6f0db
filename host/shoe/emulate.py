# `tapis shoe emulate`: act as a shoe on a port, answering SHUFFLE and DRAW frames as the
# table's shoe (simulator/table/devices.py EmuShoe), or dealing the pack unasked; what goes through
# the port is shown as the monitor would show it.
import sys
import time

from tapis.host import args as A
from tapis.host.shoe.session import Clock, emit, expired, opened, table_key
from tapis.simulator.port import Port


class _Tap(Port):
    """A Port that logs what goes through it, decoded, as the monitor would show it (a frame
    the link sends again is marked resent)."""

    def __init__(self, port, args, clock):
        from tapis.host.shoe.traffic import Monitor

        self.port, self.args, self.clock = port, args, clock
        self.rx, self.tx = Monitor("frames"), Monitor("frames")

    @property
    def cards(self):
        """Cards delivered (each once, whatever the resends)."""
        return self.tx.counts["cards"]

    def read(self):
        data = self.port.wait(0.001)
        for ev in self.rx.feed(data) if data else ():
            emit(self.args, self.clock, dict(ev, direction="in"), "<- ")
        return data

    def write(self, data):
        for ev in self.tx.feed(data):
            emit(self.args, self.clock, dict(ev, direction="out"), "-> ")
        return self.port.write(data)


def _stream(args, port, clock, rng):
    """Deal the shuffled pack unasked, one card every --interval seconds, then the empty
    shoe's fault: as text lines, or as frames from the shoe's address (sequence 1, 2, ...)."""
    from tapis.firmware.link import frames as F
    from tapis.firmware import wire as W
    from tapis.firmware.offboard.dialect import card_line
    from tapis.host.shoe.traffic import text_pack

    tap = _Tap(port, args, clock)
    tap.tx.dialect = args.dialect
    text = args.dialect == "text"

    def card(c, seq):
        return card_line(c) if text else F.encode(W.SHOE, seq & 255, W.CARD, bytes((c,)))

    def empty(seq):
        return b"ERR E\n" if text else F.encode(W.SHOE, seq & 255, W.FAULT, bytes((W.EMPTY,)))

    seq = 0
    for c in text_pack(args.pack, args.decks, rng):
        if (args.count and tap.cards >= args.count) or expired(args, clock):
            return 0
        seq += 1
        tap.write(card(c, seq))
        if args.interval > 0:
            time.sleep(args.interval)
    tap.write(empty(seq + 1))
    return 0


def emulate(args):
    from tapis.firmware.offboard.rng import Seeded

    seed = args.seed if args.seed is not None else A.new_seed()
    key = table_key(args)  # a bad key file said before the port is opened
    port = opened(args)
    clock = Clock()
    streaming = args.stream or args.dialect == "text"
    sys.stderr.write("emulating a shoe on %s (%s dialect%s, seed %d); Ctrl-C to stop\n"
                     % (args.port, args.dialect, ", dealing unasked" if streaming else "", seed))
    sys.stderr.flush()
    rng = Seeded(seed)
    try:
        if streaming:
            return _stream(args, port, clock, rng)
        from tapis.simulator.table.devices import EmuShoe

        tap = _Tap(port, args, clock)
        shoe = EmuShoe(tap, rng, key=key)
        while not expired(args, clock) and not (args.count and tap.cards >= args.count):
            shoe.step(int(clock.elapsed() * 1000))
        return 0
    finally:
        port.close()
