r"""Subsampling, and differential privacy read as a hypothesis test (f-DP, Gaussian DP).

Amplification by subsampling: a mechanism that is (ε, δ)-DP under add/remove, run on a
Poisson sample that keeps each person with probability q, is (ln(1 + q(e^ε − 1)), q·δ)-DP
(Balle, Barthe & Gaboardi 2018, for Poisson subsampling).

The hypothesis-testing view (Dong, Roth & Su 2022, "Gaussian differential privacy", JRSS B):
an attacker tests "your record is in" against "it is not". For a test with type I error α
(false positives), the type II error β (misses) it must accept is the trade-off function.
- (ε, δ)-DP is exactly f-DP with f(α) = max(0, 1 − δ − e^ε·α, e^(−ε)·(1 − δ − α)).
- μ-GDP is f-DP with G_μ(α) = Φ(Φ⁻¹(1 − α) − μ): telling N(0, 1) from N(μ, 1) apart.
- μ-GDP implies (ε, δ(ε))-DP for every ε ≥ 0 with
  δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2) (their Corollary 2.13); gdp_epsilon inverts it.
- DP-SGD with sampling rate q, T steps and noise multiplier σ is asymptotically μ-GDP with
  μ = q·sqrt(T·(e^(1/σ²) − 1)) (Bu, Dong, Long & Su 2020, "Deep learning with Gaussian
  differential privacy", their central limit theorem).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special

from ._validate import (
    MAX_EXP_EPSILON,
    check_epsilon,
    check_integer,
    check_real,
    check_real_array,
)


def _check_delta(delta: object) -> float:
    return check_real("delta", delta, low=0.0, high=1.0, high_open=True)


def _check_rate(sample_rate: object) -> float:
    return check_real("sample_rate", sample_rate, low=0.0, high=1.0, low_open=True)


def _check_alpha(alpha: object) -> tuple[np.ndarray, bool]:
    """alpha as floats in [0, 1], and whether it was a scalar (a float goes back)."""
    values = check_real_array("alpha", alpha, allow_inf=False)
    if values.size == 0:
        raise ValueError("alpha must not be empty")
    if np.any(values < 0) or np.any(values > 1):
        raise ValueError("alpha must hold numbers in [0, 1]")
    return values, values.ndim == 0


def subsampled_privacy(epsilon: float, delta: float, sample_rate: float) -> tuple[float, float]:
    r"""The (ε', δ') of an (ε, δ)-DP mechanism run on a Poisson sample at rate q, under
    add/remove: ε' = ln(1 + q(e^ε − 1)), δ' = q·δ (Balle, Barthe & Gaboardi 2018).
    delta in [0, 1); sample_rate q in (0, 1]."""
    epsilon = check_epsilon(epsilon)
    delta = _check_delta(delta)
    q = _check_rate(sample_rate)
    if epsilon < 30.0:
        amplified = math.log1p(q * math.expm1(epsilon))
    else:  # ln(q·e^ε + 1 − q) = ε + ln(q + (1 − q)·e^(−ε)), without overflow
        amplified = epsilon + math.log(q + (1.0 - q) * math.exp(-epsilon))
    return amplified, q * delta


def gaussian_tradeoff(mu: float, alpha: object) -> float | np.ndarray:
    r"""Gaussian DP's trade-off function G_μ(α) = Φ(Φ⁻¹(1 − α) − μ): the fewest misses β any
    test at false-positive rate α can have (Dong, Roth & Su 2022). Vectorised over alpha in
    [0, 1] (a float for a scalar alpha); mu ≥ 0. Φ⁻¹(1 − α) is written −Φ⁻¹(α), exact for a
    small α."""
    mu = check_real("mu", mu, low=0.0, range_text="finite and >= 0")
    values, scalar = _check_alpha(alpha)
    beta = special.ndtr(-special.ndtri(values) - mu)
    return float(beta) if scalar else beta


def approx_dp_tradeoff(epsilon: float, delta: float, alpha: object) -> float | np.ndarray:
    r"""The trade-off function of (ε, δ)-DP: f(α) = max(0, 1 − δ − e^ε·α, e^(−ε)·(1 − δ − α))
    (Dong, Roth & Su 2022; Kairouz, Oh & Viswanath 2015). Vectorised over alpha
    in [0, 1] (a float for a scalar alpha); delta in [0, 1)."""
    epsilon = check_epsilon(epsilon, high=MAX_EXP_EPSILON)
    delta = _check_delta(delta)
    values, scalar = _check_alpha(alpha)
    beta = np.maximum.reduce(
        [
            np.zeros_like(values),
            1.0 - delta - math.exp(epsilon) * values,
            math.exp(-epsilon) * (1.0 - delta - values),
        ]
    )
    return float(beta) if scalar else beta


def gdp_delta(mu: float, epsilon: float) -> float:
    r"""The δ at which μ-GDP gives (ε, δ)-DP: δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2)
    (Dong, Roth & Su 2022, Corollary 2.13); mu > 0. e^ε·Φ(·) is taken through log Φ, so a
    large ε does not overflow."""
    mu = check_real("mu", mu, low=0.0, low_open=True, range_text="finite and > 0")
    return _gdp_delta(mu, check_epsilon(epsilon))


def _gdp_delta(mu: float, epsilon: float) -> float:
    """gdp_delta's formula for a checked μ > 0 and any ε ≥ 0."""
    first = float(special.ndtr(-epsilon / mu + mu / 2.0))
    second = math.exp(epsilon + float(special.log_ndtr(-epsilon / mu - mu / 2.0)))
    return max(0.0, first - second)


