"""Shared helpers for the statistical tests of dp/.

Every tolerance here is "about 6 standard errors": for a correct implementation a
single check fails with probability ~2e-9 (normal tails), so a seeded suite of a few
hundred such checks is not flaky, while a real bias of a few standard errors is caught.
"""

import math

import numpy as np
from scipy import stats

Z = 6.0  # standard errors allowed in every mean/variance comparison
P_REJECT = 1e-4  # chi-square tests reject only below this p-value


def assert_mean_close(samples, expected_mean, variance_per_sample, *, z=Z, label=""):
    """Mean of i.i.d. samples within z standard errors of expected_mean.

    The standard error uses the *known* variance of one sample (from the contract's
    variance function), not the sample variance: sqrt(variance_per_sample / R).
    """
    samples = np.asarray(samples, dtype=float)
    reps = samples.shape[0]
    se = np.sqrt(np.asarray(variance_per_sample, dtype=float) / reps)
    gap = np.abs(samples.mean(axis=0) - expected_mean)
    assert np.all(gap <= z * se + 1e-12), (
        f"{label} mean {samples.mean(axis=0)} vs expected {expected_mean}: "
        f"gap {gap} > {z} SE = {z * se}"
    )


def assert_variance_close(samples, expected_variance, *, z=Z, label=""):
    """Sample variance within z standard errors of expected_variance.

    SE of the sample variance s^2 of R i.i.d. draws is sqrt((m4 - s^4) / R) to first
    order, with m4 the sample fourth central moment (valid without normality).
    """
    samples = np.asarray(samples, dtype=float)
    reps = samples.shape[0]
    centred = samples - samples.mean(axis=0)
    s2 = (centred**2).sum(axis=0) / (reps - 1)
    m4 = (centred**4).mean(axis=0)
    se = np.sqrt(np.maximum(m4 - s2**2, 0.0) / reps)
    gap = np.abs(s2 - expected_variance)
    assert np.all(gap <= z * se), (
        f"{label} variance {s2} vs expected {expected_variance}: gap {gap} > {z} SE = {z * se}"
    )


def merged_bins(pooled, min_count=20):
    """Edges over integer values so that every bin holds >= min_count pooled draws."""
    values, counts = np.unique(pooled, return_counts=True)
    edges = [values[0]]
    running = 0
    for value, count in zip(values, counts, strict=True):
        if running >= min_count:
            edges.append(value)
            running = 0
        running += count
    if running < min_count and len(edges) > 1:
        edges.pop()  # fold the thin last bin into its neighbour
    edges.append(values[-1] + 1)
    return np.asarray(edges)


def two_sample_chi2_pvalue(sample_a, sample_b, min_count=20):
    """p-value of a chi-square homogeneity test between two integer samples."""
    sample_a = np.asarray(sample_a).ravel()
    sample_b = np.asarray(sample_b).ravel()
    edges = merged_bins(np.concatenate([sample_a, sample_b]), min_count)
    table = np.vstack(
        [np.histogram(sample_a, bins=edges)[0], np.histogram(sample_b, bins=edges)[0]]
    )
    if table.shape[1] < 2:
        return 1.0
    return float(stats.chi2_contingency(table).pvalue)


def goodness_of_fit_pvalue(sample, pmf, min_expected=10.0):
    """p-value of a chi-square goodness-of-fit test of integer draws against a pmf on 0..m."""
    sample = np.asarray(sample).ravel()
    pmf = np.asarray(pmf, dtype=float)
    observed = np.bincount(sample, minlength=len(pmf)).astype(float)
    assert len(observed) == len(pmf), "draw outside the support of the pmf"
    expected = pmf * len(sample)
    # merge adjacent cells until each has >= min_expected expected draws
    obs_bins, exp_bins = [], []
    o_run = e_run = 0.0
    for o, e in zip(observed, expected, strict=True):
        o_run += o
        e_run += e
        if e_run >= min_expected:
            obs_bins.append(o_run)
            exp_bins.append(e_run)
            o_run = e_run = 0.0
    if obs_bins:
        obs_bins[-1] += o_run
        exp_bins[-1] += e_run
    exp_bins = np.asarray(exp_bins)
    exp_bins *= np.sum(obs_bins) / exp_bins.sum()
    return float(stats.chisquare(obs_bins, exp_bins).pvalue)


def sum_of_binomials_pmf(n1, p1, n2, p2):
    """Exact pmf of Binomial(n1, p1) + Binomial(n2, p2) on 0..n1+n2."""
    a = stats.binom.pmf(np.arange(n1 + 1), n1, p1)
    b = stats.binom.pmf(np.arange(n2 + 1), n2, p2)
    return np.convolve(a, b)


def brute_force_rr_epsilon(p, q):
    """Max |ln ratio| over both outputs of binary RR with keep-probabilities p (1->1), q (0->0).

    An output impossible under both inputs imposes nothing; possible under one only -> inf.
    """
    worst = 0.0
    for under_1, under_0 in ((p, 1.0 - q), (1.0 - p, q)):  # output 1, output 0
        if under_1 == 0.0 and under_0 == 0.0:
            continue
        if under_1 == 0.0 or under_0 == 0.0:
            return math.inf
        worst = max(worst, abs(math.log(under_1) - math.log(under_0)))
    return worst
