# The club écarté trump duel (SPEC §4, seed 004) and the settlement of a deal: the
# seed's examples by name, an exhaustive comparison with an independent minimax written
# here, and the compiled twin against the pure one.
from array import array
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product

import pytest
from hypothesis import given, strategies as st

from tapis.cython_core import duel as compiled
from tapis.firmware.offboard import deck
from tapis.firmware.games.club import duel as pure
from tapis.firmware.cards import SUITS, parse_list

TWINS = [pure, compiled]
SHOE = deck.shoe()
BANKER, PUSH, PUNTER = pure.BANKER, pure.PUSH, pure.PUNTER


def duel(banker, punter, trump="S", core=pure):
    """Ranks as text ('K J 9') in the trump suit, or full cards ('KS 2H')."""
    def cards(text):
        return parse_list(" ".join(t if len(t) == 2 and t[1] in SUITS else t + trump
                                   for t in text.split()))
    return core.duel(cards(banker), cards(punter), SUITS.index(trump))


# ---- seed 004, every example ----------------------------------------------------------
@pytest.mark.parametrize("core", TWINS)
def test_seed_004_19_ace_against_ace_is_en_carte(core):
    # "у пантера туз и у банкомета туз (так называемый анкарт) - это не подлежит оплате"
    assert duel("A 2H 3D 4C", "A 5H 6D 7C", core=core) == (PUSH, 0, 0)


@pytest.mark.parametrize("core", TWINS)
def test_seed_004_19_any_other_trump_wins_beside_cancelled_aces(core):
    # "Но если есть ещё какой-нибудь козырь, то он выигрывает неизбежно"
    assert duel("A 2", "A", core=core) == (BANKER, 1, 0)
    assert duel("A", "A 2", core=core) == (PUNTER, 0, 1)


@pytest.mark.parametrize("core", TWINS)
def test_seed_004_19_beside_aces_the_higher_trump_takes(core):
    # "если по козырю у того и у другого при тузе, берет тот, у кого козырь старше"
    assert duel("A 9", "A 4", core=core)[0] == BANKER
    assert duel("A 4", "A 9", core=core)[0] == PUNTER


@pytest.mark.parametrize("core", TWINS)
def test_seed_004_19_ace_and_eight_beat_ace_and_five(core):
    # "Если у одного туз и пятерка, а у другого туз и восьмерка, выигрывает последний"
    assert duel("A 5", "A 8", core=core) == (PUNTER, 0, 1)


@pytest.mark.parametrize("core", TWINS)
def test_seed_004_19_ace_five_two_against_ace_eight_is_en_carte(core):
    # "У первого туз, пятерка, двойка, а у второго туз и восьмерка - анкарт ... каждый
    # игрок берет по одной взятке. Один на восьмерку, на которую сносится двойка,
    # другой на пятерку."
    assert duel("A 5 2", "A 8", core=core) == (PUSH, 1, 1)


@pytest.mark.parametrize("core", TWINS)
def test_seed_004_19_two_small_trumps_against_one_high_split_the_tricks(core):
    # "Если у одного два маленьких козыря, а у второго один старший, берут по взятке"
    assert duel("3 2", "K", core=core) == (PUSH, 1, 1)
    assert duel("A", "4 3", core=core) == (PUSH, 1, 1)


@pytest.mark.parametrize("core", TWINS)
def test_seed_004_21_king_jack_nine_against_queen_jack_two_is_en_carte(core):
    # "у одного - король, валет и девятка, у другого - дама, валет и двойка. Это тоже
    # считается анкартом. Первый ходит с короля, второй берет дамой девятку противника."
    assert duel("K J 9", "Q J 2", core=core) == (PUSH, 1, 1)
    assert duel("Q J 2", "K J 9", core=core) == (PUSH, 1, 1)


@pytest.mark.parametrize("core", TWINS)
def test_seed_004_23_the_highest_trump_leads(core):
    # "Первый ход делает тот, у кого старший козырь": A Q against K J is en carte because
    # the ace leads (seed 004:25 plays it out); were K J to lead, A Q would take both.
    assert duel("A Q", "K J", core=core) == (PUSH, 1, 1)
    assert duel("K J", "A Q", core=core) == (PUSH, 1, 1)
    assert reference_tricks((12, 10), (11, 9), banker_leads=False) == 2  # the other lead


