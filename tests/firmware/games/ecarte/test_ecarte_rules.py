# Golden écarté deals: each pins one rule of SPEC §4 (seeds 000-002).
import pytest

from tapis.firmware.cards import parse, parse_list
from tapis.cython_core import evaluate as compiled
from tapis.firmware import evaluate as pure
from tapis.firmware.evaluate import ECARTE_STRENGTH
from tapis.firmware.games.ecarte import rules as R
from tapis.firmware.games.replay import inputs
from helpers import dealt, shoe, snapshot

H = 1  # hearts


def C(text):
    return parse(text)


def play_out(g, plays):
    """plays: 'KC 7C 8C QH ...' in the order cards hit the table."""
    for c in parse_list(plays):
        g.apply(("play", g.to_act, c))


def test_deal_gives_five_each_in_the_chosen_packets_and_turns_the_eleventh():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    # seat 0 deals, so seat 1 is elder and received the first packet of three
    assert [e for e in g.log if e[0] == "card"][:3] == [("card", 1, C(x)) for x in ("7S", "8S", "9D")]
    assert sorted(g.hands[1]) == sorted(parse_list("7S 8S 9D KC 8C"))
    assert sorted(g.hands[0]) == sorted(parse_list("QH JH AH KS 7C"))
    assert g.turned == C("7H") and g.trump_suit == H
    assert g.phase == R.PROPOSE and g.to_act == 1 and g.stock == 21


def test_two_then_three_packets():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H", options=R.Options(packets=(2, 3)))
    assert [e[1] for e in g.log if e[0] == "card"] == [1, 1, 0, 0, 1, 1, 1, 0, 0, 0]


def test_turned_king_scores_one_for_the_dealer_at_once():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "KH")
    assert g.scores == [1, 0]
    assert ("score", 0, (1, "turned king")) in g.log


def test_turned_king_at_four_wins_the_game_before_any_play():
    g = R.Ecarte(first_dealer=0)
    g.scores = [4, 2]
    shoe(g, "7S 8S 9D QH JH AH KC 8C KS 7C KH")
    # the value is double because the loser had 2
    assert [e for e in g.log if e[0] == "game"] == [("game", 0, 2)]
    assert g.scores == [0, 0] and g.deal_no == 2 and g.phase == R.DEAL


def test_elder_who_stands_and_loses_the_point_concedes_two():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    g.apply(("stand", 1, None))
    assert g.vulnerable == 1
    play_out(g, "KC 7C  8C JH  AH 7S  QH 8S  KS 9D")
    assert [e for e in g.log if e[0] == "trick"][-1][2] == 5
    assert g.scores == [2, 0]
    assert ("score", 0, (2, "point")) in g.log


def test_dealer_who_refuses_the_first_proposal_and_loses_concedes_two():
    g = dealt("KS KD KC 8H 9H", "7S 8D 9C TS 8C", "7H")
    g.apply(("propose", 1, None))
    g.apply(("refuse", 0, None))
    assert g.vulnerable == 0
    play_out(g, "KS 7S  KD 8D  KC 8C  8H TS  9H 9C")
    assert g.scores == [0, 2]  # a vole is 2 as well: tricks never score more than 2


TWINS = pytest.mark.parametrize("ev", [pure, compiled], ids=["pure", "cython"])


@TWINS
def test_vole_scores_two_and_point_one(ev):
    ecarte_points = ev.ecarte_points
    assert ecarte_points([5, 0], -1) == (0, 2)
    assert ecarte_points([3, 2], -1) == (0, 1)
    assert ecarte_points([1, 4], -1) == (1, 1)
    assert ecarte_points([1, 4], 0) == (1, 2)  # the vulnerable seat lost the point
    assert ecarte_points([0, 5], 0) == (1, 2)  # capped: vole against the vulnerable is 2
    assert ecarte_points([4, 1], 0) == (0, 1)  # the vulnerable seat won: no bonus


@TWINS
def test_game_values(ev):
    assert [ev.game_value(s) for s in range(5)] == [3, 2, 2, 1, 1]


