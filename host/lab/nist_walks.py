# NIST SP 800-22 rev. 1a, the suite's other seven tests (nist.py has the first eight and says
# how both were written and checked): serial, approximate entropy, cumulative sums, random
# excursions and their variant, linear complexity, Maurer's universal test; and SUITE, the
# fifteen in the publication's order with the parameters a sequence of n bits takes.
import bisect
import math

import numpy as np

from tapis.host.lab import nist
from tapis.host.lab.nist import erfc, igamc


def _psi2(bits, m):
    """ψ²_m: the m-bit patterns' counts, overlapping, the sequence wrapped around."""
    if m <= 0:
        return 0.0
    n = len(bits)
    counts = np.bincount(nist.windows(np.concatenate([bits, bits[:m - 1]]), m), minlength=1 << m)
    return float((counts.astype(np.float64) ** 2).sum()) * 2.0 ** m / n - n


def serial(bits, m=16):
    """2.11: the frequency of every overlapping m-bit pattern: two P-values."""
    d1 = _psi2(bits, m) - _psi2(bits, m - 1)
    d2 = _psi2(bits, m) - 2 * _psi2(bits, m - 1) + _psi2(bits, m - 2)
    return [("serial 1", igamc(2.0 ** (m - 2), d1 / 2)), ("serial 2", igamc(2.0 ** (m - 3), d2 / 2))]


def _phi(bits, m):
    n = len(bits)
    counts = np.bincount(nist.windows(np.concatenate([bits, bits[:m - 1]]), m), minlength=1 << m)
    c = counts[counts > 0] / n
    return float((c * np.log(c)).sum())


def approximate_entropy(bits, m=10):
    """2.12: the frequencies of overlapping m- and (m+1)-bit patterns compared."""
    n = len(bits)
    apen = _phi(bits, m) - _phi(bits, m + 1)
    chi2 = 2.0 * n * (math.log(2) - apen)
    return [("approximate_entropy", igamc(2.0 ** (m - 1), chi2 / 2))]


