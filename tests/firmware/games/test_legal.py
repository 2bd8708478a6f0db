# The legal actions of a position (firmware/games/<game>/legal.py: the bots' and the tests'
# view of the rules, as OpenSpiel's legal_actions): on seeded games, every action listed is one
# the rules take (can), a game's legal_actions() is its module's, and in the play a card of the
# hand not listed is one the rules refuse.
import pytest

from tapis.firmware.games.club import legal as club_legal
from tapis.firmware.games.club.rules import Club
from tapis.firmware.games.ecarte import legal as ecarte_legal
from tapis.firmware.games.ecarte import rules as E
from tapis.firmware.games.piquet import legal as piquet_legal
from tapis.firmware.games.piquet import rules as P
from tapis.firmware.games.rules import CHANCE
from tapis.firmware.offboard import deck
from tapis.firmware.offboard.rng import Seeded


def checked(g, legal, play_phase):
    """The position's legal actions, each checked against the rules."""
    acts = legal.legal_actions(g)
    assert acts, "a player to act has an action"
    assert acts == g.legal_actions()
    refused = [a for a in acts if not g.can(a)]
    assert not refused, refused
    if g.phase == play_phase:
        s = g.to_act
        listed = {a[2] for a in acts if a[0] == "play"}
        assert all(not g.can(("play", s, c)) for c in g.hands[s] if c not in listed)
    return acts


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ecarte_lists_only_what_the_rules_take(seed):
    g, rng, pack, seen = E.Ecarte(), Seeded(seed), [], set()
    while g.deal_no <= 4:
        if g.to_act == CHANCE:
            if g.cards_due()[1]:
                pack = deck.shuffle(deck.deck32(), rng.below)
            g.apply(("shoe", CHANCE, pack[g.delivered]))
        else:
            acts = checked(g, ecarte_legal, E.PLAY)
            seen.update(a[0] for a in acts)
            g.apply(acts[rng.below(len(acts))])
    assert {"propose", "stand", "play"} <= seen


@pytest.mark.parametrize("seed", [1, 2])
def test_piquet_lists_only_what_the_rules_take(seed):
    g, rng, pack, seen = P.Piquet(first_dealer=0), Seeded(seed), [], set()
    while g.finished < 2:
        if g.to_act == CHANCE:
            if g.delivered == 0:
                pack = deck.shuffle(deck.deck(range(g.options.low_rank, 13)), rng.below)
            g.apply(("shoe", CHANCE, pack[g.delivered]))
        else:
            acts = checked(g, piquet_legal, P.PLAY)
            seen.update(a[0] for a in acts)
            g.apply(acts[rng.below(len(acts))])
    assert {"exchange", "declare", "play"} <= seen


def test_club_lists_only_what_the_rules_take():
    g, rng, seen = Club(), Seeded(7), set()
    shoe = deck.shuffle(deck.deck52() * 2, rng.below)
    while len(seen) < 4 and shoe:
        if g.to_act == CHANCE:
            g.apply(("shoe", CHANCE, shoe.pop()))
        else:
            acts = checked(g, club_legal, None)
            seen.update(a[0] for a in acts)
            g.apply(acts[rng.below(len(acts))])
    assert "stake" in seen and len(seen) >= 3, seen
