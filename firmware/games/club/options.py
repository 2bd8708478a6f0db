# Club écarté's options: SPEC §4 and seed 004:29 by default; the variants as data.
from .. import rules

class Options(rules.Options):
    """Club options; the defaults follow SPEC §4 and seed 004:29 (bank 15; the first and
    second punters stake at least 6 and 3 on the first card). The supervisor's limits
    (bank.py) are checked by building these."""

    FIELDS = ("seats", "balance", "bank", "minimums", "commission", "talias", "first_banker",
              "supervised")

    def __init__(self, seats=4, balance=100, bank=15, minimums=(6, 3), commission=0,
                 talias=2, first_banker=0, supervised=False):
        if not 2 <= seats <= 8:
            raise ValueError("club écarté seats 2 to 8, got %r" % (seats,))
        if bank < 1 or balance < 0:
            raise ValueError("the bank must be at least 1 and balances not negative, got %r, %r"
                             % (bank, balance))
        if len(minimums) != 2 or min(minimums) < 0:
            raise ValueError("minimums are two amounts, got %r" % (minimums,))
        if not 0 <= commission < 100:
            raise ValueError("the house commission is a percent in 0..99, got %r" % (commission,))
        if not 0 <= first_banker < seats:
            raise ValueError("no seat %r to hold the first bank" % (first_banker,))
        self.seats = seats
        self.balance = balance
        self.bank = bank
        self.minimums = tuple(minimums)
        self.commission = commission
        self.talias = talias  # a responsible bank plays at most this many talias
        self.first_banker = first_banker
        # a responsible bank answers every stake without limit: supervised, a banker may
        # hold one only when the supervisor authorised it for his bank (SPEC §8)
        self.supervised = bool(supervised)