@pytest.mark.parametrize("core", TWINS)
def test_seed_004_25_banker_king_seven_is_en_carte_with_every_punter(core):
    # "у банкомета король и семерка, у одного игрока - туз и дама, у третьего - валет и
    # тройка, у четвертого - восьмерка и пятерка. У банкомета анкарт со всеми."
    for punter in ("A Q", "J 3", "8 5"):
        assert duel("K 7 2H 3D", punter + " 9C TD", core=core) == (PUSH, 1, 1), punter


@pytest.mark.parametrize("core", TWINS)
def test_seed_001_19_no_trumps_on_either_side_is_en_carte(core):
    # "Если количество взяток со стороны банкомета и со стороны табло понтера одинаково,
    # это считается ничьей («ан-карт»)"
    assert duel("2H 3H 4D 5C", "6H 7D 8C 9H", core=core) == (PUSH, 0, 0)


@pytest.mark.parametrize("core", TWINS)
def test_perfect_play_beats_the_greedy_rule(core):
    # SPEC §4: always leading the highest is not perfect play. A Q Q against K K J:
    # leading the ace lets K K J take two; leading a queen draws a king, and the
    # banker takes two.
    assert greedy((12, 10, 10), (11, 11, 9), banker_leads=True) < 0
    assert duel("A Q Q", "K K J", core=core) == (BANKER, 2, 1)


# ---- an independent minimax, on the real ranks --------------------------------------------
@lru_cache(maxsize=None)
def play(b, p, banker_leads):
    """(banker tricks - punter tricks) under perfect play; b and p are rank tuples."""
    if not b:
        return -len(p)
    if not p:
        return len(b)
    lead, follow = (b, p) if banker_leads else (p, b)
    sign = 1 if banker_leads else -1  # the leader's tricks count `sign`
    outcomes = []
    for i, c in enumerate(lead):
        rest = lead[:i] + lead[i + 1:]
        beaters = [j for j, f in enumerate(follow) if f > c]
        replies = []
        for j in beaters or range(len(follow)):
            left = follow[:j] + follow[j + 1:]
            nb, np_ = (rest, left) if banker_leads else (left, rest)
            if follow[j] > c:
                replies.append(-sign + play(nb, np_, not banker_leads))
            else:
                replies.append(sign + play(nb, np_, banker_leads))
        outcomes.append(min(replies) if banker_leads else max(replies))
    return max(outcomes) if banker_leads else min(outcomes)


def cancel(hb, hp):
    b, p = list(hb), list(hp)
    for r in hb:
        if r in p:
            p.remove(r)
            b.remove(r)
    return tuple(b), tuple(p)


def reference(hb, hp):
    b, p = cancel(hb, hp)
    if not b and not p:
        return 0
    return play(b, p, bool(b) and (not p or max(b) > max(p)))


def reference_tricks(b, p, banker_leads):
    return play(tuple(b), tuple(p), banker_leads)


def greedy(b, p, banker_leads):
    """Always lead the highest; follow with the cheapest winner, else the lowest."""
    b, p, d = sorted(b, reverse=True), sorted(p, reverse=True), 0
    while b and p:
        lead, follow = (b, p) if banker_leads else (p, b)
        c = lead.pop(0)
        f = min([x for x in follow if x > c] or follow)
        follow.remove(f)
        banker_took = (f > c) != banker_leads
        d += 1 if banker_took else -1
        banker_leads = banker_took
    return d + len(b) - len(p)


def holdings(most=4):
    """Every trump holding of up to `most` cards from a 2-deck shoe, as rank tuples."""
    out = []
    for n in range(most + 1):
        for h in combinations_with_replacement(range(12, -1, -1), n):
            if all(h.count(r) <= 2 for r in h):
                out.append(h)
    return out


def normal(b, p):
    """The same duel with the ranks renumbered 0, 1, 2... keeping their order: the play
    only ever compares ranks (test_renumbering_ranks_keeps_the_minimax checks it)."""
    order = {r: i for i, r in enumerate(sorted(set(b) | set(p)))}
    return tuple(order[r] for r in b), tuple(order[r] for r in p)