def _normal(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


def _cusum_p(z, n):
    s1 = sum(_normal((4 * k + 1) * z / math.sqrt(n)) - _normal((4 * k - 1) * z / math.sqrt(n))
             for k in range(int((-n / z + 1) / 4), int((n / z - 1) / 4) + 1))  # int(): toward zero, as the reference code
    s2 = sum(_normal((4 * k + 3) * z / math.sqrt(n)) - _normal((4 * k + 1) * z / math.sqrt(n))
             for k in range(int((-n / z - 3) / 4), int((n / z - 1) / 4) + 1))
    return 1.0 - s1 + s2


def cumulative_sums(bits):
    """2.13: the largest excursion of the ±1 walk from zero, forward and backward."""
    x = 2 * bits.astype(np.int64) - 1
    fwd = int(np.abs(np.cumsum(x)).max())
    back = int(np.abs(np.cumsum(x[::-1])).max())
    n = len(bits)
    return [("cumulative_sums forward", _cusum_p(fwd, n)), ("cumulative_sums reverse", _cusum_p(back, n))]


def _cycles(bits):
    """The ±1 walk's states, and the cycle (0-based) each step of it falls in."""
    s = np.cumsum(2 * bits.astype(np.int64) - 1)
    walk = np.concatenate([[0], s, [0]])
    cycle = np.cumsum(walk == 0)[1:-1] - 1  # zeros before each inner step
    return s, cycle, int(np.count_nonzero(walk == 0)) - 1


def random_excursions(bits):
    """2.14: the visits to each state ±1..±4 within the walk's cycles (J ≥ 500 needed):
    eight P-values, or none when the walk has too few cycles."""
    s, cycle, j = _cycles(bits)
    if j < max(500, 0.005 * math.sqrt(len(bits))):
        return []
    out = []
    for x in (-4, -3, -2, -1, 1, 2, 3, 4):
        visits = np.bincount(cycle[s == x], minlength=j)
        v = np.bincount(np.minimum(visits, 5), minlength=6)
        a = 1 - 1 / (2.0 * abs(x))
        pi = [a] + [a ** (k - 1) / (4.0 * x * x) for k in range(1, 5)] + [a ** 4 / (2.0 * abs(x))]
        chi2 = sum((v[k] - j * pi[k]) ** 2 / (j * pi[k]) for k in range(6))
        out.append(("random_excursions %+d" % x, igamc(2.5, chi2 / 2)))
    return out


def random_excursions_variant(bits):
    """2.15: the total visits to each state ±1..±9 against the cycles: eighteen P-values."""
    s, _cycle, j = _cycles(bits)
    if j < max(500, 0.005 * math.sqrt(len(bits))):
        return []
    out = []
    for x in list(range(-9, 0)) + list(range(1, 10)):
        xi = int(np.count_nonzero(s == x))
        out.append(("random_excursions_variant %+d" % x,
                    erfc(abs(xi - j) / math.sqrt(2.0 * j * (4 * abs(x) - 2)))))
    return out


def linear_complexity_of(block):
    """Berlekamp-Massey over GF(2): the shortest LFSR that makes `block` (a list of 0/1)."""
    c, b, length, m, history = 1, 1, 0, -1, 0
    for i, bit in enumerate(block):
        history = (history << 1) | bit  # bit j: the sequence's bit i - j
        if (c & history).bit_count() & 1:
            t = c
            c ^= b << (i - m)
            if length <= i // 2:
                length, m, b = i + 1 - length, i, t
    return length


LC_PI = (0.010417, 0.03125, 0.125, 0.5, 0.25, 0.0625, 0.020833)
LC_EDGES = (-2.5, -1.5, -0.5, 0.5, 1.5, 2.5)  # T <= -2.5, ..., T > 2.5


def linear_complexity(bits, m=500):
    """2.10: the linear complexity of each block of m bits, in seven classes."""
    n = len(bits) // m
    mu = m / 2.0 + (9 + (-1) ** (m + 1)) / 36.0 - (m / 3.0 + 2 / 9.0) / 2.0 ** m
    v = [0] * 7
    for k in range(n):
        t = (-1) ** m * (linear_complexity_of(bits[k * m:(k + 1) * m].tolist()) - mu) + 2 / 9.0
        v[bisect.bisect_left(LC_EDGES, t)] += 1
    chi2 = sum((v[i] - n * p) ** 2 / (n * p) for i, p in enumerate(LC_PI))
    return [("linear_complexity", igamc(3.0, chi2 / 2))]


# 2.9's table: L -> (expected value, variance)
UNIVERSAL = {6: (5.2177052, 2.954), 7: (6.1962507, 3.125), 8: (7.1836656, 3.238), 9: (8.1764248, 3.311),
             10: (9.1723243, 3.356), 11: (10.170032, 3.384), 12: (11.168765, 3.401),
             13: (12.168070, 3.410), 14: (13.167693, 3.416), 15: (14.167488, 3.419), 16: (15.167379, 3.421)}
UNIVERSAL_N = ((387840, 6), (904960, 7), (2068480, 8), (4654080, 9), (10342400, 10))


def universal(bits, l=None, q=None):
    """2.9: Maurer's test, the distance between matching L-bit blocks."""
    n = len(bits)
    if l is None:
        fits = [size for least, size in UNIVERSAL_N if n >= least]
        if not fits:
            return []
        l = fits[-1]
    q = q or 10 * 2 ** l
    k = n // l - q
    weights = 1 << np.arange(l - 1, -1, -1)
    vals = (bits[:(q + k) * l].reshape(q + k, l).astype(np.int64) * weights).sum(axis=1)
    idx = np.arange(1, q + k + 1)
    order = np.lexsort((idx, vals))  # by value, then position
    sv, si = vals[order], idx[order]
    prev = np.zeros_like(si)
    same = sv[1:] == sv[:-1]
    prev[1:][same] = si[:-1][same]  # the last block before it with its value (0: none)
    last = np.empty_like(prev)
    last[order] = prev
    tests = np.arange(q, q + k)
    fn = float(np.log2(idx[tests] - last[tests]).sum()) / k
    expected, variance = UNIVERSAL[l]
    c = 0.7 - 0.8 / l + (4 + 32.0 / l) * k ** (-3.0 / l) / 15
    sigma = c * math.sqrt(variance / k)
    return [("universal", erfc(abs(fn - expected) / (math.sqrt(2) * sigma)))]


def suite(n):
    """The fifteen tests for sequences of n bits, with the publication's recommended
    parameters: [(name, function of bits)]."""
    log2 = int(math.log2(n))
    return [("frequency", nist.frequency), ("block_frequency", nist.block_frequency),
            ("runs", nist.runs), ("longest_run", nist.longest_run), ("matrix_rank", nist.matrix_rank),
            ("spectral", nist.spectral), ("non_overlapping", nist.non_overlapping),
            ("overlapping", nist.overlapping), ("universal", universal),
            ("linear_complexity", linear_complexity),
            ("serial", lambda b: serial(b, min(16, log2 - 3))),
            ("approximate_entropy", lambda b: approximate_entropy(b, min(10, log2 - 6))),
            ("cumulative_sums", cumulative_sums), ("random_excursions", random_excursions),
            ("random_excursions_variant", random_excursions_variant)]
