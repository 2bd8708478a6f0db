# The rules engine (firmware/rules/club.py) driven through a club session by the bots of
# simulator/club.py (bank_choice, stake_for) on given cards: what the Monte Carlo twins
# (firmware/club_bank.py, cython_core/club_bank.pyx) must reproduce money for money.
from tapis.firmware.games.club import rules as R
from tapis.firmware.cards import parse_list
from tapis.firmware.games.rules import CHANCE
from tapis.simulator.kits.club.bots import UNIT, bank_choice, stake_for

DEAL = 17


def drive(options, cards, last, unit=UNIT):
    """Play len(last) deals; cards: 17 a deal end to end, last[i]: deal i ends its talia
    (the shoe shows the cut card in it). Yields (engine, the deal's events) after each
    deal, before any later action: the state the twins return after that many deals."""
    g = R.Club(options)
    holds = [0] * options.seats  # the bot's standing-bank count, per seat
    mark = len(g.log)
    for i in range(len(last)):
        while g.deals_done == i:
            if g.to_act == CHANCE:
                if g.dealt == 0 and last[i]:
                    g.apply(("cut", CHANCE, None))
                g.apply(("shoe", CHANCE, cards[DEAL * i + g.dealt]))
            elif g.phase == R.BANK:
                if g.kind is None:
                    holds[g.banker] = 0
                c = bank_choice(g.choices(), holds[g.banker])
                holds[g.banker] += c == "hold"
                g.apply((c, g.banker, False if c == "respond" else None))
            else:
                lo, hi = g.stake_range(g.to_act)
                s = stake_for(g.punters().index(g.to_act), lo, hi, unit)
                g.apply(("stake", g.to_act, s) if s else ("skip", g.to_act, None))
        yield g, g.log[mark:]
        mark = len(g.log)


def settlement(events, house_before, house_after):
    """One deal's money as the twins count it: ({seat: (staked, returned)}, the banker,
    his net: what the bank or his balance took in, less what it paid)."""
    stakes = {}
    banker = None
    for kind, seat, value in events:
        if kind == "settle":
            tableau, amount, _outcome, net = value
            assert seat not in stakes  # one stake a seat a deal
            stakes[seat] = (amount, amount + net, tableau)
        elif kind == "end":
            banker = seat
    fees = house_after - house_before
    return stakes, banker, sum(a - back for a, back, _t in stakes.values()) - fees


def results(events):
    """The deal's three duel results, tableau 1 to 3."""
    return [value[0] for kind, _t, value in events if kind == "result"]


def sums_of(options, cards, last, unit=UNIT):
    """Drive the engine through the session and count what the twins count: (sums per seat
    in club_bank.SUMS order, house, balances, banker, bank, per-deal records, events seen).
    A record is (engine balances, bank, house, banker, settlement, duel results)."""
    data = [[0] * 11 for _ in range(options.seats)]
    records = []
    seen = set()
    house = 0
    g = R.Club(options)  # what a session of no deals leaves
    for g, events in drive(options, cards, last, unit):
        stakes, banker, net = settlement(events, house, g.house)
        house = g.house
        duels = results(events)
        for seat, (x, y, tableau) in stakes.items():
            d = data[seat]
            d[{-1: 8, 0: 9, 1: 10}[duels[tableau - 1]]] += 1  # the duel: won, en carte, lost
            d[0] += 1
            d[1] += x
            d[2] += y
            d[3] += x * x
            d[4] += y * y
            d[5] += x * y
        data[banker][6] += 1
        data[banker][7] += net
        records.append((list(g.balances), g.bank, g.house, g.banker, (stakes, banker, net), results(events)))
        seen.update(e[0] if e[0] != "broken" else "broken%d" % e[2] for e in events)
    return data, house, list(g.balances), g.banker, g.bank, records, seen


FILL = ("2C 3C 4C 5C", "6C 7C 8C 9C", "2H 3H 4H 5H", "6H 7H 8H 9H")  # non-trumps: spades are trumps


def deal(g, banker="", t1="", t2="", t3="", trump="2S", cut=False):
    """Deal four tableaux (trumps in spades given by rank, padded with non-trumps) and
    turn; `cut`: the cut card comes out in this deal, the talia's last."""
    tabs = []
    for t, text in enumerate((banker, t1, t2, t3)):
        cs = parse_list(" ".join(r + "S" for r in text.split()))
        tabs.append(cs + parse_list(FILL[t])[:4 - len(cs)])
    cards = [tabs[i % 4][i // 4] for i in range(16)] + parse_list(trump)
    out = list(g.apply(("cut", CHANCE, None))) if cut else []
    for c in cards:
        out.extend(g.apply(("shoe", CHANCE, c)))
    return out
