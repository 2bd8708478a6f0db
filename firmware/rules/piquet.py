# Piquet as a pure state machine (SPEC §4, seed 003): the cut, a partie of 6 deals,
# the exchange, carte blanche, declarations refereed by the terminal, trick play, and
# Rubicon scoring.
#
# Inputs are action tuples (kind, seat, value): the shoe's cards are the chance action
# ("shoe", CHANCE, card); the players' are
#   ("blanche", seat, True|False)   declare carte blanche, or keep quiet
#   ("exchange", seat, (cards...))  discard 1..n cards and take as many from the talon
#   ("look", seat, True|False)      look at the talon cards left behind, or not
#   ("declare", seat, category)     declare one's best point/sequence/sets, or
#   ("sink", seat, category)        sink it (declare nothing)
#   ("play", seat, card)
# `verify` raises IllegalAction and changes nothing, `can` answers, `apply` returns the
# events it caused (immutable tuples) and appends them to `self.log`.
from .. import declarations as D
from .. import evaluate
from ..cards import SEVEN, TEN, is_card, name, rank
from ..compat import const
from . import CHANCE, IllegalAction, Rules, unpack
from . import show as _show

CUT = const(0)  # the shoe gives each seat a card; the higher deals first
DEAL = const(1)  # 12 each in packets, then the talon
BLANCHE = const(2)  # a holder of carte blanche declares it, or not
EXCHANGE = const(3)  # the seat to act discards and takes from the talon
LOOK = const(4)  # the seat to act may look at the talon cards it left
DECLARE = const(5)  # point, sequence, sets: declare or sink, elder first
PLAY = const(6)  # 12 tricks

PHASE_NAMES = ("cut", "deal", "blanche", "exchange", "look", "declare", "play")
CATEGORIES = ("point", "sequence", "sets")
PLAYER_ACTIONS = ("blanche", "exchange", "look", "declare", "sink", "play")
_DEALT = ("cut", "card", "talon")
_TALON = const(2)  # a talon slot in the dealing pattern

HAND = const(12)
TRICKS = const(12)


class Options:
    """Piquet options; the defaults are the Rubicon game of SPEC §4.
    pack: 32, or 36 with the sixes (piquet au cent); deals: deals in a partie (0 = play
    until `target`); elder_max: elder's part of the talon; carte_rouge: its value (0 =
    not played); last_trick: the last trick's bonus; cent: trick points are the cards of
    ten and higher in the trick, the lead scores nothing; packets: cards per packet in
    the deal (2, 3 or 4)."""

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


def cent():
    """Piquet au cent: 36 cards, elder takes up to 7, play to 100, trick cards of ten up."""
    return Options(pack=36, deals=0, target=100, elder_max=7, last_trick=0, cent=True)


def rubicon(winner_score, loser_score):
    """The partie's value for its winner: (winner - loser) + 100 when the loser crossed
    the Rubicon (100), else winner + loser + 100. Seed 003: 105:101 -> 104, 97:89 -> 286."""
    if loser_score >= 100:
        return winner_score - loser_score + 100
    return winner_score + loser_score + 100


def inputs(events):
    """The actions that replayed on a fresh Piquet reproduce `events`."""
    out = []
    for e in events:
        if e[0] in _DEALT:
            out.append(("shoe", CHANCE, e[2]))
        elif e[0] in PLAYER_ACTIONS:
            out.append(e)
    return out


def _holding(hand, cat):
    """The key of a hand's best holding in a category (0: nothing to declare)."""
    if cat == 0:
        return D.point_key(hand)
    if cat == 1:
        return D.sequence_key(hand)
    return D.set_key(hand)


def _score_of(hand, cat):
    if cat == 0:
        return D.point_key(hand) >> 8
    if cat == 1:
        return D.sequence_score(hand)
    return D.set_score(hand)


def _cards_of(hand, cat):
    """The cards a winning declaration uses (for carte rouge)."""
    if cat == 0:
        s = D.point_suit(hand)
        return [c for c in hand if c >> 4 == s]
    if cat == 1:
        out = []
        for length, top, s in D.sequences(hand):
            out.extend(s << 4 | r for r in range(top - length + 1, top + 1))
        return out
    ranks = [r for _n, r in D.sets(hand)]
    return [c for c in hand if rank(c) in ranks]


