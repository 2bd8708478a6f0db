# Property tests of the écarté engine: conservation, legality, scoring, determinism,
# and a stateful machine that throws legal and illegal actions at it.
from hypothesis import event, given, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tapis.firmware.offboard import deck
from tapis.firmware.cards import KING, rank, suit
from tapis.firmware.offboard.rng import Seeded
from tapis.firmware.games.ecarte import rules as R
from helpers import snapshot

PACK = sorted(deck.deck32())
ORDER = "789TAJQK"  # écarté rank order, low to high, written independently of the engine


def strength(c):
    return ORDER.index("23456789TJQKA"[rank(c)])


def naive_legal(hand, led, trump):
    if led is None:
        return set(hand)
    follow = [c for c in hand if suit(c) == suit(led)]
    if follow:
        over = [c for c in follow if suit(led) == suit(c) and strength(c) > strength(led)]
        return set(over or follow)
    trumps = [c for c in hand if suit(c) == trump]
    return set(trumps or hand)


def check_conservation(g):
    places = [c for h in g.hands for c in h] + [c for d in g.discards for c in d] + \
             [c for p in g.played for c in p] + ([g.turned] if g.turned is not None else []) + \
             [c for c in g.dead if c is not None]  # cards the laws set aside
    unread = g.dead.count(None)
    if g.phase != R.CUT:  # the cut stands even from an imperfect pack (000:40): a card twice
        assert len(places) == len(set(places)), "a card is in two places"
    assert len(places) + unread == g.delivered, "a delivered card is missing"
    assert set(places) <= set(PACK)
    assert g.stock == 32 - len(places) - unread  # the rest are still in the shoe
    # a hand holds 5, or 6 only while the non-dealer decides on a wrong number dealt
    assert all(len(h) <= 5 for h in g.hands) or (g.law and g.law[0] == "count")


def drive(seed, deals, check):
    g = R.Ecarte()
    rng = Seeded(seed)
    pack = []
    while g.deal_no <= deals:
        if g.to_act == R.CHANCE:
            if g.cards_due()[1]:  # a fresh pack: the cut, or a new deal
                pack = deck.shuffle(deck.deck32(), rng.below)
            g.apply(("shoe", R.CHANCE, pack[g.delivered]))
        else:
            acts = g.legal_actions()
            a = acts[rng.below(len(acts))]
            if a[0] == "play":
                assert a[2] in naive_legal(g.hands[a[1]], g.led, g.trump_suit)
                assert set(g.legal_cards(a[1])) == naive_legal(g.hands[a[1]], g.led, g.trump_suit)
            g.apply(a)
        check(g)
    return g


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_cards_are_conserved_in_every_state(seed):
    drive(seed, 8, check_conservation)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_scoring_invariants(seed):
    g = drive(seed, 40, lambda g: None)
    score, deal_tricks, kings = [0, 0], [0, 0], [0, 0]
    for kind, seat, value in g.log:
        if kind == "deal":
            deal_tricks, kings = [0, 0], [0, 0]
        elif kind == "claimed" and value * 2 > 5:  # a justified claim: scored as played out
            deal_tricks = [value, 5 - value] if seat == 0 else [5 - value, value]
        elif kind == "score":
            pts, why = value
            assert score[seat] < 5, "points after the game was won"
            if why in ("king", "turned king"):
                assert pts == 1
                kings[seat] += 1
                assert kings[seat] == 1
            elif why == "abandoned: point won":  # 000:76: after 3 tricks his point stands
                assert deal_tricks[seat] >= 3 and pts in (1, 2)
            elif why.startswith("abandoned"):  # 000:76: the vole if he took no trick, the point after 1-2
                other = deal_tricks[1 - seat]
                assert (why == "abandoned: vole") == (other == 0) and pts in (1, 2) and other < 3
                assert why != "abandoned: vole" or pts == 2
            elif why.startswith("conceded"):  # 002:27: the point, the conceder sure of a trick
                assert why == "conceded: point" and deal_tricks[1 - seat] < 3 and pts in (1, 2)
            else:
                assert why in ("point", "vole") and pts in (1, 2)
                assert sum(deal_tricks) == 5 and deal_tricks[seat] >= 3
                assert why != "vole" or (deal_tricks[seat] == 5 and pts == 2)
            score[seat] += pts
        elif kind == "trick":
            deal_tricks[seat] += 1
        elif kind == "game":
            assert score[seat] >= 5 and score[1 - seat] < 5
            loser = score[1 - seat]
            assert value == (3 if loser == 0 else 2 if loser <= 2 else 1)
            score = [0, 0]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2 ** 32))
def test_same_seed_same_game(seed):
    a = drive(seed, 10, lambda g: None)
    b = drive(seed, 10, lambda g: None)
    assert a.log == b.log


