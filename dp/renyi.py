r"""Rényi differential privacy (Mironov 2017, "Rényi differential privacy", CSF; Mironov,
Talwar & Zhang 2019, "Rényi differential privacy of the sampled Gaussian mechanism").

A mechanism is (α, r)-RDP when the Rényi divergence of order α > 1 between its output
distributions on any two neighbours is at most r:

    D_α(P‖Q) = (1/(α − 1))·ln E_Q[(P/Q)^α].

Its curve r(α) composes by addition (k releases: k·r(α) at every α), and converts to (ε, δ)
at the best order. Every function here is vectorised over α (a float for a scalar α) and
computed in the log domain (log-sum-exp), so that α up to 256, a Laplace with (α − 1)Δ/b past
709 and randomized response with p = 0.999 stay finite without an overflow warning.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln, logsumexp

from ._validate import check_positive, check_real, check_real_array, check_squarable

CONVERSIONS = ("improved", "classic")


def _orders(alpha: object, name: str = "alpha") -> np.ndarray:
    """Orders α > 1, finite (α = ∞ is pure DP: refused here), any shape."""
    if isinstance(alpha, str):
        raise TypeError(f"{name} must be a number or an array of numbers, got a string")
    values = check_real_array(name, alpha, allow_inf=False)
    if values.size == 0:
        raise ValueError(f"{name} must not be empty")
    if np.any(values <= 1.0):
        raise ValueError(f"{name} must be > 1 (the Rényi order), got {values.min():g}")
    return values.astype(np.float64)


def _shaped(values: np.ndarray, like: np.ndarray):
    """A float for a scalar order, else an array of its shape."""
    return float(values) if like.ndim == 0 else values


def rdp_gaussian(alpha: object, sigma: float, sensitivity: float = 1.0):
    r"""The Gaussian mechanism N(0, σ²) on a query of L2 sensitivity Δ: α·Δ²/(2σ²)
    (Mironov 2017, Prop. 7)."""
    orders = _orders(alpha)
    sigma = check_positive("sigma", sigma)
    sensitivity = check_positive("sensitivity", sensitivity)
    mu = check_squarable("sensitivity/sigma", sensitivity / sigma)
    with np.errstate(over="ignore"):  # a huge order times μ²/2 is +inf, the curve's limit
        return _shaped(orders * (mu * mu / 2.0), orders)


def rdp_laplace(alpha: object, scale: float, sensitivity: float = 1.0):
    r"""The Laplace mechanism Lap(b) on a query of L1 sensitivity Δ (Mironov 2017, Prop. 6):

        (1/(α − 1))·ln( α/(2α − 1)·e^((α−1)Δ/b) + (α − 1)/(2α − 1)·e^(−αΔ/b) ),

    summed in the log domain."""
    orders = _orders(alpha)
    scale = check_positive("scale", scale)
    sensitivity = check_positive("sensitivity", sensitivity)
    t = sensitivity / scale
    terms = np.stack(
        [
            np.log(orders / (2.0 * orders - 1.0)) + (orders - 1.0) * t,
            np.log((orders - 1.0) / (2.0 * orders - 1.0)) - orders * t,
        ]
    )
    return _shaped(logsumexp(terms, axis=0) / (orders - 1.0), orders)


def rdp_randomized_response(alpha: object, keep_probability: float):
    r"""Binary randomized response that reports the truth with probability p in (½, 1):

        (1/(α − 1))·ln( p^α (1 − p)^(1−α) + (1 − p)^α p^(1−α) ),

    summed in the log domain (the divergence between Bernoulli(p) and Bernoulli(1 − p))."""
    orders = _orders(alpha)
    p = check_real(
        "keep_probability", keep_probability, low=0.5, high=1.0, low_open=True, high_open=True
    )
    log_p, log_q = math.log(p), math.log1p(-p)
    terms = np.stack(
        [orders * log_p + (1.0 - orders) * log_q, orders * log_q + (1.0 - orders) * log_p]
    )
    return _shaped(logsumexp(terms, axis=0) / (orders - 1.0), orders)


def rdp_subsampled_gaussian(alpha: object, sigma: float, sample_rate: float):
    r"""The Gaussian mechanism (Δ = 1, noise σ) on a Poisson sample at rate q in (0, 1], at
    integer orders α ≥ 2 (Mironov, Talwar & Zhang 2019, Thm 5 with the binomial expansion):

        (1/(α − 1))·ln Σ_{k=0..α} C(α, k)·(1 − q)^(α−k)·q^k·e^((k² − k)/(2σ²)).

    An integer α may be given as a float with no fractional part (3.0)."""
    if isinstance(alpha, str):
        raise TypeError("alpha must be a whole number or an array of them, got a string")
    raw = np.asarray(alpha)
    if raw.dtype == bool or not (
        np.issubdtype(raw.dtype, np.integer) or np.issubdtype(raw.dtype, np.floating)
    ):
        raise TypeError(f"alpha must be a whole number >= 2, got {raw.dtype}")
    orders = _orders(alpha)
    if np.any(orders != np.floor(orders)) or np.any(orders < 2):
        raise ValueError("alpha must hold whole numbers >= 2 (integer orders only)")
    if np.any(orders > 100_000):
        raise ValueError("alpha must be at most 100,000 here")
    sigma = check_squarable("sigma", check_positive("sigma", sigma))
    q = check_real("sample_rate", sample_rate, low=0.0, high=1.0, low_open=True)
    out = np.empty(orders.shape)
    log_q = math.log(q)
    log_rest = math.log1p(-q) if q < 1.0 else -math.inf
    for index, order in np.ndenumerate(orders):
        n = int(order)
        k = np.arange(n + 1, dtype=np.float64)
        log_binomial = gammaln(n + 1.0) - gammaln(k + 1.0) - gammaln(n - k + 1.0)
        with np.errstate(invalid="ignore"):  # (α − k)·(−inf) at k = α is 0·(−inf): set below
            rest = np.where(k == n, 0.0, (n - k) * log_rest)
        terms = log_binomial + rest + k * log_q + (k * k - k) / (2.0 * sigma**2)
        out[index] = logsumexp(terms) / (n - 1.0)
    return _shaped(out, orders)


def rdp_to_dp(
    alphas: object, rdp: object, delta: float, conversion: str = "improved"
) -> tuple[float, float]:
    r"""(ε, the order that gives it): the smallest ε of (ε, δ)-DP that an RDP curve implies,
    over the given orders (1-D, > 1, as many as `rdp`).

    - "classic" (Mironov 2017, Prop. 3): ε = r + ln(1/δ)/(α − 1);
    - "improved" (Balle, Barthe, Gaboardi, Hsu & Sato 2020, Thm 21; what dp-accounting's
      RDP accountant reports): ε = r + ln((α − 1)/α) − (ln δ + ln α)/(α − 1), at least 0."""
    orders = _orders(alphas, "alphas")
    if orders.ndim != 1:
        raise ValueError(f"alphas must be 1-D, got shape {orders.shape}")
    if isinstance(rdp, str):
        raise TypeError("rdp must be a number or an array of numbers, got a string")
    values = check_real_array("rdp", rdp, allow_inf=False)
    if values.shape != orders.shape:
        raise ValueError(f"rdp must have one value per order ({orders.size}), got {values.shape}")
    if np.any(values < 0):
        raise ValueError("rdp must be >= 0 at every order")
    delta = check_real("delta", delta, low=0.0, high=1.0, low_open=True, high_open=True)
    if conversion not in CONVERSIONS:
        raise ValueError(f"conversion must be one of {CONVERSIONS}, got {conversion!r}")
    if conversion == "classic":
        epsilons = values + math.log(1.0 / delta) / (orders - 1.0)
    else:
        epsilons = (
            values
            + np.log((orders - 1.0) / orders)
            - (math.log(delta) + np.log(orders)) / (orders - 1.0)
        )
        epsilons = np.maximum(epsilons, 0.0)
    best = int(np.argmin(epsilons))
    return float(epsilons[best]), float(orders[best])
