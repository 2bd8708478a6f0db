# NIST SP 800-22 rev. 1a, the statistical test suite for random bit generators: its fifteen
# tests on a sequence of bits (a numpy array of 0/1), each returning its P-values as
# (name, p) pairs; a sequence passes a test at the 1 % level when every P-value is >= 0.01.
# Written from the publication's section 2 (the formulas, its parameters' defaults) and
# checked against the worked examples there (tests/host/lab/test_lab_nist.py), because no Python
# package of the suite is kept up: this file holds the first eight, nist_walks.py the
# rest (serial, approximate entropy, the cumulative sums and the random walks, linear
# complexity, Maurer's universal test). scipy gives the incomplete gamma function (igamc).
import math

import numpy as np
from scipy.special import gammaincc


def igamc(a, x):
    return float(gammaincc(a, x))


def erfc(x):
    return math.erfc(x)


def _pm(bits):
    return 2 * bits.astype(np.int64) - 1


def frequency(bits):
    """2.1: the proportion of ones (the monobit test)."""
    s = abs(int(_pm(bits).sum())) / math.sqrt(len(bits))
    return [("frequency", erfc(s / math.sqrt(2)))]


def block_frequency(bits, m=128):
    """2.2: the proportion of ones in each block of m bits."""
    n = len(bits) // m
    pi = bits[:n * m].reshape(n, m).mean(axis=1)
    chi2 = 4.0 * m * float(((pi - 0.5) ** 2).sum())
    return [("block_frequency", igamc(n / 2.0, chi2 / 2.0))]


def runs(bits):
    """2.3: the number of runs (uninterrupted blocks of identical bits)."""
    n = len(bits)
    pi = float(bits.mean())
    if abs(pi - 0.5) >= 2 / math.sqrt(n):  # the frequency prerequisite fails
        return [("runs", 0.0)]
    v = 1 + int(np.count_nonzero(bits[1:] != bits[:-1]))
    num = abs(v - 2 * n * pi * (1 - pi))
    return [("runs", erfc(num / (2 * math.sqrt(2 * n) * pi * (1 - pi))))]


# 2.4's table: (least n, block size M, the classes' bounds of the longest run, their probabilities)
LONGEST = ((128, 8, (1, 4), (0.2148, 0.3672, 0.2305, 0.1875)),
           (6272, 128, (4, 9), (0.1174, 0.2430, 0.2493, 0.1752, 0.1027, 0.1124)),
           (750000, 10000, (10, 16), (0.0882, 0.2092, 0.2483, 0.1933, 0.1208, 0.0675, 0.0727)))


