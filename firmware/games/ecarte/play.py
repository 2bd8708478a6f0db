# pyright: reportAttributeAccessIssue=false
# (a mixin of the game's rules, rules.py: the state it reads and writes is declared there)
#
# Écarté's play and score (SPEC §4 "King", "Play", "Scoring", "Gallery"): the trump king,
# tricks, the game to 5 and its value, the stakes and bets settled (wagers.py), rubbers,
# and pool écarté's rotation (000:91-93).
from ...cards import KING, name, rank, suit
from ...rules import CHANCE, IllegalAction
from ...rules import show as _show
from .events import PLAY


class Playing:
    # ---- the king -------------------------------------------------------------------
    def holds_king(self, seat):
        return self.trump_suit is not None and \
            any(rank(c) == KING and suit(c) == self.trump_suit for c in self.hands[seat])

    def _king_why(self, seat):
        if self.phase != PLAY:
            return "the king is announced once the exchange is over"
        if self.announced[seat]:
            return "already announced"
        if not self.holds_king(seat) and not self._led_king(seat):
            return "it does not hold the king of trumps"
        return "its first card is already played"

    def _led_king(self, seat):
        """Elder may announce a king he led first, until it is answered."""
        p = self.played[seat]
        return len(p) == 1 and self.led == p[0] and rank(p[0]) == KING and \
            suit(p[0]) == self.trump_suit and seat == self.elder and sum(self.tricks) == 0

    def king_open(self, seat):
        """May `seat` announce the trump king now?"""
        if self.phase != PLAY or self.announced[seat]:
            return False
        if not self.played[seat]:
            return self.holds_king(seat)
        return self._led_king(seat)

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
        for payer, payee, amount in self.wagers.settle(self.seated[seat], self.seated[loser], value):
            self.emit(("pay", payer, (payee, amount)))
        self.emit(("balances", CHANCE, tuple(self.wagers.balances)))
        if self.options.pool:
            self._rotate(seat)
        else:
            self.games[seat] += 1
            if self.games[seat] * 2 > self.options.rubber:
                self.rubbers[seat] += 1
                self.emit(("rubber", seat, tuple(self.games)))
                self.games = [0, 0]
        self.scores = [0, 0]
        self.game_no += 1
        self.wagers.lock(self.players())
        self.new_deal()
        return True

    def _rotate(self, pos):
        """Pool écarté (000:91-93): the loser swaps with the watcher until a seat wins two
        games running, which wins the pool."""
        s = self.seated
        w = s[pos]
        self.streak = [w, self.streak[1] + 1 if self.streak[0] == w else 1]
        if self.streak[1] == 2:
            self.pools[w] += 1
            self.emit(("pool", w, 2))
            self.streak = [-1, 0]
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
