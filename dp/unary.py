r"""Unary encoding (Wang et al., USENIX Security 2017, §4.2; Erlingsson et al. 2014).

A value v ∈ {0, …, k-1} is encoded as k bits with only bit v set; every bit is then
reported independently: a 1-bit as 1 with probability p, a 0-bit as 1 with probability q.

    ε = ln( p (1 - q) / ((1 - p) q) )
    SUE (symmetric, basic one-time RAPPOR): p = e^(ε/2) / (e^(ε/2) + 1), q = 1 - p
    OUE (optimized):                        p = 1/2,  q = 1 / (e^ε + 1)

Bit count B_v has E[B_v] = n_v p + (n - n_v) q, so ĉ_v = (B_v - n q) / (p - q).


Choosing between GRR and OUE:
Choosing a local frequency oracle, and measuring how far a histogram estimate is off
(Wang et al., "Locally Differentially Private Protocols for Frequency Estimation",
USENIX Security 2017, §4.4).

At ε and k categories, the variance of one estimated count (count scale, true share 0) is

    GRR (direct encoding):        n (e^ε + k - 2) / (e^ε - 1)²
    OUE (optimized unary enc.):   n 4 e^ε / (e^ε - 1)²

They are equal when e^ε + k - 2 = 4 e^ε, i.e. at k* = 3 e^ε + 2: GRR is better for
k < k*, OUE for k > k*.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    MAX_EXP_EPSILON,
    as_rng,
    check_binary,
    check_categories,
    check_counts,
    check_distinct,
    check_epsilon,
    check_integer,
    check_k,
    check_probability,
    check_real_array,
    check_size,
)
from .pure import _pure_variance, pure_estimate, pure_variance
from .randomized_response import _abs_log_ratio


def ue_encode(values, k: int) -> np.ndarray:
    r"""One-hot encoding: an (n, k) boolean array with row i having only bit values[i] set."""
    k = check_k(k)
    values = check_categories("values", values, k)
    bits = np.zeros((values.size, k), dtype=bool)
    bits[np.arange(values.size), values] = True
    return bits


def ue_perturb(bits, p: float, q: float, *, rng=None) -> np.ndarray:
    r"""Report each bit independently: P[1 | bit 1] = p, P[1 | bit 0] = q."""
    bits = check_binary("bits", bits, ndim=2)
    p = check_probability("p", p)
    q = check_probability("q", q)
    u = as_rng(rng).random(bits.shape)
    return np.where(bits, u < p, u < q)


def ue_aggregate(bits, p: float, q: float) -> np.ndarray:
    r"""Unbiased counts from perturbed bits: ĉ_v = (Σ_j B'_jv - n q) / (p - q). Not clipped."""
    bits = check_binary("bits", bits, ndim=2, allow_empty=False)
    p = check_probability("p", p)
    q = check_probability("q", q)
    return pure_estimate(bits.sum(axis=0), bits.shape[0], p, q)


def ue_estimate_from_counts(bit_counts, n: int, p: float, q: float):
    r"""ĉ_v = (B_v - n q) / (p - q) from the per-bit counts B (vectorised over leading
    axes, e.g. the output of `sample_ue_counts`)."""
    n = check_integer("n", n, low=1)
    p = check_probability("p", p)
    q = check_probability("q", q)
    check_distinct(p, q)
    counts = check_real_array("bit_counts", bit_counts, allow_inf=False)
    if counts.size == 0:
        raise ValueError("bit_counts must not be empty")
    if np.any((counts < 0) | (counts > n)):
        raise ValueError(f"bit_counts must lie in 0..n (n = {n})")
    return pure_estimate(counts, n, p, q)


def ue_epsilon(p: float, q: float) -> float:
    r"""ε of unary encoding: ln( p (1 - q) / ((1 - p) q) ) for p > q.

    Changing a value moves one bit from 1 to 0 and another from 0 to 1, so the largest
    likelihood ratio multiplies the two bits' ratios. Also right for p < q (the absolute
    value), 0 for p = q (the bits ignore the value), inf on the edges (p or q in {0, 1})."""
    p = check_probability("p", p)
    q = check_probability("q", q)
    return float(_abs_log_ratio(np.float64(p * (1.0 - q)), np.float64((1.0 - p) * q)))


def sue_probabilities(epsilon: float) -> tuple[float, float]:
    r"""Symmetric unary encoding (basic RAPPOR): p = e^(ε/2) / (e^(ε/2) + 1), q = 1 - p."""
    epsilon = check_epsilon(epsilon)
    p = 1.0 / (1.0 + math.exp(-epsilon / 2.0))
    return p, 1.0 - p


def oue_probabilities(epsilon: float) -> tuple[float, float]:
    r"""Optimized unary encoding: p = 1/2, q = 1 / (e^ε + 1) (minimises the variance)."""
    epsilon = check_epsilon(epsilon)
    t = math.exp(-epsilon)  # 1 / (e^ε + 1) = e^(-ε) / (1 + e^(-ε)), no overflow
    return 0.5, t / (1.0 + t)


def oue_sue_share_threshold(epsilon: float) -> float:
    r"""The true share f* of a value above which SUE estimates its count more precisely than
    OUE at the same ε (below it OUE is more precise).

    With the pure-protocol variance n q(1-q)/(p-q)² + n f (1-p-q)/(p-q):
        SUE: 1 - p - q = 0, so  Var = n s/(s - 1)²,  s = e^(ε/2)   (no f term);
        OUE: (1 - p - q)/(p - q) = 1, so  Var = n [4 e^ε/(e^ε - 1)² + f].
    Equal at  f* = s/(s - 1)² - 4s²/((s - 1)²(s + 1)²) = s/(1 + s)²  (= p q of SUE):
    0.235 at ε = 1, 0.197 at ε = 2, 0.070 at ε = 5. Computed with t = e^(-ε/2) as t/(1 + t)²."""
    epsilon = check_epsilon(epsilon)
    t = math.exp(-epsilon / 2.0)
    return t / (1.0 + t) ** 2


def ue_variance(n: int, p: float, q: float, frequency: float = 0.0) -> float:
    r"""Variance of one estimated count ĉ_v (count scale), true share f of value v: the
    pure-protocol variance  n q (1 - q) / (p - q)² + n f (1 - p - q) / (p - q)."""
    return pure_variance(n, p, q, frequency)


def sample_ue_counts(true_counts, p: float, q: float, *, size=None, rng=None) -> np.ndarray:
    r"""Exact draw of the per-bit report counts without simulating people:

        B_v = Binomial(c_v, p) + Binomial(n - c_v, q),   n = Σ c_v.

    Returns shape (k,), or `size` + (k,)."""
    counts = check_counts("true_counts", true_counts)
    if counts.size < 2:
        raise ValueError("true_counts must have k >= 2 entries")
    p = check_probability("p", p)
    q = check_probability("q", q)
    size = check_size(size)
    generator = as_rng(rng)
    k = counts.size
    # One draw for both halves: Binomial(c_v, p) for the ones, Binomial(n - c_v, q) for the
    # zeros, then B_v = ones_v + zeros_v.
    trials = np.concatenate([counts, counts.sum() - counts])
    chances = np.repeat([p, q], k)
    shape = None if size is None else (*np.atleast_1d(size), 2 * k)
    draws = generator.binomial(trials, chances, size=shape)
    return draws[..., :k] + draws[..., k:]


def oue_variance(n: int, epsilon: float) -> float:
    r"""Variance of one OUE count estimate at true share 0 (count scale):

    n q(1-q)/(p-q)² with p = 1/2, q = 1/(e^ε+1)  =  n · 4 e^ε / (e^ε - 1)².

    It does not depend on k."""
    n = check_integer("n", n, low=1)
    p, q = oue_probabilities(epsilon)
    # p − q = 1/2 − e^(−ε)/(1 + e^(−ε)) = (1 − e^(−ε)) / (2 (1 + e^(−ε))), with expm1.
    gap = -math.expm1(-epsilon) / (2.0 * (1.0 + math.exp(-epsilon)))
    return _pure_variance(n, p, q, 0.0, gap)


def grr_oue_crossover_k(epsilon: float) -> float:
    r"""The number of categories k* = 3 e^ε + 2 at which GRR and OUE have equal variance.

    From (e^ε + k - 2) / (e^ε - 1)² = 4 e^ε / (e^ε - 1)²  ⇔  k = 3 e^ε + 2.
    GRR has the smaller variance for k < k*, OUE for k > k*. A real number: the crossover
    usually falls between two whole k."""
    epsilon = check_epsilon(epsilon, high=MAX_EXP_EPSILON - math.log(3.0))
    return 3.0 * math.exp(epsilon) + 2.0


def better_frequency_oracle(epsilon: float, k: int) -> str:
    r"""'GRR' if k < 3 e^ε + 2 (its variance is smaller), 'OUE' if k > 3 e^ε + 2, and
    'either' when the two variances are equal."""
    k = check_k(k)
    epsilon = check_epsilon(epsilon)
    if epsilon > math.log(max(k, 3)):  # 3e^ε + 2 > k for sure: no overflow to compute
        return "GRR"
    crossover = grr_oue_crossover_k(epsilon)
    if math.isclose(k, crossover, rel_tol=1e-12):
        return "either"
    return "GRR" if k < crossover else "OUE"