def gdp_epsilon(mu: float, delta: float) -> float:
    r"""The smallest ε ≥ 0 at which μ-GDP gives (ε, δ)-DP: the root of gdp_delta(μ, ε) = δ
    (δ(ε) falls as ε grows), 0 when δ(0) ≤ δ already. The same curve as the Gaussian
    mechanism's exact δ(ε) at Δ/σ = μ (Balle & Wang 2018, Theorem 8), so a Gaussian
    mechanism with noise multiplier σ has this ε at μ = 1/σ. mu > 0; delta in (0, 1)."""
    mu = check_real("mu", mu, low=0.0, low_open=True, range_text="finite and > 0")
    delta = check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)
    if _gdp_delta(mu, 0.0) <= delta:
        return 0.0
    high = 1.0
    while _gdp_delta(mu, high) > delta:  # δ(ε) → 0 as ε → ∞: a bracket is found by doubling
        high *= 2.0
        if high > MAX_EXP_EPSILON:
            raise ValueError(f"mu = {mu:g} needs an epsilon beyond {MAX_EXP_EPSILON:g}")
    return float(
        optimize.brentq(lambda e: _gdp_delta(mu, e) - delta, 0.0, high, xtol=1e-12, rtol=1e-12)
    )


def gdp_clt_mu(sample_rate: float, steps: int, sigma: float) -> float:
    r"""The μ of DP-SGD's central limit theorem: μ = q·sqrt(T·(e^(1/σ²) − 1)) for Poisson
    sampling rate q, T steps and noise multiplier σ (Bu, Dong, Long & Su 2020): the run is
    approximately μ-GDP when T is large and q·sqrt(T) stays moderate. sample_rate in (0, 1],
    steps ≥ 1, sigma > 0 (and not so small that e^(1/σ²) overflows)."""
    q = _check_rate(sample_rate)
    steps = check_integer("steps", steps, low=1)
    sigma = check_real("sigma", sigma, low=0.0, low_open=True, range_text="finite and > 0")
    smallest = 1.0 / math.sqrt(MAX_EXP_EPSILON)  # below, e^(1/σ²) overflows
    if sigma < smallest:
        raise ValueError(f"sigma must be at least {smallest:.4f}, got {sigma:g}")
    return q * math.sqrt(steps * math.expm1(1.0 / (sigma * sigma)))