def test_proposal_exchange_then_second_refusal_carries_no_penalty():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    g.apply(("propose", 1, None))
    g.apply(("accept", 0, None))
    g.apply(("discard", 1, tuple(parse_list("7S 8S"))))
    shoe(g, "9S TS")
    assert g.phase == R.DISCARD and g.to_act == 0
    g.apply(("discard", 0, ()))  # the dealer may take none
    assert g.phase == R.PROPOSE and g.stock == 19
    g.apply(("propose", 1, None))
    g.apply(("refuse", 0, None))
    assert g.vulnerable == -1 and g.phase == R.PLAY and g.to_act == 1


def test_dealer_must_exchange_option():
    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H", options=R.Options(dealer_must_exchange=True))
    g.apply(("propose", 1, None))
    g.apply(("accept", 0, None))
    g.apply(("discard", 1, (C("7S"),)))
    shoe(g, "9S")
    assert not g.can(("discard", 0, ()))
    assert g.can(("discard", 0, (C("7C"),)))


def test_stock_exhaustion_follows_the_london_law():
    g = dealt("7S 8S 9S TS JS", "7D 8D 9D TD JD", "7H")
    rounds = [("7S 8S 9S TS JS", "QS KS AS 7C 8C"), ("7D 8D 9D TD JD", "9C TC JC QC KC"),
              ("QS KS AS 7C 8C", "AC 8H 9H TH JH"), ("9C TC JC QC KC", "QH KH AH QD KD")]
    for i, (out, new) in enumerate(rounds):
        seat = 1 if i % 2 == 0 else 0
        if seat == 1:
            g.apply(("propose", 1, None))
            g.apply(("accept", 0, None))
        g.apply(("discard", seat, tuple(parse_list(out))))
        shoe(g, new)
    assert g.stock == 1 and g.phase == R.PROPOSE
    g.apply(("propose", 1, None))
    g.apply(("accept", 0, None))
    with pytest.raises(R.IllegalAction, match="1 to 1"):
        g.apply(("discard", 1, tuple(parse_list("AC 8H"))))
    g.apply(("discard", 1, (C("AC"),)))
    shoe(g, "AD")
    # nothing is left for the dealer: he must play
    assert g.stock == 0 and g.phase == R.PLAY and g.to_act == 1


