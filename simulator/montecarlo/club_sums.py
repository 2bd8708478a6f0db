# Club écarté's fast path, its tally (simulator/montecarlo/club_session.py): integer sums per seat,
# merged exactly whatever the order, and the report made of them.
from tapis.firmware.games.club import duel as pure_duel
from tapis.simulator.montecarlo import stats, tallies


class Sums:
    """Integer sums per seat, mergeable exactly: stakes as (x = staked, y = returned)."""

    FIELDS = ("n", "x", "y", "xx", "yy", "xy", "bank_deals", "bank_net", "won", "pushed", "lost")
    DUEL = {pure_duel.PUNTER: 8, pure_duel.PUSH: 9, pure_duel.BANKER: 10}  # a stake's duel: its field

    def __init__(self, seats):
        self.seats = seats
        self.data = [[0] * len(self.FIELDS) for _ in range(seats)]
        self.house = 0
        self.rounds = 0

    def add_stake(self, seat, x, y, duel):
        d = self.data[seat]
        d[self.DUEL[duel]] += 1
        tallies.add_pair(d, x, y)

    def merge(self, other):
        for a, b in zip(self.data, other.data):
            for i in range(len(a)):
                a[i] += b[i]
        self.house += other.house
        self.rounds += other.rounds
        return self

    def to_list(self):
        return [self.seats, self.data, self.house, self.rounds]

    @classmethod
    def from_list(cls, v):
        s = cls(v[0])
        s.data, s.house, s.rounds = [list(d) for d in v[1]], v[2], v[3]
        return s


def club_report(sums):
    seats = []
    for s, d in enumerate(sums.data):
        n, x, y, xx, yy, xy, bdeals, bnet, won, pushed, lost = d
        rtp, ci = stats.ratio(n, x, y, xx, yy, xy)
        he, he_ci = stats.edge(rtp, ci)
        row = {"seat": s, "stakes": n, "staked": x, "returned": y, "rtp": rtp, "ci95": ci,
               "house_edge": he, "house_edge_ci95": he_ci, "banker_deals": bdeals, "banker_net": bnet,
               "won": won, "pushed": pushed, "lost": lost}
        for k, m in (("win_rate", won), ("push_rate", pushed), ("loss_rate", lost)):
            row[k], row[k + "_ci95"] = stats.proportion(m, n)  # the duels of its stakes, Wilson's
        seats.append(row)
    return {"seats": seats, "house": sums.house}


def club_summary(d):
    """The club report of a merged tally (either path's: the same sums)."""
    sums = Sums(len(d["sums"]))
    sums.data, sums.house, sums.rounds = d["sums"], d["house"], d["rounds"]
    return club_report(sums)
