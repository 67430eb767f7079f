r"""Confidence intervals for binary randomized response, from counts.

With n reports of which C say "yes", the unbiased estimate of the true share is
    r̂ = (C/n + q - 1) / (p + q - 1)                       (dp.estimate_proportion_from_counts)
and its variance given the true share r is
    Var[r̂] = [r p(1-p) + (1-r) q(1-q)] / (n (p+q-1)²)      (dp.rr_variance).
A Wald interval plugs the estimate (clipped to [0, 1], where r lives) into the variance:
    r̂ ± z · sqrt(Var[r̂ at r = clip(r̂)]),   z = Φ⁻¹(1 - (1 - level)/2)  (1.96 at 95%).
The interval is then intersected with [0, 1]: the true share lies there, so cutting off
the impossible part cannot make the interval miss it more often. The estimate itself is
not clipped (that would bias it).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from ._validate import check_binary, check_integer, check_not_one, check_probability, check_real
from .randomized_response import estimate_proportion_from_counts, rr_variance


def normal_quantile_two_sided(level: float) -> float:
    r"""z with P[|Z| <= z] = level for a standard normal Z: z = Φ⁻¹((1 + level)/2).
    0.95 → 1.959964."""
    level = check_real("level", level, low=0.0, high=1.0, low_open=True, high_open=True)
    return NormalDist().inv_cdf((1.0 + level) / 2.0)


def rr_confidence_interval(
    yes_count: int, n: int, p: float, q: float, *, level: float = 0.95
) -> tuple[float, float, float]:
    r"""(estimate, low, high) for the true share of "yes" from C = yes_count reported "yes"
    out of n, at confidence `level`:

        r̂ = (C/n + q - 1)/(p + q - 1),
        [low, high] = [r̂ ± z sqrt(rr_variance(clip(r̂, 0, 1), n, p, q))] ∩ [0, 1]."""
    n = check_integer("n", n, low=1)
    yes_count = check_integer("yes_count", yes_count, low=0)
    if yes_count > n:
        raise ValueError(f"yes_count must be <= n, got yes_count = {yes_count}, n = {n}")
    z = normal_quantile_two_sided(level)
    estimate = estimate_proportion_from_counts(yes_count, n, p, q)
    half_width = z * math.sqrt(rr_variance(min(max(estimate, 0.0), 1.0), n, p, q))
    return estimate, max(estimate - half_width, 0.0), min(estimate + half_width, 1.0)


def rr_running_intervals(
    reports, p: float, q: float, *, level: float = 0.95
) -> dict[str, np.ndarray]:
    r"""The estimate and its interval after each of the reports, in arrival order:
    for k = 1..n the first k reports give C_k = cumulative sum, and

        r̂_k = (C_k/k + q - 1)/(p + q - 1),  [low_k, high_k] as in rr_confidence_interval.

    Returns arrays 'n', 'reported_share', 'estimate', 'low', 'high' (length n; empty when
    there are no reports). Vectorised: no loop over reports."""
    reports = check_binary("reports", reports)
    p = check_probability("p", p)
    q = check_probability("q", q)
    check_not_one(p, q)
    z = normal_quantile_two_sided(level)
    k = np.arange(1, reports.size + 1, dtype=float)
    share = np.cumsum(reports, dtype=float) / k if reports.size else np.zeros(0)
    estimate = (share + q - 1.0) / (p + q - 1.0)
    r = np.clip(estimate, 0.0, 1.0)
    variance = (r * p * (1.0 - p) + (1.0 - r) * q * (1.0 - q)) / (k * (p + q - 1.0) ** 2)
    half_width = z * np.sqrt(variance)
    return {
        "n": k.astype(np.int64),
        "reported_share": share,
        "estimate": estimate,
        "low": np.maximum(estimate - half_width, 0.0),
        "high": np.minimum(estimate + half_width, 1.0),
    }
