# The card orders' statistics (issue 12.6's, moved here from benchmarks/randomness.py, which
# imports them; issue 47.2 added the adjacent pairs, the serial correlation and the batches'
# p-values): shuffles of a pack's places 0..n-1 by the one Fisher-Yates (deck.shuffle) on the
# host's Seeded generator, tallied into counts that merge by addition, and tested at 99 %.
import math

import numpy as np
from scipy import stats

from tapis.firmware.offboard import deck
from tapis.firmware.offboard.rng import Seeded

Z99 = 2.3263478740408408  # the standard normal's 99th percentile


def chi2_critical(dof, z=Z99):
    """Wilson-Hilferty: the χ² value the upper tail beyond which has the normal tail of z."""
    c = 2.0 / (9 * dof)
    return dof * (1 - c + z * math.sqrt(c)) ** 3


def chi2_p(x, dof):
    """Wilson-Hilferty upper-tail p-value of χ² = x on dof degrees of freedom."""
    c = 2.0 / (9 * dof)
    z = ((x / dof) ** (1 / 3) - (1 - c)) / math.sqrt(c)
    return 0.5 * math.erfc(z / math.sqrt(2))


def eulerian_probabilities(n):
    """P(a uniform permutation of n has k ascending runs), k = 1..n: Eulerian numbers / n!."""
    row = [1]  # A(1, 0)
    for m in range(2, n + 1):
        row = [(k + 1) * (row[k] if k < len(row) else 0) + (m - k) * (row[k - 1] if k else 0)
               for k in range(m)]
    total = math.factorial(n)
    return [a / total for a in row]  # index k-1: k runs


def shuffles(pack, count, stream, make=Seeded):
    """count shuffles of places 0..pack-1 from one generator keyed by `stream`: an array."""
    rng = make(stream)
    out = np.empty((count, pack), dtype=np.int16)
    for i in range(count):
        out[i] = deck.shuffle(list(range(pack)), rng.below)
    return out


def tally(perms):
    """(card-by-position counts as a pack × pack array [position, card], runs histogram)."""
    n = perms.shape[1]
    pos = np.arange(n, dtype=np.int64)
    cells = np.bincount((pos * n + perms).ravel(), minlength=n * n).reshape(n, n)
    runs = 1 + np.sum(perms[:, 1:] < perms[:, :-1], axis=1)
    return cells, np.bincount(runs, minlength=n + 1)


def position_chi2(cells):
    """The card-by-position table against uniform: Pearson's χ² times (n - 1) / n, on
    (n - 1)² dof. Each shuffle puts one card in each place (a permutation matrix), so the
    cells' covariance is (n / (n - 1)) times a projection of rank (n - 1)²: the plain sum
    has mean n (n - 1), not (n - 1)², and the factor brings it back to the χ² law."""
    n = cells.shape[0]
    expected = cells.sum() / (n * n)
    return float(((cells - expected) ** 2 / expected).sum()) * (n - 1) / n, (n - 1) ** 2


def runs_chi2(hist, pack):
    """χ² of the ascending-runs counts against the Eulerian law, tails pooled to expected ≥ 5."""
    total = int(hist.sum())
    probs = eulerian_probabilities(pack)
    obs = [int(hist[k]) for k in range(1, pack + 1)]
    exp = [p * total for p in probs]
    bins_o, bins_e, o, e = [], [], 0, 0.0
    for ok, ek in zip(obs, exp):  # pool from the left until a bin expects 5
        o, e = o + ok, e + ek
        if e >= 5:
            bins_o.append(o)
            bins_e.append(e)
            o, e = 0, 0.0
    if e and bins_e:  # what is left of the right tail joins the last bin
        bins_o[-1] += o
        bins_e[-1] += e
    x = sum((a - b) ** 2 / b for a, b in zip(bins_o, bins_e))
    return x, len(bins_e) - 1


def pair_chi2(firsts):
    """χ² of (first card of seed s, first card of seed s+1) over 32 × 32 cells: 1,023 dof."""
    a = np.asarray(firsts, dtype=np.int64)
    cells = np.bincount(a[:-1] * 32 + a[1:], minlength=1024)
    expected = cells.sum() / 1024
    return float(((cells - expected) ** 2 / expected).sum()), 1023


def adjacent_pairs(perms, offset=0):
    """One pair of adjacent cards a shuffle, at places (i, i + 1) with i turning over the
    pack (shuffle k: i = (k + offset) mod (n - 1)), so the pairs are independent draws, each
    of the n (n - 1) ordered pairs of distinct cards equally likely: their counts, flat."""
    count, n = perms.shape
    at = (np.arange(count) + offset) % (n - 1)
    a = perms[np.arange(count), at].astype(np.int64)
    b = perms[np.arange(count), at + 1].astype(np.int64)
    return np.bincount(a * n + b, minlength=n * n)


def adjacent_chi2(cells, n):
    """χ² of the adjacent pairs' counts over the n (n - 1) ordered pairs: None when a cell
    expects fewer than 5."""
    c = cells.reshape(n, n)[~np.eye(n, dtype=bool)]
    expected = c.sum() / c.size
    if expected < 5:
        return None
    return float(((c - expected) ** 2 / expected).sum()), c.size - 1


def serial_sums(perms):
    """The sums the lag-1 serial correlation of the top card over consecutive shuffles
    needs: (N, Σx, Σx², Σ x_k x_(k+1), first, last): they merge across chunks in order."""
    x = perms[:, 0].astype(np.float64)
    return [len(x), float(x.sum()), float((x * x).sum()), float((x[:-1] * x[1:]).sum()), float(x[0]), float(x[-1])]


def serial_merge(a, b):
    """Two chunks' serial sums, a before b: the pair across the join counted."""
    return [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3] + a[5] * b[4], a[4], b[5]]


def serial_test(s):
    """Knuth's serial correlation (TAOCP 3.3.2 K, circular: the last top card paired with the
    first) of the top card over consecutive shuffles: (C, p two-sided), C against its mean
    -1/(n-1) and standard deviation sqrt(n (n-3) / (n+1)) / (n-1)."""
    n, sx, sxx = s[0], s[1], s[2]
    sxy = s[3] + s[5] * s[4]
    var = n * sxx - sx * sx
    c = (n * sxy - sx * sx) / var if var else 0.0
    mu = -1.0 / (n - 1)
    sigma = math.sqrt(n * (n - 3) / (n + 1)) / (n - 1) if n > 3 else 1.0
    return c, float(2 * stats.norm.sf(abs(c - mu) / sigma))


def uniformity(ps):
    """Kolmogorov-Smirnov of p-values against the uniform law: its p-value."""
    return float(stats.kstest(ps, "uniform").pvalue) if len(ps) >= 2 else None
