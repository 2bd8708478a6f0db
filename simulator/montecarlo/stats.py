# The Monte Carlo's estimates and their 95 % confidence intervals, from integer sums (the
# chunks' tallies merge exactly, so an interval depends only on the sums, never on how
# the rounds were split among workers).
import math

Z95 = 1.959963984540054  # the normal quantile of 0.975


def mean(n, s1, s2, z=Z95):
    """(mean, [low, high]) of n values with sum s1 and sum of squares s2 (None if n = 0;
    the interval None for one value: one says nothing of the spread, and an unbounded
    interval is no JSON number)."""
    if not n:
        return None, None
    m = s1 / n
    if n < 2:
        return m, None
    var = max(n * s2 - s1 * s1, 0) / (n * (n - 1))  # exact in integers until the division
    half = z * math.sqrt(var / n)
    return m, [m - half, m + half]


def proportion(k, n, z=Z95):
    """(k/n, Wilson's interval): right near 0 and 1 too, where the normal one is not."""
    if not n:
        return None, None
    p = k / n
    zz = z * z / n
    centre = (p + zz / 2) / (1 + zz)
    half = z * math.sqrt(p * (1 - p) / n + zz / (4 * n)) / (1 + zz)
    return p, [max(0.0, centre - half), min(1.0, centre + half)]


def ratio(n, x, y, xx, yy, xy, z=Z95):
    """(sum y / sum x, [low, high]) over n pairs (x, y), the delta method's interval: a
    return to player is what came back over what was staked."""
    if not (n and x):
        return None, None
    r = y / x
    if n < 2:
        return r, None  # (as mean's)
    ss = yy - 2 * r * xy + r * r * xx  # sum of (y - r x)^2
    se = math.sqrt(max(ss, 0.0) / (n * (n - 1))) / (x / n)
    return r, [r - z * se, r + z * se]


def edge(rtp, ci):
    """The house edge, 1 - RTP, and its interval: what a unit staked leaves behind."""
    if rtp is None:
        return None, None
    return 1 - rtp, None if ci is None else [1 - ci[1], 1 - ci[0]]
