# Piquet's options: the Rubicon game of SPEC §4 by default; the variants as data.
from ...cards import SEVEN
from .. import rules

HAND = 12  # cards in a hand

class Options(rules.Options):
    """Piquet options; the defaults are the Rubicon game of SPEC §4.
    pack: 32, or 36 with the sixes (piquet au cent); deals: deals in a partie (0 = play
    until `target`); elder_max: elder's part of the talon; carte_rouge: its value (0 =
    not played); last_trick: the last trick's bonus; cent: trick points are the cards of
    ten and higher in the trick, the lead scores nothing; packets: cards per packet in
    the deal (2, 3 or 4)."""

    FIELDS = ("pack", "deals", "target", "elder_max", "carte_rouge", "last_trick", "cent", "packets")

    def __init__(self, pack=32, deals=6, target=0, elder_max=5, carte_rouge=0, last_trick=1,
                 cent=False, packets=2):
        if pack not in (32, 36):
            raise ValueError("a piquet pack has 32 or 36 cards, got %r" % (pack,))
        if packets not in (2, 3, 4):
            raise ValueError("cards are dealt by 2, 3 or 4, got %r" % (packets,))
        if not 1 <= elder_max < pack - 2 * HAND:
            raise ValueError("elder's part must leave younger a card: %r of a talon of %d"
                             % (elder_max, pack - 2 * HAND))
        if deals < 0 or (deals == 0 and target <= 0):
            raise ValueError("a partie needs a number of deals or a target, got %r and %r"
                             % (deals, target))
        self.pack = pack
        self.deals = deals
        self.target = target
        self.elder_max = elder_max
        self.carte_rouge = carte_rouge
        self.last_trick = last_trick
        self.cent = cent
        self.packets = packets

    @property
    def talon(self):
        return self.pack - 2 * HAND

    @property
    def low_rank(self):
        return SEVEN if self.pack == 32 else SEVEN - 1