class Piquet(Rules):
    PHASE_NAMES = PHASE_NAMES
    def __init__(self, options=None, first_dealer=None, evaluator=evaluate):
        """first_dealer None: each partie begins with the cut; a seat: that seat deals
        first and the deal simply alternates."""
        self.options = options or Options()
        self.ev = evaluator
        self.cuts = first_dealer is None
        self.log = []
        self.scores = [0, 0]  # in the partie
        self.partie_no = 1
        self.deal_no = 0  # deals begun, over all parties
        self.finished = 0  # deals finished
        self.parties = 0  # parties finished
        self.in_partie = 0  # deals begun in this partie
        self.results = []  # (winner, value, scores) per finished partie
        self.dealer = 1 - first_dealer if first_dealer is not None else 0
        self._out = []
        self._reset_deal()
        if self.cuts:
            self._start_cut()
        else:
            self._new_deal()
        self.log.extend(self._out)

    # ---- what the state looks like -------------------------------------------------
    @property
    def elder(self):
        return 1 - self.dealer

    @property
    def younger(self):
        return self.dealer

    def exchange_range(self, seat):
        """(fewest, most) cards `seat` may exchange now."""
        if seat == self.elder:
            return 1, min(self.options.elder_max, len(self.talon))
        return 1, len(self.talon) - self.taken[self.elder]

    def legal_cards(self, seat):
        if self.phase != PLAY or seat != self.to_act:
            return []
        return self.ev.follow_plays(self.hands[seat], self.led)

    def holding(self, seat, cat):
        return _holding(self.hands[seat], cat)

    def legal_actions(self):
        """Every legal player action now (chance actions are the shoe's)."""
        s, ph = self.to_act, self.phase
        if ph == BLANCHE:
            return [("blanche", s, True), ("blanche", s, False)]
        if ph == LOOK:
            return [("look", s, True), ("look", s, False)]
        if ph == DECLARE:
            return [("declare", s, CATEGORIES[self.cat]), ("sink", s, CATEGORIES[self.cat])]
        if ph == PLAY:
            return [("play", s, c) for c in self.legal_cards(s)]
        if ph == EXCHANGE:
            lo, hi = self.exchange_range(s)
            hand = self.hands[s]
            acts = []
            for mask in range(1 << len(hand)):
                pick = tuple(hand[i] for i in range(len(hand)) if mask >> i & 1)
                if lo <= len(pick) <= hi:
                    acts.append(("exchange", s, pick))
            return acts
        return []

    # ---- verify / can / apply ------------------------------------------------------
    def finished_games(self):
        """How many games (the journal's unit of recall) this state has finished."""
        return self.parties

    def verify(self, action):
        kind, seat, value = unpack(action)
        if kind == "shoe":
            if seat != CHANCE:
                raise IllegalAction("only the shoe delivers cards, not seat %r" % (seat,))
            return self._verify_card(value)
        if kind not in PLAYER_ACTIONS:
            raise IllegalAction("unknown action %r" % (kind,))
        if seat not in (0, 1):
            raise IllegalAction("no seat %r at a piquet table" % (seat,))
        if seat != self.to_act:
            raise IllegalAction("seat %d cannot %s: it is %s" % (seat, kind, self._whose_turn()))
        want = {BLANCHE: ("blanche",), EXCHANGE: ("exchange",), LOOK: ("look",),
                DECLARE: ("declare", "sink"), PLAY: ("play",)}.get(self.phase, ())
        if kind not in want:
            raise IllegalAction("seat %d cannot %s now: the table is at the %s" %
                                (seat, kind, PHASE_NAMES[self.phase]))
        if kind in ("blanche", "look"):
            if value is not True and value is not False:
                raise IllegalAction("%s takes True or False, got %r" % (kind, value))
        elif kind == "exchange":
            self._verify_exchange(seat, value)
        elif kind in ("declare", "sink"):
            if value != CATEGORIES[self.cat]:
                raise IllegalAction("seat %d cannot %s %r: the %s is being declared" %
                                    (seat, kind, value, CATEGORIES[self.cat]))
        elif kind == "play":
            self._verify_play(seat, value)

    def apply(self, action):
        self.verify(action)
        kind, seat, value = action
        self._out = []
        if kind == "shoe":
            self._on_card(value)
        elif kind == "blanche":
            self._emit(action)
            if value:
                self.blanche[seat] = True
            self._next_blanche()
        elif kind == "exchange":
            self._emit((kind, seat, tuple(value)))
            self._on_exchange(seat, tuple(value))
        elif kind == "look":
            self._emit(action)
            if value:
                self.rest_seen[seat] = tuple(self._rest(seat))
                self._emit(("rest", seat, self.rest_seen[seat]))
            self.looked[seat] = True
            self._next_exchange()
        elif kind in ("declare", "sink"):
            self._on_declare(seat, kind == "declare")
        elif kind == "play":
            self._on_play(seat, value)
        out = tuple(self._out)
        self.log.extend(out)
        return out

    # ---- the cut and the deal -----------------------------------------------------------
    def _reset_deal(self):
        self.hands = [[], []]
        self.dealt = [[], []]  # the hands as dealt (before the exchange)
        self.talon = []
        self.discards = [[], []]
        self.set_aside = [(), ()]  # blanche protocol: discards not yet replaced
        self.taken = [0, 0]
        self.looked = [False, False]
        self.rest_seen = [(), ()]  # talon cards a seat looked at
        self.blanche = [False, False]
        self.shown = [False, False]
        self.played = [[], []]
        self.tricks = [0, 0]
        self.points = [0, 0]  # scored in this deal
        self.declared = [[-1, -1, -1], [-1, -1, -1]]  # key; 0 sunk or none; -1 not yet
        self.verdicts = [(-1, ""), (-1, ""), (-1, "")]  # (winner, word); "" not yet
        self.covered = [set(), set()]  # cards used in good declarations (carte rouge)
        self.rouge = [False, False]
        self.repique = -1
        self.pique = -1
        self.cards_early = False  # elder's 10 for the cards counted at his 7th trick
        self.cat = 0
        self.led = None
        self.leader = -1
        self.delivered = 0
        self.seen = set()
        self.cut = [None, None]
        self.pending = []
        self.queue = []  # who acts next in the blanche / exchange / look phases

    def _start_cut(self):
        self._reset_deal()
        self.pending = [0, 1]
        self.phase, self.to_act = CUT, CHANCE

    def _new_deal(self):
        self._reset_deal()
        self.deal_no += 1
        self.in_partie += 1
        self.dealer = 1 - self.dealer
        p, e, d = self.options.packets, self.elder, self.dealer
        for _ in range(HAND // p):
            self.pending.extend([e] * p + [d] * p)
        self.pending.extend([_TALON] * self.options.talon)
        self.phase, self.to_act = DEAL, CHANCE
        self._emit(("deal", self.dealer, self.deal_no))

    def _verify_card(self, c):
        if self.phase not in (CUT, DEAL):
            raise IllegalAction("the shoe delivered %s but no card is due (%s)" %
                                (_show(c), PHASE_NAMES[self.phase]))
        if not is_card(c) or rank(c) < self.options.low_rank:
            raise IllegalAction("the shoe delivered %r, which is not in the %d-card pack" %
                                (_show(c), self.options.pack))
        if c in self.seen:
            raise IllegalAction("the shoe delivered %s twice: imperfect pack" % name(c))

    def _on_card(self, c):
        to = self.pending.pop(0)
        self.delivered += 1
        self.seen.add(c)
        if self.phase == CUT:
            self.cut[to] = c
            self._emit(("cut", to, c))
            if self.pending:
                return
            a, b = rank(self.cut[0]), rank(self.cut[1])
            if a == b:  # equal cut: cut again from the same pack
                self.pending = [0, 1]
                return
            self.dealer = 1 - (0 if a > b else 1)  # _new_deal flips it: the higher deals
            self._new_deal()
            return
        if to == _TALON:
            self.talon.append(c)
            self._emit(("talon", CHANCE, c))
        else:
            self.hands[to].append(c)
            self.dealt[to].append(c)
            self._emit(("card", to, c))
        if not self.pending:
            self.queue = [s for s in (self.elder, self.younger) if D.is_carte_blanche(self.hands[s])]
            self._next_blanche()

    # ---- carte blanche and the exchange -------------------------------------------------
    def _next_blanche(self):
        if self.queue:
            self.phase, self.to_act = BLANCHE, self.queue.pop(0)
            return
        self.phase, self.to_act = EXCHANGE, self.elder

    def _verify_exchange(self, seat, cards):
        try:
            cards = tuple(cards)
        except TypeError:
            raise IllegalAction("an exchange is a list of cards, got %r" % (cards,))
        lo, hi = self.exchange_range(seat)
        if not lo <= len(cards) <= hi:
            raise IllegalAction("seat %d must exchange %d to %d cards, not %d (%r)" %
                                (seat, lo, hi, len(cards), cards))
        for c in cards:
            if c not in self.hands[seat]:
                raise IllegalAction("seat %d cannot discard %s: not in hand" % (seat, _show(c)))
        if len(set(cards)) != len(cards):
            raise IllegalAction("seat %d named a card twice in its exchange %r" % (seat, cards))

    def _on_exchange(self, seat, cards):
        for c in cards:
            self.hands[seat].remove(c)
            self.discards[seat].append(c)
        self.taken[seat] = len(cards)
        if self.blanche[self.elder]:
            # seed 003:41-45: elder sets aside, younger sets aside, elder shows, then both draw
            self.set_aside[seat] = cards
            if seat == self.elder:
                self.to_act = self.younger
                return
            self._show(self.elder)
            if self.blanche[self.younger]:
                self._show(self.younger)
            self._draw(self.elder)
            self._draw(self.younger)
            self.queue = [s for s in (self.elder, self.younger) if self._rest(s)]
            self._next_look()
            return
        self._draw(seat)
        self.queue = [seat] if self._rest(seat) else []
        self._next_look()

    def _draw(self, seat):
        start = 0 if seat == self.elder else self.taken[self.elder]
        for c in self.talon[start:start + self.taken[seat]]:
            self.hands[seat].append(c)
            self._emit(("draw", seat, c))

    def _rest(self, seat):
        """The talon cards this seat's part left behind."""
        start = self.taken[self.elder] + self.taken[self.younger]
        if seat == self.elder:  # what younger has not already drawn of elder's part
            return self.talon[start:min(self.options.elder_max, len(self.talon))]
        return self.talon[start:]

    def _next_look(self):
        if self.queue:
            self.phase, self.to_act = LOOK, self.queue.pop(0)
            return
        self._next_exchange()

    def _next_exchange(self):
        if self.phase == LOOK and self.queue:
            self.to_act = self.queue.pop(0)
            return
        if self.taken[self.younger] == 0:
            if self.blanche[self.younger] and not self.shown[self.younger]:
                self._show(self.younger)  # seed 003:47-49: after elder's exchange
            self.phase, self.to_act = EXCHANGE, self.younger
            return
        self.cat = -1
        self._next_category()

    def _show(self, seat):
        self.shown[seat] = True
        self._emit(("show", seat, tuple(self.dealt[seat])))

    # ---- declarations -----------------------------------------------------------------
    def _next_category(self):
        """Move to the next category somebody holds; score them all after the sets."""
        while True:
            self.cat += 1
            if self.cat >= len(CATEGORIES):
                self._score_declarations()
                return
            for s in (self.elder, self.younger):
                if self.holding(s, self.cat):
                    self.phase, self.to_act = DECLARE, s
                    return
                self.declared[s][self.cat] = 0
            self.verdicts[self.cat] = (-1, "none")
            self._emit(("verdict", -1, (CATEGORIES[self.cat], "none")))

    def _on_declare(self, seat, declares):
        key = self.holding(seat, self.cat) if declares else 0
        self.declared[seat][self.cat] = key
        self._emit(("declare" if declares else "sink", seat, CATEGORIES[self.cat]))
        if declares:
            self._emit(("holding", seat, (CATEGORIES[self.cat], key)))
        other = 1 - seat
        if seat == self.elder and self.holding(other, self.cat):
            self.to_act = other
            return
        if seat == self.elder:
            self.declared[other][self.cat] = 0
        e, y = self.declared[self.elder][self.cat], self.declared[self.younger][self.cat]
        w = D.compare(e, y)
        if w == D.NOBODY:
            word = "equal" if e else "none"
        elif e:
            word = "good" if w == D.ELDER else "not good"
        else:
            word = "good"  # younger's declaration stood alone
        winner = -1 if w == D.NOBODY else (self.elder if w == D.ELDER else self.younger)
        self.verdicts[self.cat] = (winner, word)
        self._emit(("verdict", winner, (CATEGORIES[self.cat], word)))
        self._next_category()

    def _score_declarations(self):
        """Seed 003:100-107: carte blanche, point, sequence, sets, in that order; carte
        rouge the moment it is made; repique when 30 is reached before the other scores."""
        for s in (self.elder, self.younger):
            if self.blanche[s]:
                self._declared_score(s, D.CARTE_BLANCHE, "carte blanche")
        for cat in range(len(CATEGORIES)):
            w = self.verdicts[cat][0]
            if w < 0:
                continue
            self._declared_score(w, _score_of(self.hands[w], cat), CATEGORIES[cat])
            if self.options.carte_rouge:
                self.covered[w].update(_cards_of(self.hands[w], cat))
                if not self.rouge[w] and len(self.covered[w]) == HAND:
                    self.rouge[w] = True
                    self._declared_score(w, self.options.carte_rouge, "carte rouge")
        self.phase, self.to_act, self.leader = PLAY, self.elder, self.elder

    def _declared_score(self, seat, points, reason):
        other = self.points[1 - seat]
        self._score(seat, points, reason)
        if self.repique < 0 and self.points[seat] >= 30 and other == 0:
            self.repique = seat
            self._score(seat, D.REPIQUE, "repique")

    # ---- play -------------------------------------------------------------------------
    def _verify_play(self, seat, c):
        if c not in self.hands[seat]:
            raise IllegalAction("seat %d cannot play %s: not in its hand" % (seat, _show(c)))
        legal = self.legal_cards(seat)
        if c not in legal:
            raise IllegalAction("seat %d cannot play %s: it must follow suit (legal: %s)" % (
                seat, name(c), " ".join(name(x) for x in legal)))

    def _on_play(self, seat, c):
        self.hands[seat].remove(c)
        self.played[seat].append(c)
        self._emit(("play", seat, c))
        if self.led is None:
            self.led, self.to_act = c, 1 - seat
            if not self.options.cent:
                self._play_score(seat, 1, "lead")
            return
        lead = self.led
        won = self.ev.trick_winner(lead, c, -1, evaluate.ACE_HIGH)
        winner = seat if won else 1 - seat
        self.tricks[winner] += 1
        n = sum(self.tricks)
        self._emit(("trick", winner, n))
        self.led, self.leader, self.to_act = None, winner, winner
        if self.options.cent:
            high = (1 if rank(lead) >= TEN else 0) + (1 if rank(c) >= TEN else 0)
            if high:
                self._play_score(winner, high, "trick")
        elif won:
            self._play_score(winner, 1, "trick")
        if n == TRICKS and self.options.last_trick:
            self._play_score(winner, self.options.last_trick, "last trick")
        e = self.elder
        if winner == e and self.tricks[e] == 7 and self.tricks[1 - e] == 0:
            self.cards_early = True  # seed 003:113: the 10 counts toward pique at once
            self._play_score(e, 10, "cards")
        if n == TRICKS:
            self._end_deal()

    def _play_score(self, seat, points, reason):
        self._score(seat, points, reason)
        e = self.elder
        if seat == e and self.pique < 0 and self.repique < 0 and \
                self.points[e] >= 30 and self.points[1 - e] == 0:
            self.pique = e
            self._score(e, D.PIQUE, "pique")

    def _end_deal(self):
        t = self.tricks
        for s in (0, 1):
            if t[s] == TRICKS:
                self._score(s, 30 if self.cards_early else 40, "capot")
            elif t[s] * 2 > TRICKS and not self.cards_early:
                self._play_score(s, 10, "cards")
        self.finished += 1
        over = self.in_partie >= self.options.deals if self.options.deals else \
            max(self.scores) >= self.options.target
        if over:
            self._end_partie()
        self._emit(("end", self.dealer, self.deal_no))
        if over and self.cuts:
            self._start_cut()
        else:
            self._new_deal()

    def _end_partie(self):
        a, b = self.scores
        if a == b:
            winner, value = -1, 0
        else:
            winner = 0 if a > b else 1
            w, l = max(a, b), min(a, b)
            value = w - l if self.options.cent else rubicon(w, l)
        self.results.append((winner, value, (a, b)))
        self._emit(("partie", winner, (value, a, b)))
        self.parties += 1
        self.partie_no += 1
        self.in_partie = 0
        self.scores = [0, 0]

    # ---- helpers ---------------------------------------------------------------------
    def _score(self, seat, points, reason):
        self.points[seat] += points
        self.scores[seat] += points
        self._emit(("score", seat, (points, reason)))
