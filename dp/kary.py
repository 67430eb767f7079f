r"""k-ary randomized response, a.k.a. generalized randomized response (GRR) or direct
encoding (Kairouz et al. 2016; Wang et al., USENIX Security 2017, §4.1).

A person with value v ∈ {0, …, k-1} reports v with probability p and each particular other
value with probability q:

    p = e^ε / (e^ε + k - 1),   q = 1 / (e^ε + k - 1),   p / q = e^ε.

The count C_v of reports equal to v has E[C_v] = n_v p + (n - n_v) q, so
ĉ_v = (C_v - n q) / (p - q) is unbiased.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ._validate import (
    as_rng,
    check_categories,
    check_counts,
    check_epsilon,
    check_integer,
    check_k,
    check_real,
    check_real_array,
    check_size,
)
from .pure import _pure_variance


def grr_probabilities(epsilon: float, k: int) -> tuple[float, float]:
    r"""(p, q) = (e^ε / (e^ε + k - 1), 1 / (e^ε + k - 1)); computed with e^(-ε) so that a
    large ε does not overflow."""
    epsilon = check_epsilon(epsilon)
    k = check_k(k)
    t = math.exp(-epsilon)
    denominator = 1.0 + (k - 1) * t
    return 1.0 / denominator, t / denominator


def grr_perturb(values, k: int, epsilon: float, *, rng=None) -> np.ndarray:
    r"""Each value is kept with probability p, otherwise replaced by one of the other k - 1
    values chosen uniformly (so each particular other value has probability q)."""
    k = check_k(k)
    values = check_categories("values", values, k)
    p, _ = grr_probabilities(epsilon, k)
    generator = as_rng(rng)
    keep = generator.random(values.shape) < p
    # A uniform draw from the k - 1 values other than v: draw r in 0..k-2, skip over v.
    other = generator.integers(0, k - 1, size=values.shape)
    other = other + (other >= values)
    return np.where(keep, values, other)


def grr_estimate_from_counts(report_counts, epsilon: float):
    r"""ĉ_v = (C_v - n q) / (p - q) from the report histogram C (last axis = the k values,
    n = Σ_v C_v). Vectorised over leading axes (many repeated surveys). Not clipped."""
    counts = check_real_array("report_counts", report_counts, allow_inf=False)
    if counts.ndim == 0 or counts.shape[-1] < 2:
        raise ValueError("report_counts must have k >= 2 entries on its last axis")
    if np.any(counts < 0):
        raise ValueError("report_counts must be >= 0")
    epsilon = check_epsilon(epsilon)
    k = counts.shape[-1]
    # (C_v − n q)/(p − q) with q = t/(1 + (k−1)t), p − q = (1 − t)/(1 + (k−1)t), t = e^(−ε):
    #   ĉ_v = ((1 + (k−1)t) C_v − n t) / (1 − t),   1 − t = −expm1(−ε),
    # exact at tiny ε, where p and q round to the same float.
    t = math.exp(-epsilon)
    n = counts.sum(axis=-1, keepdims=True)
    with np.errstate(over="ignore"):
        out = ((1.0 + (k - 1) * t) * counts - n * t) / -math.expm1(-epsilon)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"epsilon is too small for a finite estimate, got {epsilon:g}")
    return out


def grr_estimate(reports, k: int, epsilon: float) -> np.ndarray:
    r"""Unbiased count of each value from the reports: ĉ_v = (C_v - n q) / (p - q).

    May be negative: use `project_counts` (post-processing) for a proper histogram."""
    k = check_k(k)
    reports = check_categories("reports", reports, k, allow_empty=False)
    epsilon = check_epsilon(epsilon)
    return grr_estimate_from_counts(np.bincount(reports, minlength=k), epsilon)


def grr_variance(n: int, epsilon: float, k: int, frequency: float = 0.0) -> float:
    r"""Variance of one estimated count ĉ_v (count scale).

    The pure-protocol variance (`dp.pure_variance`) with GRR's p and q; at f = 0 it is
    n (e^ε + k - 2) / (e^ε - 1)²  (Wang et al. 2017, eq. 4)."""
    n = check_integer("n", n, low=1)
    epsilon = check_epsilon(epsilon)
    k = check_k(k)
    f = check_real("frequency", frequency, low=0.0, high=1.0)
    p, q = grr_probabilities(epsilon, k)
    # p − q = (1 − e^(−ε)) / (1 + (k − 1) e^(−ε)), with expm1: exact even at tiny ε.
    gap = -math.expm1(-epsilon) / (1.0 + (k - 1) * math.exp(-epsilon))
    return _pure_variance(n, p, q, f, gap)


SMALL_K = 64  # up to this many categories, sample_grr_counts uses the (cached) k × k matrix


@functools.lru_cache(maxsize=64)
def _grr_transition(epsilon: float, k: int) -> np.ndarray:
    """The k x k matrix P[report w | value v]: p on the diagonal, q elsewhere (read-only;
    cached, as a slider moves through a few values of ε)."""
    p, q = grr_probabilities(epsilon, k)
    transition = np.full((k, k), q)
    np.fill_diagonal(transition, p)
    transition /= transition.sum(axis=1, keepdims=True)  # rows sum to 1 despite rounding
    transition.setflags(write=False)
    return transition


def sample_grr_counts(true_counts, epsilon: float, *, size=None, rng=None) -> np.ndarray:
    r"""Exact joint draw of the GRR report histogram without simulating people.

    The c_v people with true value v send Multinomial(c_v; q, …, p at v, …, q) reports; the
    histogram is the sum over v. Returns shape (k,), or `size` + (k,).

    Up to SMALL_K categories this draws from the k × k transition matrix (cached). Beyond,
    where k² numbers would not fit in memory (8,000 categories: 512 MB), it uses the same
    distribution written as a mixture: since p = 1 − kq + q, each person reports a uniformly
    random value (any of the k, their own included) with probability kq and the truth
    otherwise. So T_v ~ Binomial(c_v, kq) of the c_v people answer at random, their
    U = Σ_v T_v answers are Multinomial(U; 1/k, …, 1/k), and report_w = c_w − T_w + M_w:
    exact, in O(k) memory."""
    counts = check_counts("true_counts", true_counts)
    k = counts.size
    if k < 2:
        raise ValueError("true_counts must have k >= 2 entries")
    check_k(k, "the number of categories in true_counts")
    epsilon = check_epsilon(epsilon)
    size = check_size(size)
    generator = as_rng(rng)
    lead = () if size is None else tuple(np.atleast_1d(size))
    if k <= SMALL_K:
        transition = _grr_transition(epsilon, k)
        draws = generator.multinomial(counts, transition, size=(*lead, k))
        return draws.sum(axis=-2)
    check_size((*lead, k), "size × categories")  # the (size, k) arrays below
    _, q = grr_probabilities(epsilon, k)
    random_share = min(k * q, 1.0)
    at_random = generator.binomial(counts, random_share, size=(*lead, k))
    uniform = generator.multinomial(at_random.sum(axis=-1), np.full(k, 1.0 / k))
    return counts - at_random + uniform
