# pyright: reportAttributeAccessIssue=false
# (a mixin of the game's rules, rules.py: the state it reads and writes is declared there)
#
# Écarté's play and score (SPEC §4 "King", "Play", "Scoring", "Gallery"): the trump king,
# tricks, the game to 5 and its value, the stakes and bets settled (wagers.py), rubbers,
# and pool écarté's rotation (000:91-93).
from ...cards import KING, name, rank, suit
from ..rules import CHANCE, IllegalAction
from ..rules import show as _show
from .events import ANSWER, PLAY


class Playing:
    # ---- the king -------------------------------------------------------------------
    def holds_king(self, seat):
        return self.trump_suit is not None and \
            any(rank(c) == KING and suit(c) == self.trump_suit for c in self.hands[seat])

    def _king_why(self, seat):
        p = self.played[seat]
        k = [i for i in range(len(p)) if rank(p[i]) == KING and suit(p[i]) == self.trump_suit]
        ph = self.resume[0] if self.phase == ANSWER else self.phase  # a question pending: where
        if ph != PLAY and not (self.phase == ANSWER and not p):
            return "the king is announced once the exchange is over"
        if self.announced[seat]:
            return "already announced"
        if not k and not self.holds_king(seat):
            return "it does not hold the king of trumps"
        if k and k[0] > 0:
            return "its king of trumps was not its first card"
        if k:  # 000:58
            return ("its king of trumps, led, has been answered" if seat == self.elder
                    else "it has played again since its king of trumps")
        return "its first card is already played"

    def _played_king(self, seat):
        """000:58: a king led first may be announced until it is answered; a king that is
        the dealer's first card played, until he plays again."""
        p = self.played[seat]
        if len(p) != 1 or rank(p[0]) != KING or suit(p[0]) != self.trump_suit:
            return False
        return seat == self.dealer or self.led == p[0]

    def king_open(self, seat):
        """May `seat` announce the trump king now? Before his first card is played, while
        a question is pending included (SPEC §4: its answer may end the hand), or just
        after it as 000:58 allows."""
        if self.announced[seat]:
            return False
        ph = self.phase
        if ph == ANSWER:
            if not self.played[seat]:
                return self.holds_king(seat)
            ph = self.resume[0]  # asked in the play, or in the exchange
        if ph != PLAY:
            return False
        if not self.played[seat]:
            return self.holds_king(seat)
        return self._played_king(seat)

    # ---- play -------------------------------------------------------------------------
    def start_play(self):
        self.phase, self.to_act, self.leader, self.led = PLAY, self.elder, self.elder, None

    def _verify_play(self, seat, c):
        if c not in self.hands[seat]:
            raise IllegalAction("seat %d cannot play %s: not in its hand" % (seat, _show(c)))
        legal = self.legal_cards(seat)
        if c not in legal:
            raise IllegalAction("seat %d cannot play %s: %s (legal: %s)" % (
                seat, name(c), self._play_rule(seat), " ".join(name(x) for x in legal)))

    def _play_rule(self, seat):
        if any(suit(x) == suit(self.led) for x in self.hands[seat]):
            return "it must follow suit and win the trick if able"
        return "it is void in the suit led and must trump"

    def _on_play(self, seat, c):
        self.hands[seat].remove(c)
        self.played[seat].append(c)
        self.emit(("play", seat, c))
        if self.led is None:
            self.led, self.to_act = c, 1 - seat
            return
        winner = seat if self.ev.trick_winner(self.led, c, self.trump_suit, self.strength) else 1 - seat
        self.tricks[winner] += 1
        self.emit(("trick", winner, sum(self.tricks)))
        self.led, self.leader, self.to_act = None, winner, winner
        if sum(self.tricks) == self.hand_size:
            self.end_hand(*self.hand_points(self.tricks))

    # ---- the score ------------------------------------------------------------------------
    def end_hand(self, seat, points, reason):
        if not self.score(seat, points, reason):
            self.new_deal()

    def score(self, seat, points, reason):
        """Add points; return True if that ended the game (and so the deal)."""
        self.scores[seat] += points
        self.deal_points[seat] += points
        self.emit(("score", seat, (points, reason)))
        if self.scores[seat] < self.options.target:
            return False
        loser = 1 - seat
        value = self.ev.game_value(self.scores[loser])
        self.emit(("game", seat, value))
        pool = self.options.pool
        for payer, payee, amount in self.wagers.settle(self.seated[seat], self.seated[loser], value, pool):
            self.emit(("pay", payer, (payee, amount)))
        if self.wagers.next:  # the supervisor's limits, for the game to come
            from .limits import in_force
            in_force(self)
        if pool:
            self._rotate(seat)
        else:
            self.games[seat] += 1
            if self.games[seat] * 2 > self.options.rubber:
                self.rubbers[seat] += 1
                self.emit(("rubber", seat, tuple(self.games)))
                self.games = [0, 0]
        self.emit(("balances", CHANCE, tuple(self.wagers.balances)))
        self.scores = [0, 0]
        self.game_no += 1
        self.wagers.locked = None  # the next game's bets: locked at its first card
        self.new_deal()
        return True

    def ante(self):
        """Pool écarté's pool begins: each of the three puts in the stake (the losers of
        its games add to it, wagers.py); the seat that wins two games running takes it."""
        for payer, payee, amount in self.wagers.ante(self.options.players):
            self.emit(("pay", payer, (payee, amount)))

    def _rotate(self, pos):
        """Pool écarté (000:91-93): the loser swaps with the watcher until a seat wins two
        games running, which wins the pool."""
        s = self.seated
        w = s[pos]
        self.streak = [w, self.streak[1] + 1 if self.streak[0] == w else 1]
        if self.streak[1] == 2:
            self.pools[w] += 1
            self.emit(("pool", w, self.wagers.take(w)))
            self.streak = [-1, 0]
            self.ante()
        s[1 - pos], s[2] = s[2], s[1 - pos]
        self.emit(("seats", CHANCE, tuple(s)))

    # ---- bets -------------------------------------------------------------------------
    def _verify_bet(self, seat, value):
        try:
            side, amount = value
        except (TypeError, ValueError):
            raise IllegalAction("a bet is (side, amount), got %r" % (value,))
        why = self.wagers.bet_error(seat, side, amount, self.players())
        if why:
            raise IllegalAction("seat %r cannot bet %r: %s" % (seat, value, why))