class EcarteMachine(RuleBasedStateMachine):
    """Arbitrary legal and illegal actions: an illegal one raises IllegalAction with a
    message, and changes nothing."""

    @initialize(seed=st.integers(0, 2 ** 32), packets=st.sampled_from([(2, 3), (3, 2)]),
                variant=st.sampled_from([{}, {"doubling": True}, {"offer_point": True},
                                         {"pool": True, "gallery": 1}, {"quick": True},
                                         {"gallery": 3, "stake": 2}]))
    def start(self, seed, packets, variant):
        # the players cut for the first deal (000:39), or a seat deals first
        self.g = R.Ecarte(R.Options(packets=packets, **variant), first_dealer=(None, 0, 1)[seed % 3])
        self.rng = Seeded(seed)
        self.pack = []

    @rule(seat=st.integers(0, 5), side=st.integers(0, 1), amount=st.integers(0, 20))
    def a_gallery_bet(self, seat, side, amount):
        a = ("bet", seat, (side, amount))
        if self.g.can(a):
            self.g.apply(a)
            assert self.g.wagers.standing.get(seat, (side, 0)) == (side, amount)

    @invariant()
    def money_is_conserved(self):
        if hasattr(self, "g"):
            assert sum(self.g.wagers.balances) + self.g.wagers.pool == 0  # pool écarté: the pool too

    @rule()
    def shoe_delivers_the_next_card(self):
        g = self.g
        if g.to_act != R.CHANCE:
            return
        if g.delivered == 0 or not self.pack:
            self.pack = deck.shuffle(deck.deck32(), self.rng.below)
        if g.phase == R.CUT:  # the cut's cards, one after the other
            nxt = self.pack[g.delivered % len(self.pack)]
        else:
            nxt = [c for c in self.pack if c not in g.seen][0]  # an arbitrary card may have come first
        g.apply(("shoe", R.CHANCE, nxt))

    @rule(kind=st.sampled_from(R.SHOE_FAULTS + ("duplicate",)), seat=st.integers(0, 1))
    def the_shoe_misdeals(self, kind, seat):
        """A fault the shoe can report (ecarte_laws): the laws keep every card accounted for."""
        g = self.g
        if g.to_act != R.CHANCE or not self.pack:
            return
        if g.phase == R.CUT:  # the cut's next cards
            fresh = self.pack[g.delivered:]
        else:
            fresh = [c for c in self.pack if c not in g.seen]
        value = {"exposed": fresh[0], "double feed": tuple(fresh[:2]), "outofturn": seat,
                 "duplicate": next(iter(g.seen), None)}.get(kind)
        a = ("shoe", R.CHANCE, value) if kind == "duplicate" else (kind, R.CHANCE, value)
        if g.can(a):
            event("the shoe: " + kind)
            deal, cutting = g.deal_no, g.phase == R.CUT
            g.apply(a)
            if kind in ("missing", "duplicate") and not cutting:
                assert g.deal_no == deal + 1 and g.log[-1][0] == "deal"  # void: dealt again

    @rule(pick=st.integers(0, 1000))
    def a_legal_action(self, pick):
        acts = self.g.legal_actions()
        if acts:
            a = acts[pick % len(acts)]
            assert self.g.can(a)
            self.g.apply(a)

    @rule(kind=st.sampled_from(R.PLAYER_ACTIONS + R.SHOE_FAULTS + ("shoe", "bogus")),
          seat=st.sampled_from([0, 1, -1, 2, None]),
          value=st.one_of(st.none(), st.sampled_from(PACK + [0, 99, -3]),
                          st.lists(st.sampled_from(PACK), max_size=6).map(tuple)))
    def an_arbitrary_action(self, kind, seat, value):
        g = self.g
        a = (kind, seat, value)
        before = snapshot(g)
        if g.can(a):
            g.apply(a)
            return
        try:
            g.apply(a)
        except R.IllegalAction as e:
            assert str(e)
        else:
            raise AssertionError("an illegal action was applied: %r" % (a,))
        assert snapshot(g) == before

    @invariant()
    def conserved(self):
        if hasattr(self, "g"):
            check_conservation(self.g)

    @invariant()
    def kings_only_for_their_holders(self):
        if hasattr(self, "g"):
            for seat in (0, 1):
                if self.g.can(("king", seat, None)):
                    held = any(rank(c) == KING and suit(c) == self.g.trump_suit
                               for c in self.g.hands[seat] + self.g.played[seat])
                    assert held


TestEcarteMachine = EcarteMachine.TestCase
TestEcarteMachine.settings = settings(max_examples=60, stateful_step_count=80, deadline=None)
