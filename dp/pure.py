r"""Pure local frequency oracles: the one estimator and variance that k-ary randomized
response and unary encoding share (Wang, Blocki, Li & Jha, "Locally Differentially Private
Protocols for Frequency Estimation", USENIX Security 2017, §3, Theorem 2).

A protocol is *pure* when every report supports a set of values with

    p = P[report supports v | value v],   q = P[report supports v | value ≠ v],   p ≠ q.

k-ary RR supports the reported value; unary encoding supports every bit reported as 1. With
C_v of the n reports supporting v and n_v people holding v (share f = n_v / n):

    E[C_v] = n_v p + (n − n_v) q   ⇒   ĉ_v = (C_v − n q) / (p − q)   is unbiased,
    Var[ĉ_v] = n q (1 − q) / (p − q)² + n f (1 − p − q) / (p − q).
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    check_distinct,
    check_integer,
    check_probability,
    check_real,
    check_real_array,
)


def pure_estimate(support_counts, n, p: float, q: float):
    r"""ĉ_v = (C_v − n q) / (p − q): unbiased counts from the support counts C (any shape; `n`
    broadcasts against it). Not clipped: post-process with `project_counts`."""
    counts = check_real_array("support_counts", support_counts, allow_inf=False)
    if counts.size == 0:
        raise ValueError("support_counts must not be empty")
    if np.any(counts < 0):
        raise ValueError("support_counts must be >= 0")
    n = check_real_array("n", n, allow_inf=False)
    if np.any(n < 0) or np.any(n != np.round(n)):
        raise ValueError("n must be whole numbers >= 0 (people asked)")
    p = check_probability("p", p)
    q = check_probability("q", q)
    check_distinct(p, q)
    return (counts - n * q) / (p - q)


def _pure_variance(n: int, p: float, q: float, frequency: float, gap: float) -> float:
    """The variance with p − q given as `gap` (computed without cancellation by a caller
    that knows its closed form, e.g. with expm1 at tiny ε). Divided by the gap twice, not by
    gap² (which underflows to 0 below 1e-154); a ValueError if the variance itself is beyond
    the largest float (ε or p − q too small to say anything)."""
    variance = n * q * (1.0 - q) / gap / gap + n * frequency * (1.0 - p - q) / gap
    if not math.isfinite(variance):
        raise ValueError(
            f"epsilon is too small (p − q = {gap:.3g}): the variance exceeds the largest float"
        )
    return variance


def pure_variance(n: int, p: float, q: float, frequency: float = 0.0) -> float:
    r"""Var[ĉ_v] = n q (1 − q) / (p − q)² + n f (1 − p − q) / (p − q), for a true share
    f = `frequency` of value v (count scale)."""
    n = check_integer("n", n, low=1)
    p = check_probability("p", p)
    q = check_probability("q", q)
    check_distinct(p, q)
    f = check_real("frequency", frequency, low=0.0, high=1.0)
    return _pure_variance(n, p, q, f, p - q)
