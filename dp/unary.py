r"""Unary encoding (Wang et al., USENIX Security 2017, §4.2; Erlingsson et al. 2014).

A value v ∈ {0, …, k-1} is encoded as k bits with only bit v set; every bit is then
reported independently: a 1-bit as 1 with probability p, a 0-bit as 1 with probability q.

    ε = ln( p (1 - q) / ((1 - p) q) )
    SUE (symmetric, basic one-time RAPPOR): p = e^(ε/2) / (e^(ε/2) + 1), q = 1 - p
    OUE (optimized):                        p = 1/2,  q = 1 / (e^ε + 1)

Bit count B_v has E[B_v] = n_v p + (n - n_v) q, so ĉ_v = (B_v - n q) / (p - q).
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    as_rng,
    check_binary,
    check_categories,
    check_counts,
    check_distinct,
    check_epsilon,
    check_integer,
    check_k,
    check_probability,
    check_real,
    check_real_array,
    check_size,
)
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
    check_distinct(p, q)
    n = bits.shape[0]
    return (bits.sum(axis=0) - n * q) / (p - q)


def ue_estimate_from_counts(bit_counts, n: int, p: float, q: float):
    r"""ĉ_v = (B_v - n q) / (p - q) from the per-bit counts B (vectorised over leading
    axes, e.g. the output of `sample_ue_counts`)."""
    n = check_integer("n", n, low=1)
    p = check_probability("p", p)
    q = check_probability("q", q)
    check_distinct(p, q)
    counts = check_real_array("bit_counts", bit_counts, allow_inf=False)
    if np.any((counts < 0) | (counts > n)):
        raise ValueError(f"bit_counts must lie in 0..n (n = {n})")
    return (counts - n * q) / (p - q)


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


def ue_variance(n: int, p: float, q: float, frequency: float = 0.0) -> float:
    r"""Variance of one estimated count ĉ_v (count scale), true share f of value v:

    Var = n q (1 - q) / (p - q)² + n f (1 - p - q) / (p - q)."""
    n = check_integer("n", n, low=1)
    p = check_probability("p", p)
    q = check_probability("q", q)
    check_distinct(p, q)
    f = check_real("frequency", frequency, low=0.0, high=1.0)
    return n * q * (1.0 - q) / (p - q) ** 2 + n * f * (1.0 - p - q) / (p - q)


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
