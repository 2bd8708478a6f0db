# Écarté's options: the rules of SPEC §4 by default; every variant is these as data.
from .. import rules

class Options(rules.Options):
    """Écarté options; the defaults are the rules of SPEC §4."""

    FIELDS = ("packets", "target", "rubber", "ace_high", "dealer_must_exchange", "doubling",
              "offer_point", "pool", "quick", "stake", "gallery")

    def __init__(self, packets=(3, 2), target=5, rubber=3, ace_high=False,
                 dealer_must_exchange=False, doubling=False, offer_point=False,
                 pool=False, quick=False, stake=1, gallery=0):
        if quick:
            packets = (2, 2)  # the quick game of seed 001: 4 cards each, the 9th is trump
        elif tuple(packets) not in ((2, 3), (3, 2)):
            raise ValueError("packets must be (2, 3) or (3, 2), got %r" % (packets,))
        if rubber not in (1, 3, 5, 7, 11):
            raise ValueError("a rubber is best of 1, 3, 5, 7 or 11 games, got %r" % (rubber,))
        if not 0 <= gallery <= 8 - (3 if pool else 2):
            raise ValueError("a table has 8 seats: %r gallery seats do not fit" % (gallery,))
        self.packets = tuple(packets)
        self.hand = self.packets[0] + self.packets[1]
        self.target = target
        self.rubber = rubber
        self.ace_high = ace_high
        self.dealer_must_exchange = dealer_must_exchange
        self.doubling = doubling
        self.offer_point = offer_point
        self.pool = pool
        self.quick = quick
        self.stake = stake
        self.gallery = gallery
        self.players = 3 if pool else 2