def shapes():
    """Every duel once the equal trumps are out, its ranks renumbered 0..m-1: each of the
    m ranks is one side's, once or twice (two decks); at most 4 trumps a side."""
    out = []
    for m in range(9):
        for owners in product((0, 1), repeat=m):
            for mult in product((1, 2), repeat=m):
                b = tuple(r for r in range(m - 1, -1, -1) if owners[r] for _ in range(mult[r]))
                p = tuple(r for r in range(m - 1, -1, -1) if not owners[r] for _ in range(mult[r]))
                if len(b) <= 4 and len(p) <= 4:
                    out.append((m, b, p))
    return out


def holding_pairs():
    """How many (banker, punter) pairs of trump holdings of up to 4 a 2-deck shoe allows:
    per rank the two hold (0,0) (1,0) (0,1) (2,0) (1,1) or (0,2) copies."""
    ways = {(0, 0): 1}
    for _rank in range(13):
        nxt = {}
        for (i, j), w in ways.items():
            for b, p in ((0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2)):
                if i + b <= 4 and j + p <= 4:
                    nxt[i + b, j + p] = nxt.get((i + b, j + p), 0) + w
        ways = nxt
    return sum(ways.values())


def test_every_pair_of_trump_holdings_matches_an_independent_minimax():
    # Every pair of holdings is built exactly once as: a shape (what is left after the
    # cancellation, renumbered), the 13 ranks it is placed on (order kept), and the set C
    # of other ranks both hold once, which cancel. The reference solves each shape; the
    # compiled batch API plays every pair. Tableaux are filled up with clubs (no trump).
    filler = bytes([3 << 4])
    fills = [filler * k for k in range(5)]
    placements = {}  # m -> [(rank map as a translation table, {(room, k): C's + filler})]
    for m in range(9):
        rows = []
        for ranks in combinations(range(13), m):
            free = [r for r in range(13) if r not in ranks]
            tails = {}
            for room in range(5):
                cs = [bytes(c) for j in range(room + 1) for c in combinations(free, j)]
                for k in range(room, 5):
                    tails[room, k] = [c + fills[k - len(c)] for c in cs]
            rows.append((bytes(ranks) + bytes(256 - m), tails))
        placements[m] = rows
    banker, punter, want = [], [], []
    for m, b, p in shapes():
        d = reference(b, p)
        room = 4 - max(len(b), len(p))
        bq, pq = bytes(b), bytes(p)
        n = 0
        for table, tails in placements[m]:
            bb, pb = bq.translate(table), pq.translate(table)
            xb = tails[room, 4 - len(b)]
            banker.append(bb + bb.join(xb))  # bb+x0, bb+x1, ... end to end
            punter.append(pb + pb.join(tails[room, 4 - len(p)]))
            n += len(xb)
        want.append(bytes([((d > 0) - (d < 0)) & 255]) * n)
    banker, punter = b"".join(banker), b"".join(punter)
    want = array("b", b"".join(want))
    n = len(want)
    assert n == holding_pairs() == 3713867 and len(banker) == len(punter) == 4 * n
    got = array("b", bytes(n))
    assert compiled.duel_batch(banker, punter, bytes(n), got) == n
    bad = [i for i in range(n) if got[i] != want[i]][:5] if got != want else []
    assert [(banker[4 * i:4 * i + 4], punter[4 * i:4 * i + 4], got[i], want[i]) for i in bad] == []
    # the construction itself: sampled pairs solved from scratch, cancellation included
    for i in range(0, n, 997):
        hb = tuple(sorted((c for c in banker[4 * i:4 * i + 4] if c >> 4 == 0), reverse=True))
        hp = tuple(sorted((c for c in punter[4 * i:4 * i + 4] if c >> 4 == 0), reverse=True))
        d = reference(hb, hp)
        assert want[i] == (d > 0) - (d < 0), (hb, hp)
        assert pure.duel(banker[4 * i:4 * i + 4], punter[4 * i:4 * i + 4], 0)[0] == want[i]


