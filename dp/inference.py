r"""What an attacker can learn from one noisy answer, and how far off a Laplace answer is.

- The malicious query (true answer 0 or 1): how often the best guess is right.
- Neighbouring datasets: P[F(D) ∈ Y], P[F(D') ∈ Y] and their ratio, exact in the far tails.
- Typical relative error of a count: median |noise| / truth = b ln 2 / f(D).

The worst-case posterior e^ε p / (e^ε p + 1 - p) is `dp.accuracy.posterior_bound`; the median
absolute error b ln 2 is `dp.accuracy.laplace_median_abs_error`.
(Dwork & Roth 2014, §2.3 and §3.3; Kasiviswanathan & Smith 2014.)
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import check_positive, check_real, check_real_array
from .accuracy import laplace_median_abs_error


def _check_epsilons(epsilon, name: str = "epsilon") -> np.ndarray:
    """ε as a float array (a scalar is fine): every entry finite and > 0."""
    if np.ndim(epsilon) == 0:
        return np.asarray(check_positive(name, epsilon))
    arr = check_real_array(name, epsilon, allow_inf=False)
    if np.any(arr <= 0):
        raise ValueError(f"{name} must be finite and > 0, got a minimum of {arr.min():g}")
    return arr


def _out(arr: np.ndarray):
    return float(arr) if arr.ndim == 0 else arr


def best_guess_accuracy(epsilon, sensitivity: float = 1.0):
    r"""How often the best guess is right for a query whose true answer is 0 or 1
    (equally likely), answered with Laplace noise of scale b = Δ / ε.

    The guess "1 if the answer y > 1/2, else 0" (the midpoint; optimal for equal priors
    because the likelihood ratio grows with y) is wrong exactly when the noise crosses
    the midpoint: in world 0 when Lap(b) > 1/2, in world 1 when Lap(b) < -1/2. Each has
    probability ½ e^(-(1/2)/b), so

    P[right] = 1 - ½ e^(-1/(2b)) = 1 - ½ e^(-ε / (2Δ)),

    and 1 - ½ e^(-ε/2) for a count (Δ = 1). It rises from ½ (a coin flip) at ε → 0
    towards 1."""
    sensitivity = check_positive("sensitivity", sensitivity)
    eps = _check_epsilons(epsilon)
    return _out(1.0 - 0.5 * np.exp(-eps / (2.0 * sensitivity)))


def laplace_median_relative_error(true_value: float, sensitivity: float, epsilon: float) -> float:
    r"""Typical relative error of a Laplace answer: median |noise| / |true value|
    = b ln 2 / |f(D)|, b = Δ / ε. Half of the noisy answers are closer than this
    fraction of the truth. The true value must not be 0 (the ratio would be infinite)."""
    value = check_real("true_value", true_value)
    if value == 0:
        raise ValueError("true_value must not be 0: the relative error of a zero count is infinite")
    return laplace_median_abs_error(sensitivity, epsilon) / abs(value)


def _log_interval_probability(lo: float, hi: float, loc: float, scale: float) -> float:
    """ln P[loc + Lap(b) ∈ [lo, hi]], accurate far in the tails (no 1 - 1 cancellation)."""
    zl, zh = (lo - loc) / scale, (hi - loc) / scale
    if zl >= 0:  # right tail: ½ (e^-zl - e^-zh)
        return math.log(0.5) - zl + math.log1p(-math.exp(zl - zh)) if zh > zl else -math.inf
    if zh <= 0:  # left tail: ½ (e^zh - e^zl)
        return math.log(0.5) + zh + math.log1p(-math.exp(zl - zh)) if zh > zl else -math.inf
    # the interval holds loc: 1 - ½ e^zl - ½ e^-zh >= ... > 0
    return math.log1p(-0.5 * math.exp(zl) - 0.5 * math.exp(-zh))


def laplace_event_probabilities(
    lo: float, hi: float, *, loc: float, loc_neighbour: float, scale: float
) -> tuple[float, float, float]:
    r"""(P[F(D) ∈ Y], P[F(D') ∈ Y], their ratio) for Y = [lo, hi], F(x) = x + Lap(b).

    P[loc + Lap(b) ∈ [lo, hi]] = ½ (e^(-(lo-loc)/b) - e^(-(hi-loc)/b)) right of loc (and
    mirrored left of it), computed in log space so that the ratio stays exact even when
    both probabilities are ~1e-40. ε-DP with ε = |loc - loc'| / b means
    e^(-ε) <= ratio <= e^ε for every Y. Y must have positive width (lo < hi)."""
    lo = check_real("lo", lo)
    hi = check_real("hi", hi)
    loc = check_real("loc", loc)
    loc_neighbour = check_real("loc_neighbour", loc_neighbour)
    scale = check_positive("scale", scale)
    if not lo < hi:
        raise ValueError(
            f"lo must be < hi (Y needs a positive width), got lo = {lo:g}, hi = {hi:g}"
        )
    log_p = _log_interval_probability(lo, hi, loc, scale)
    log_q = _log_interval_probability(lo, hi, loc_neighbour, scale)
    return math.exp(log_p), math.exp(log_q), math.exp(log_p - log_q)
