# Stakes and balances at the table: pure accounting, no I/O (SPEC §4 "Gallery").
#
# Accounts are the table seats, and in pool écarté the pool. The two players stake
# `stake` per game: the loser pays the winner stake x game value (treble, double,
# single); in pool écarté he pays it into the pool, which each of the three seeded with
# the stake when it began, and which the seat that wins two games running takes. A
# gallery seat backs one of the players for the game at even money x game value; the
# player backed against covers the bet. Every movement of money is a transfer between
# two accounts, so the balances and the pool always sum to 0.

MAX_BET = 20  # units a gallery seat may put on one game
FIELDS = ("balances", "stake", "max_bet", "standing", "locked", "pool", "next")
# the account of pool écarté's pool is "pool"


class Wagers:
    def __init__(self, accounts, stake=1, max_bet=MAX_BET):
        if stake < 0 or accounts < 2:
            raise ValueError("stake must be >= 0 and a table has 2 players, got %r, %r" % (stake, accounts))
        self.balances = [0] * accounts
        self.stake = stake
        self.max_bet = max_bet
        self.standing = {}  # bettor -> (side, amount): what he backs from the next game on
        # [(bettor, backed seat, against seat, amount)] for the game in play; None: to be
        # locked when the game's first card is dealt (the rules call lock then)
        self.locked = None
        self.pool = 0  # pool écarté's pool
        self.next = None  # [stake, max_bet]: the supervisor's, from the next game (limits.py)

    def bet_error(self, bettor, side, amount, players):
        """Why this bet cannot be placed (None if it can). `players` are the seats in play."""
        if not isinstance(bettor, int) or not 0 <= bettor < len(self.balances):
            return "no account %r at this table" % (bettor,)
        if bettor in players:
            return "seat %d plays: a player cannot back a side" % bettor
        if side not in (0, 1):
            return "a bet backs player 0 or 1, not %r" % (side,)
        if not isinstance(amount, int) or not 0 <= amount <= self.max_bet:
            return "a bet is 0 to %d units, not %r" % (self.max_bet, amount)
        return None

    def place(self, bettor, side, amount):
        """Set a gallery seat's standing bet; it is locked in when the next game starts."""
        if amount:
            self.standing[bettor] = (side, amount)
        elif bettor in self.standing:
            del self.standing[bettor]

    def lock(self, players):
        """A game starts between players = (seat backed by side 0, seat backed by side 1)."""
        self.locked = []
        for bettor in sorted(self.standing):
            side, amount = self.standing[bettor]
            if bettor not in players:
                self.locked.append((bettor, players[side], players[1 - side], amount))

    def settle(self, winner, loser, value, pool=False):
        """The game is over: return the transfers [(payer, payee, amount)] and apply them;
        `pool`: the loser's stake goes into the pool."""
        out = []
        if self.stake:
            out.append((loser, "pool" if pool else winner, self.stake * value))
        for bettor, backed, against, amount in self.locked or ():
            if backed == winner and against == loser:
                out.append((against, bettor, amount * value))
            elif backed == loser and against == winner:
                out.append((bettor, against, amount * value))
        self.locked = []
        for payer, payee, amount in out:
            self.transfer(payer, payee, amount)
        return out

    def ante(self, players):
        """A pool begins: each player puts the stake in. Returns the transfers."""
        out = [(s, "pool", self.stake) for s in range(players) if self.stake]
        for payer, payee, amount in out:
            self.transfer(payer, payee, amount)
        return out

    def take(self, seat):
        """The pool goes to `seat`: returns what it held."""
        won, self.pool = self.pool, 0
        self.balances[seat] += won
        return won

    def snapshot(self):
        from ..snapshot import take
        return take(self, FIELDS)

    def restore(self, frozen):
        from ..snapshot import restore
        restore(self, frozen, FIELDS)

    def transfer(self, payer, payee, amount):
        if amount < 0 or payer == payee:
            raise ValueError("a transfer moves a positive amount between two accounts, got %r" %
                             ((payer, payee, amount),))
        if payee == "pool":
            self.pool += amount
        else:
            self.balances[payee] += amount
        self.balances[payer] -= amount