def longest_run(bits):
    """2.4: the longest run of ones in blocks of M bits."""
    n = len(bits)
    _least, m, (lo, hi), pi = [row for row in LONGEST if n >= row[0]][-1]
    blocks = bits[:n // m * m].reshape(-1, m)
    run = np.zeros(len(blocks), dtype=np.int64)
    best = np.zeros(len(blocks), dtype=np.int64)
    for j in range(m):  # a column at a time over every block
        run = (run + 1) * blocks[:, j]
        np.maximum(best, run, out=best)
    v = np.bincount(np.clip(best, lo, hi) - lo, minlength=hi - lo + 1)
    nb = len(blocks)
    chi2 = sum((v[i] - nb * p) ** 2 / (nb * p) for i, p in enumerate(pi))
    return [("longest_run", igamc((len(pi) - 1) / 2.0, chi2 / 2.0))]


def rank_probability(r, rows=32, cols=32):
    """The chance that a random rows x cols matrix over GF(2) has rank r (section 3.5)."""
    p = 2.0 ** (r * (rows + cols - r) - rows * cols)
    for i in range(r):
        p *= (1 - 2.0 ** (i - rows)) * (1 - 2.0 ** (i - cols)) / (1 - 2.0 ** (i - r))
    return p


def gf2_rank(rows):
    """The rank over GF(2) of a matrix given as its rows, ints."""
    rows, rank = list(rows), 0
    for bit in reversed(range(max(rows).bit_length() if rows else 0)):
        mask = 1 << bit
        pivot = next((i for i in range(rank, len(rows)) if rows[i] & mask), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for i in range(len(rows)):
            if i != rank and rows[i] & mask:
                rows[i] ^= rows[rank]
        rank += 1
    return rank


def matrix_rank(bits, q=32):
    """2.5: the rank of disjoint q x q matrices (full, one less, the rest)."""
    n = len(bits) // (q * q)
    weights = 1 << np.arange(q - 1, -1, -1, dtype=np.uint64)
    rows = (bits[:n * q * q].reshape(n * q, q).astype(np.uint64) * weights).sum(axis=1)
    ranks = [gf2_rank(int(x) for x in rows[k * q:(k + 1) * q]) for k in range(n)]
    full, less = ranks.count(q), ranks.count(q - 1)
    p_full, p_less = rank_probability(q, q, q), rank_probability(q - 1, q, q)
    p_rest = 1 - p_full - p_less
    chi2 = ((full - p_full * n) ** 2 / (p_full * n) + (less - p_less * n) ** 2 / (p_less * n)
            + (n - full - less - p_rest * n) ** 2 / (p_rest * n))
    return [("matrix_rank", math.exp(-chi2 / 2))]


def spectral(bits):
    """2.6: the discrete Fourier transform's peaks above the 95 % threshold."""
    n = len(bits)
    mod = np.abs(np.fft.fft(_pm(bits)))[:n // 2]
    t = math.sqrt(math.log(1 / 0.05) * n)
    n0, n1 = 0.95 * n / 2, int(np.count_nonzero(mod < t))
    d = (n1 - n0) / math.sqrt(n * 0.95 * 0.05 / 4)
    return [("spectral", erfc(abs(d) / math.sqrt(2)))]


def aperiodic(m):
    """The templates of m bits no shift of which overlaps itself (148 for m = 9), as strings."""
    out = []
    for v in range(1 << m):
        t = format(v, "0%db" % m)
        if not any(t[k:] == t[:m - k] for k in range(1, m)):
            out.append(t)
    return out


def windows(bits, m):
    """The value of every m-bit window (overlapping), as ints: window i is bits i..i+m-1."""
    w = np.zeros(len(bits) - m + 1, dtype=np.int64)
    for j in range(m):
        w = (w << 1) | bits[j:len(bits) - m + 1 + j]
    return w


def non_overlapping(bits, m=9, blocks=8, templates=None):
    """2.7: occurrences of each aperiodic template of m bits, counted without overlap, in
    `blocks` blocks: one P-value per template."""
    n = len(bits)
    size = n // blocks
    mu = (size - m + 1) / 2.0 ** m
    var = size * (1 / 2.0 ** m - (2 * m - 1) / 2.0 ** (2 * m))
    ws = [windows(bits[b * size:(b + 1) * size], m) for b in range(blocks)]
    out = []
    for t in templates or aperiodic(m):
        value = int(t, 2)
        chi2 = 0.0
        for w in ws:
            count, free = 0, 0
            for i in np.flatnonzero(w == value).tolist():
                if i >= free:
                    count, free = count + 1, i + m
            chi2 += (count - mu) ** 2 / var
        out.append(("non_overlapping " + t, igamc(blocks / 2.0, chi2 / 2.0)))
    return out


# 2.8's class probabilities for m = 9 and blocks of 1,032 bits, as the reference code has them
OVERLAP_PI = (0.364091, 0.185659, 0.139381, 0.100571, 0.0704323, 0.139865)


def overlapping(bits, m=9, size=1032):
    """2.8: overlapping occurrences of m ones in blocks of 1,032 bits, in classes 0..5+."""
    nb = len(bits) // size
    counts = np.zeros(nb, dtype=np.int64)
    target = (1 << m) - 1
    for b in range(nb):
        counts[b] = np.count_nonzero(windows(bits[b * size:(b + 1) * size], m) == target)
    v = np.bincount(np.minimum(counts, 5), minlength=6)
    chi2 = sum((v[i] - nb * p) ** 2 / (nb * p) for i, p in enumerate(OVERLAP_PI))
    return [("overlapping", igamc(5 / 2.0, chi2 / 2.0))]
