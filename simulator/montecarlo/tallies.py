# What the Monte Carlo counts of a game, read from the rules' events, and the report made
# of it. A tally is plain data, nested dicts and lists of integers, so that the chunks'
# tallies pickle to any worker and back and add up exactly, in any order (add below).
#
# Money, in every game, is counted per seat and per settlement as pairs (x = staked,
# y = returned) of each transfer the rules make: a transfer of a units from payer to
# payee is a units staked by each, 2a returned to the payee. So a seat's return to player
# is what came back over what it had at risk, the house edge is 1 - RTP, and in a game
# with no house the returns of all the seats weigh out to 1.
from tapis.simulator.montecarlo import stats

MONEY = ("n", "x", "y", "xx", "yy", "xy")  # a seat's settlements, staked, returned, and the products


def add(a, b):
    """The sum of two tallies of the same shape (a dict gains the keys it lacks)."""
    if isinstance(a, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = add(out[k], v) if k in out else v
        return out
    if isinstance(a, list):
        return [add(x, y) for x, y in zip(a, b)]
    return a + b


def add_pair(m, x, y):
    """One settlement (x staked, y returned) into a seat's MONEY sums m (its first six)."""
    m[0] += 1
    m[1] += x
    m[2] += y
    m[3] += x * x
    m[4] += y * y
    m[5] += x * y


def money_row(m):
    """A seat's money: staked, returned, RTP with its interval, house edge, net a settlement."""
    n, x, y, xx, yy, xy = m
    rtp, ci = stats.ratio(n, x, y, xx, yy, xy)
    he, he_ci = stats.edge(rtp, ci)
    net, net_ci = stats.mean(n, y - x, yy - 2 * xy + xx)  # sum of (y - x) and of its squares
    return {"settlements": n, "staked": x, "returned": y, "rtp": rtp, "ci95": ci,
            "house_edge": he, "house_edge_ci95": he_ci, "net": y - x, "net_per_settlement": net,
            "net_per_settlement_ci95": net_ci}


class Tally:
    """Counts a two-player game's deals, games and money from its events. Subclasses say
    which events begin and end a deal and a game."""

    def __init__(self, seats):
        self.seats = seats
        z = lambda: [0] * seats
        self.data = {"rounds": 0, "deals": 0, "games": 0, "drawn": 0, "games_won": z(), "deals_won": z(),
                     "points": z(), "points_sq": z(), "values": {}, "money": [[0] * 6 for _ in range(seats)],
                     "reasons": {}}
        self.deal = None  # points this deal by seat, once a deal has begun
        self.pays = {}  # seat -> [x, y] of the settlement being made

    def score(self, seat, points, reason):
        if self.deal is None:
            return
        self.deal[seat] += points
        r = self.data["reasons"].setdefault(reason, {"points": [0] * self.seats, "times": [0] * self.seats})
        r["points"][seat] += points
        r["times"][seat] += 1

    def begin_deal(self):
        self.deal = [0] * self.seats

    def end_deal(self):
        d, p = self.data, self.deal
        if p is None:
            return
        d["deals"] += 1
        for s in range(self.seats):
            d["points"][s] += p[s]
            d["points_sq"][s] += p[s] * p[s]
        best = max(p)
        if p.count(best) == 1:
            d["deals_won"][p.index(best)] += 1
        self.deal = None

    def game(self, winner, value):
        """A game ended: winner (a seat, or None for a drawn one) and its value."""
        d = self.data
        d["games"] += 1
        if winner is None:
            d["drawn"] += 1
            return
        d["games_won"][winner] += 1
        v = d["values"].setdefault(str(value), [0] * self.seats)
        v[winner] += 1

    def pay(self, payer, payee, amount):
        """A transfer: `amount` staked by each side and twice it back to the payee; into
        pool écarté's pool (payee "pool") the payer's stake alone, back when the pool is won."""
        for s, back in ((payer, 0), (payee, 2 * amount)):
            if s == "pool":
                continue
            p = self.pays.setdefault(s, [0, 0])
            p[0] += amount
            p[1] += back

    def won_pool(self, seat, amount):
        self.pays.setdefault(seat, [0, 0])[1] += amount

    def settled(self):
        for s, (x, y) in self.pays.items():
            add_pair(self.data["money"][s], x, y)
        self.pays = {}

    def result(self, rounds):
        self.data["rounds"] = rounds
        return self.data


class EcarteTally(Tally):
    """Écarté: a deal begins with "deal" and ends when the next begins; scores are by
    position (0, 1: the seats in play, "seats" says which); a game's money is its "pay"
    events, closed by "balances"."""

    def __init__(self, seats):
        Tally.__init__(self, seats)
        self.seated = list(range(seats))
        self.data["rubbers_won"] = [0] * seats
        self.settling = False

    def feed(self, events):
        for kind, seat, value in events:
            if kind == "deal":
                self.end_deal()
                self.begin_deal()
            elif kind == "score":
                self.score(self.seated[seat], value[0], value[1])
            elif kind == "game":
                self.game(self.seated[seat], value)
                self.settling = True
            elif kind == "pay":
                self.pay(seat, value[0], value[1])
            elif kind == "pool":
                self.won_pool(seat, value)
            elif kind == "balances" and self.settling:
                self.settled()
                self.settling = False
            elif kind == "rubber":
                self.data["rubbers_won"][self.seated[seat]] += 1
            elif kind == "seats":
                self.seated = list(value)


class PiquetTally(Tally):
    """Piquet: a deal runs from "deal" to "end"; a partie's "partie" event carries the
    winner (or -1: drawn) and its value, which the loser pays the winner, a unit a point."""

    def __init__(self, seats):
        Tally.__init__(self, seats)
        self.data["rubicons"] = [0] * seats  # parties won against a loser under 100
        self.data["value_sum"] = [0] * seats
        self.data["value_sq"] = [0] * seats

    def feed(self, events):
        d = self.data
        for kind, seat, value in events:
            if kind == "deal":
                self.begin_deal()
            elif kind == "score":
                self.score(seat, value[0], value[1])
            elif kind == "end":
                self.end_deal()
            elif kind == "partie":
                v, a, b = value
                if seat < 0:
                    self.game(None, v)
                    continue
                self.game(seat, v)
                d["value_sum"][seat] += v
                d["value_sq"][seat] += v * v
                if min(a, b) < 100:
                    d["rubicons"][seat] += 1
                if v:
                    self.pay(1 - seat, seat, v)
                    self.settled()


def two_player_rows(d, extra=None):
    """The seats' rows of a two-player game's report."""
    rows = []
    for s in range(len(d["games_won"])):
        win, win_ci = stats.proportion(d["games_won"][s], d["games"])
        dwin, dwin_ci = stats.proportion(d["deals_won"][s], d["deals"])
        ppd, ppd_ci = stats.mean(d["deals"], d["points"][s], d["points_sq"][s])
        values = {v: d["values"][v][s] for v in sorted(d["values"], key=int)}
        won = sum(values.values())
        row = {"seat": s, "games_won": d["games_won"][s], "win_rate": win, "win_rate_ci95": win_ci,
               "deals_won": d["deals_won"][s], "deal_win_rate": dwin, "deal_win_rate_ci95": dwin_ci,
               "points_per_deal": ppd, "points_per_deal_ci95": ppd_ci, "game_values": values,
               "mean_game_value": sum(int(v) * k for v, k in values.items()) / won if won else None}
        row.update(money_row(d["money"][s]))
        if extra:
            row.update(extra(d, s))
        row["points_by_reason"] = {r: {"points": x["points"][s], "times": x["times"][s]}
                                   for r, x in sorted(d["reasons"].items())}
        rows.append(row)
    return rows


def ecarte_report(d):
    rows = two_player_rows(d, lambda d, s: {"rubbers_won": d["rubbers_won"][s]})
    return {"games": d["games"], "deals": d["deals"], "seats": rows}


def piquet_report(d):
    def extra(d, s):
        won = d["games_won"][s]
        mean, ci = stats.mean(won, d["value_sum"][s], d["value_sq"][s])
        return {"rubicons": d["rubicons"][s], "mean_value_won": mean, "mean_value_won_ci95": ci}
    rows = two_player_rows(d, extra)
    for r in rows:
        del r["game_values"], r["mean_game_value"]  # Rubicon values are too many to list
    return {"parties": d["games"], "drawn": d["drawn"], "deals": d["deals"], "seats": rows}


class ClubTally:
    """Club écarté played by the kit's bots on the rules engine: the sums the club_bank
    twins return (club_bank.SUMS order: n, x, y, xx, yy, xy, deals banked, banker's net,
    the stakes' duels won, en carte, lost), read from the "result", "settle" and "end" events."""

    DUEL = {-1: 8, 0: 9, 1: 10}  # firmware/games/club/duel.py PUNTER, PUSH, BANKER: the field

    def __init__(self, seats):
        self.sums = [[0] * 11 for _ in range(seats)]
        self.house = 0
        self.stakes = []
        self.results = {}

    def feed(self, events):
        for kind, seat, value in events:
            if kind == "result":
                self.results[seat] = value[0]
            elif kind == "settle":
                tableau, amount, _outcome, net = value
                self.stakes.append((seat, amount, amount + net))
                self.sums[seat][self.DUEL[self.results[tableau]]] += 1
            elif kind == "end":
                house = value[3]
                net = sum(x - y for _s, x, y in self.stakes) - (house - self.house)
                self.house = house
                for s, x, y in self.stakes:
                    add_pair(self.sums[s], x, y)
                self.sums[seat][6] += 1
                self.sums[seat][7] += net
                self.stakes = []

    def result(self, rounds):
        return {"sums": self.sums, "house": self.house, "rounds": rounds}