def test_elder_announces_the_king_before_his_first_lead():
    g = dealt("KH 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    g.apply(("stand", 1, None))
    assert g.can(("king", 1, None))
    g.apply(("king", 1, None))
    assert g.scores == [0, 1] and not g.can(("king", 1, None))


def test_a_king_led_first_may_be_announced_until_it_is_answered():
    g = dealt("KH 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    g.apply(("stand", 1, None))
    g.apply(("play", 1, C("KH")))
    assert g.can(("king", 1, None))
    g.apply(("play", 0, C("QH")))
    assert not g.can(("king", 1, None))


def test_the_king_is_lost_once_another_card_is_played():
    g = dealt("KH 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    g.apply(("stand", 1, None))
    g.apply(("play", 1, C("KC")))
    with pytest.raises(R.IllegalAction, match="first card is already played"):
        g.apply(("king", 1, None))


def test_the_dealer_announces_before_his_first_card():
    g = dealt("QH 8S 9D KC 8C", "KH JH AH KS 7C", "7H")
    g.apply(("stand", 1, None))
    g.apply(("play", 1, C("KC")))
    assert g.can(("king", 0, None))
    g.apply(("play", 0, C("7C")))
    assert not g.can(("king", 0, None))


def test_no_king_announcement_during_the_exchange():
    g = dealt("KH 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    with pytest.raises(R.IllegalAction, match="once the exchange is over"):
        g.apply(("king", 1, None))


def test_king_at_four_ends_the_game():
    g = R.Ecarte(first_dealer=0)
    g.scores = [0, 4]
    shoe(g, "KH 8S 9D QH JH AH KC 8C KS 7C 7H")
    g.apply(("stand", 1, None))
    g.apply(("king", 1, None))
    assert [e for e in g.log if e[0] == "game"] == [("game", 1, 3)]
    assert g.deal_no == 2 and g.phase == R.DEAL


@pytest.mark.parametrize("hand, led, trump, legal", [
    ("KS 7S 8H", "QS", "H", "KS"),  # follow and win if able
    ("JS 7S 8H", "QS", "H", "JS 7S"),  # cannot win: any card of the suit
    ("8H 9H 7D", "QS", "H", "8H 9H"),  # void: trump
    ("7D 8C", "QS", "H", "7D 8C"),  # void and no trump: anything
    ("KH 7H 8C", "QH", "H", "KH"),  # trump led: overtrump if able
    ("AS 7S", "TS", "H", "AS"),  # ace ranks between ten and jack
])
@TWINS
def test_legal_plays(ev, hand, led, trump, legal):
    got = ev.legal_plays(parse_list(hand), C(led), "SHDC".index(trump), ECARTE_STRENGTH)
    assert sorted(got) == sorted(parse_list(legal))


def test_illegal_actions_are_refused_clearly_and_change_nothing():
    g = dealt("KH 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    g.apply(("stand", 1, None))
    before = snapshot(g)
    cases = [
        (("play", 0, C("QH")), "seat 0 cannot play: it is seat 1's turn"),
        (("play", 1, C("QH")), "not in its hand"),
        (("propose", 1, None), "cannot propose now"),
        (("discard", 1, ()), "cannot discard now"),
        (("shoe", R.CHANCE, C("7D")), "no card is due"),
        (("fly", 1, None), "unknown action"),
        ("nonsense", "an action is"),
    ]
    for action, message in cases:
        with pytest.raises(R.IllegalAction, match=message.split(":")[0]):
            g.apply(action)
        assert not g.can(action)
        assert snapshot(g) == before
    g.apply(("play", 1, C("KC")))
    with pytest.raises(R.IllegalAction, match="must follow suit") as e:
        g.apply(("play", 0, C("QH")))
    assert "legal: 7C" in str(e.value)


def test_a_card_delivered_twice_voids_the_deal_and_a_foreign_card_is_refused():
    g = R.Ecarte(first_dealer=0)
    shoe(g, "7S")
    with pytest.raises(R.IllegalAction, match="not in the 32-card pack"):
        g.apply(("shoe", R.CHANCE, C("2S")))
    shoe(g, "7S")  # an imperfect pack (000:79): the deal is void, the same dealer deals again
    assert ("void", R.CHANCE, "imperfect pack: 7S twice") in g.log
    assert g.deal_no == 2 and g.dealer == 0 and g.delivered == 0 and g.phase == R.DEAL


def test_rubber_is_best_of_three_and_alternates_the_deal():
    from ecarte_driver import play

    g = play(11, 200)
    games = [e for e in g.log if e[0] == "game"]
    rubbers = [e for e in g.log if e[0] == "rubber"]
    assert rubbers and all(max(r[2]) == 2 for r in rubbers)
    dealers = [e[1] for e in g.log if e[0] == "deal"]
    assert all(a != b for a, b in zip(dealers, dealers[1:]))
    assert len(games) >= 2 * len(rubbers)


def test_replay_from_the_event_log_reproduces_it():
    from ecarte_driver import play

    g = play(5, 60)
    h = R.Ecarte()
    for a in inputs(R.Ecarte.EVENTS, g.log):
        h.apply(a)
    assert h.log == g.log


# ---- the second round (issue 14): each rule cites its seed line ---------------------------
def test_a_pending_question_does_not_close_the_king_and_the_answer_that_ends_the_hand_keeps_it():
    """SPEC §4 "King" (issue 14.3): under doubling, a question pending before the king
    holder's first card does not close the king: he may announce it while it waits for
    its answer, and a refusal that ends the hand leaves his point scored. Before, KING was
    refused ("the king is announced once the exchange is over") and the point was lost."""
    g = dealt("KH 8S 9D KC 8C", "QH JH AH KS 7C", "7H", options=R.Options(doubling=True))
    g.apply(("stand", 1, None))
    g.apply(("double", 0, None))  # the dealer proposes to double before elder's first lead
    assert g.phase == R.ANSWER and g.to_act == 1 and g.can(("king", 1, None))
    assert ("king", 1, None) in g.legal_actions()
    assert g.apply(("king", 1, None)) == (("king", 1, None), ("score", 1, (1, "king")))
    ev = g.apply(("refuse", 1, None))  # the hand ends: the point (2: elder stood) to the proposer
    assert ("score", 0, (2, "double refused")) in ev and g.scores == [2, 1]
    # the dealer's king, his first card not yet played, likewise
    g = dealt("QH 8S 9D KC 8C", "KH JH AH KS 7C", "7H", options=R.Options(offer_point=True))
    g.apply(("stand", 1, None))
    g.apply(("offer", 1, None))
    assert g.phase == R.ANSWER and g.can(("king", 0, None))
    g.apply(("king", 0, None))
    ev = g.apply(("accept", 0, None))  # the point offered and accepted ends the hand
    # the king, and the point (2: the offerer stood, 000:83)
    assert g.scores == [1 + 2, 0] and ("score", 0, (2, "point offered")) in ev


def test_doubling_may_be_proposed_before_the_first_lead_and_until_the_third_trick():
    """000:109 (issue 14.3): doubling may be proposed "at any time before the third trick
    begins": in the exchange (before the first lead) included; not once the third trick
    has begun."""
    g = dealt("KH 8S 9D KC 8C", "QH JH AH KS 7C", "7H", options=R.Options(doubling=True))
    assert g.phase == R.PROPOSE and g.can(("double", 1, None))
    g.apply(("double", 1, None))
    g.apply(("accept", 0, None))
    assert g.multiplier == 2 and g.phase == R.PROPOSE and g.to_act == 1  # the exchange goes on
    g = dealt("KH 8S 9D KC 8C", "QH JH AH KS 7C", "7H", options=R.Options(doubling=True))
    g.apply(("stand", 1, None))
    play_out(g, "KC 7C  8C JH")  # two tricks: the third begins with the next lead
    assert g.can(("double", 0, None)) and g.can(("double", 1, None))
    play_out(g, "AH KH")
    with pytest.raises(R.IllegalAction, match="before the third trick begins"):
        g.apply(("double", 0, None))


def test_the_dealers_king_played_first_may_be_announced_until_he_plays_again():
    """000:58 (issue 14.7): a king that is the dealer's first card played may be announced
    at any time before he plays again; then it is too late. The refusal says what is true
    (not "does not hold the king" for a king just played)."""
    g = dealt("QH 8S 9D KC 8C", "KH JH AH KS 7C", "7H")
    g.apply(("stand", 1, None))
    play_out(g, "QH KH")  # the dealer's first card is his king; he wins the trick and leads
    assert g.to_act == 0 and g.can(("king", 0, None))
    g.apply(("play", 0, C("7C")))
    with pytest.raises(R.IllegalAction, match="it has played again since its king of trumps"):
        g.apply(("king", 0, None))
    g = dealt("QH 8S 9D KC 8C", "KH JH AH KS 7C", "7H")
    g.apply(("stand", 1, None))
    play_out(g, "QH KH")
    g.apply(("king", 0, None))
    assert g.scores == [1, 0]
    # elder's king led first, once answered: the message says so (000:58)
    g = dealt("KH 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    g.apply(("stand", 1, None))
    play_out(g, "KH QH")
    with pytest.raises(R.IllegalAction, match="its king of trumps, led, has been answered"):
        g.apply(("king", 1, None))
    # a king played later than the first card: "not its first card"
    g = dealt("QH 8S 9D KC 8C", "KH JH AH KS 7C", "7H")
    g.apply(("stand", 1, None))
    play_out(g, "KC 7C  QH KH")
    with pytest.raises(R.IllegalAction, match="was not its first card"):
        g.apply(("king", 0, None))


def test_the_discards_go_to_the_record_and_never_to_the_table_display():
    """SPEC §4 "Records" (issue 14.12): every discard is in the deal record, the audit
    trail, but the table display shows only how many were discarded (the draws face down)."""
    from tapis.simulator.kits.ecarte.records import Recorder

    g = dealt("7S 8S 9D KC 8C", "QH JH AH KS 7C", "7H")
    g.apply(("propose", 1, None))
    g.apply(("accept", 0, None))
    ev = g.apply(("discard", 1, (C("7S"), C("8S"))))
    assert R.Ecarte.public(ev[0]) == ["discard", 1, 2]
    ev += g.apply(("shoe", R.CHANCE, C("TS")))
    assert all(R.Ecarte.public(e)[2] is None for e in ev if e[0] == "draw")
    rec = Recorder(None, g.options)
    rec.feed(g.log)
    assert rec.partial()["exchanges"] == [{"seat": 1, "discarded": ["7S", "8S"], "drawn": ["TS"]}]