def test_renumbering_ranks_keeps_the_minimax():
    hs = holdings(3)
    for hb in hs[::3]:
        for hp in hs:
            b, p = cancel(hb, hp)
            assert reference(b, p) == reference(*normal(b, p)) == reference(*cancel(hp, hb)[::-1])


def test_every_pattern_solves_alike_in_both_twins_and_the_reference():
    for code in range(1, pure.PATTERNS):
        b, p = pure._split(code)
        if len(b) > 4 or len(p) > 4:
            continue
        assert pure.solve(code) == compiled.solve(code) == reference(tuple(b), tuple(p)), code
        bt, pt = pure.tricks(code)
        assert bt + pt == max(len(b), len(p)) and bt - pt == pure.solve(code)
        assert compiled.tricks(code) == (bt, pt)


tableaux = st.lists(st.sampled_from(SHOE), min_size=4, max_size=4)


@given(tableaux, tableaux, st.integers(0, 3))
def test_the_twins_agree_on_any_duel(b, p, trump):
    assert pure.duel(b, p, trump) == compiled.duel(b, p, trump)
    assert pure.pattern(b, p, trump) == compiled.pattern(b, p, trump)
    assert pure.trump_ranks(b, trump) == compiled.trump_ranks(b, trump)
    d = reference(tuple(pure.trump_ranks(b, trump)), tuple(pure.trump_ranks(p, trump)))
    assert pure.duel(b, p, trump)[0] == (d > 0) - (d < 0)


@given(st.lists(st.tuples(tableaux, tableaux, st.integers(0, 3)), max_size=40))
def test_the_twins_agree_on_batches(duels):
    n = len(duels)
    b = bytes(c for d in duels for c in d[0])
    p = bytes(c for d in duels for c in d[1])
    t = bytes(d[2] for d in duels)
    outs = [array("b", bytes(n)), array("b", bytes(n))]
    assert pure.duel_batch(b, p, t, outs[0]) == compiled.duel_batch(b, p, t, outs[1]) == n
    assert outs[0] == outs[1] == array("b", [pure.duel(*d)[0] for d in duels])


@pytest.mark.parametrize("core", TWINS)
def test_a_batch_too_short_is_refused(core):
    with pytest.raises(ValueError, match="4 cards a side"):
        core.duel_batch(bytes(7), bytes(8), bytes(2), array("b", bytes(2)))


stakes = st.lists(st.tuples(st.integers(0, 7), st.integers(1, 3), st.integers(1, 50)), max_size=7)
results = st.lists(st.sampled_from([BANKER, PUSH, PUNTER]), min_size=3, max_size=3)


@given(stakes, results, st.one_of(st.just(-1), st.integers(1, 100)), st.integers(0, 20))
def test_settlement_agrees_and_conserves_money(stakes, results, bank, commission):
    stakes = sorted(stakes, key=lambda s: s[1])
    a = pure.settle(stakes, results, bank, commission)
    assert a == compiled.settle(stakes, results, bank, commission)
    entries, after, broken = a
    for seat, tableau, amount, outcome, to_punter, to_bank, to_house in entries:
        assert to_punter + to_bank + to_house == amount  # money conserved
        assert to_punter >= 0 and to_house >= 0
        if outcome in (PUSH, pure.OFF):
            assert to_punter == amount
    if bank >= 0:
        assert after == bank + sum(e[5] for e in entries) >= 0
        assert broken == (after == 0 and any(e[3] == PUNTER for e in entries))
        offs = [i for i, e in enumerate(entries) if e[3] == pure.OFF]
        if offs:  # once broken, every later stake is off (seed 004:31)
            assert broken and all(e[3] == pure.OFF for e in entries[offs[0]:])
    else:
        assert pure.OFF not in [e[3] for e in entries]


def test_a_limited_bank_pays_no_more_than_it_holds():
    entries, after, broken = pure.settle([(1, 1, 10), (2, 2, 10), (3, 3, 5)], [PUNTER, PUNTER, BANKER], 15, 0)
    assert [e[3] for e in entries] == [PUNTER, PUNTER, pure.OFF]
    assert [e[4] for e in entries] == [20, 15, 5]  # the second is paid what was left
    assert after == 0 and broken
