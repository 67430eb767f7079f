r"""The Laplace mechanism (central model).

A query f with sensitivity Δ = max |f(D) - f(D')| over neighbouring datasets is answered
as f(D) + Lap(b) with b = Δ / ε; the density of Lap(b) is exp(-|y| / b) / (2b).
(Dwork, McSherry, Nissim & Smith 2006; Dwork & Roth 2014, §3.3.)
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    as_rng,
    check_epsilon,
    check_finite_array,
    check_positive,
    check_real,
    check_real_array,
    check_size,
)


def laplace_scale(sensitivity: float, epsilon: float) -> float:
    r"""Noise scale of the Laplace mechanism: b = Δ / ε."""
    sensitivity = check_positive("sensitivity", sensitivity)
    epsilon = check_epsilon(epsilon)
    return sensitivity / epsilon


def laplace_variance(sensitivity: float, epsilon: float) -> float:
    r"""Variance of Lap(b): 2 b² with b = Δ / ε."""
    b = laplace_scale(sensitivity, epsilon)
    return 2.0 * b * b


def laplace_interval_half_width(scale: float, confidence: float = 0.95) -> float:
    r"""Half-width h of the interval that holds the noise with the given probability:
    P[|Lap(b)| <= h] = 1 - e^(-h/b) = c  =>  h = b ln(1 / (1 - c)); for c = 0.95, b ln 20."""
    scale = check_positive("scale", scale)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0, high_open=True)
    return scale * math.log(1.0 / (1.0 - confidence))


def laplace_mechanism(
    value, sensitivity: float, epsilon: float, *, size=None, rng=None
) -> float | np.ndarray:
    r"""value + Lap(b), b = Δ / ε.

    `value` may be a number (one query) or an array (one noisy answer per entry, e.g. a
    histogram). `size` draws many independent answers at once (shape `size`, or
    `size + value.shape`). Returns a float for a scalar value without `size`."""
    b = laplace_scale(sensitivity, epsilon)
    size = check_size(size)
    generator = as_rng(rng)
    if np.ndim(value) == 0:
        v = check_real("value", value)
        if size is None:
            return float(v + generator.laplace(0.0, b))
        return v + generator.laplace(0.0, b, size=size)
    values = check_finite_array("value", value, allow_empty=True)
    shape = values.shape if size is None else (*np.atleast_1d(size), *values.shape)
    return values + generator.laplace(0.0, b, size=shape)


def _laplace_cdf(x: np.ndarray, loc: float, scale: float) -> np.ndarray:
    """F(x) = e^(z)/2 for z = (x - loc)/b < 0, else 1 - e^(-z)/2 (no overflow at ±inf)."""
    z = (x - loc) / scale
    return np.where(
        z < 0, 0.5 * np.exp(np.minimum(z, 0.0)), 1.0 - 0.5 * np.exp(-np.maximum(z, 0.0))
    )


def laplace_cdf(x, *, loc: float, scale: float):
    r"""P[loc + Lap(b) <= x] = ½ e^((x-loc)/b) below loc, 1 - ½ e^(-(x-loc)/b) above."""
    loc = check_real("loc", loc)
    scale = check_positive("scale", scale)
    arr = check_real_array("x", x)
    out = _laplace_cdf(arr, loc, scale)
    return float(out) if out.ndim == 0 else out


def laplace_pdf(y, *, loc: float, scale: float):
    r"""Density of loc + Lap(b): exp(-|y - loc| / b) / (2b)."""
    loc = check_real("loc", loc)
    scale = check_positive("scale", scale)
    arr = check_finite_array("y", y, allow_empty=True)
    out = np.exp(-np.abs(arr - loc) / scale) / (2.0 * scale)
    return float(out) if out.ndim == 0 else out


def laplace_interval_probability(lo, hi, *, loc: float, scale: float):
    r"""Exact P[loc + Lap(b) ∈ [lo, hi]] = F(hi) - F(lo), with F the Laplace CDF.

    lo may be -inf and hi +inf; lo must not exceed hi. Broadcasts over arrays."""
    loc = check_real("loc", loc)
    scale = check_positive("scale", scale)
    lo_arr = check_real_array("lo", lo)
    hi_arr = check_real_array("hi", hi)
    if np.any(lo_arr > hi_arr):
        raise ValueError("lo must be <= hi")
    # Three cases, each without subtracting two numbers close to 1 (so the far tails keep
    # their digits): with z = (x - loc) / b,
    #   both above loc:  ½ (e^(-z_lo) - e^(-z_hi))
    #   both below loc:  ½ (e^(z_hi) - e^(z_lo))
    #   straddling loc:  1 - ½ e^(z_lo) - ½ e^(-z_hi)
    z_lo = (lo_arr - loc) / scale
    z_hi = (hi_arr - loc) / scale
    above = 0.5 * (np.exp(-np.maximum(z_lo, 0.0)) - np.exp(-np.maximum(z_hi, 0.0)))
    below = 0.5 * (np.exp(np.minimum(z_hi, 0.0)) - np.exp(np.minimum(z_lo, 0.0)))
    across = 1.0 - 0.5 * np.exp(np.minimum(z_lo, 0.0)) - 0.5 * np.exp(-np.maximum(z_hi, 0.0))
    out = np.where(z_lo >= 0, above, np.where(z_hi <= 0, below, across))
    out = np.clip(out, 0.0, 1.0)
    return float(out) if out.ndim == 0 else out


def laplace_privacy_loss(y, *, loc: float, loc_neighbour: float, scale: float):
    r"""Privacy loss at output y: ln(pdf_D(y) / pdf_D'(y)) = (|y - loc'| - |y - loc|) / b.

    By the triangle inequality |loss| <= |loc - loc'| / b, with equality in the tails.
    y may be ±inf (the loss is constant beyond both centres)."""
    loc = check_real("loc", loc)
    loc_neighbour = check_real("loc_neighbour", loc_neighbour)
    scale = check_positive("scale", scale)
    arr = check_real_array("y", y)
    lo, hi = min(loc, loc_neighbour) - 1.0, max(loc, loc_neighbour) + 1.0
    arr = np.clip(arr, lo, hi)
    out = (np.abs(arr - loc_neighbour) - np.abs(arr - loc)) / scale
    return float(out) if out.ndim == 0 else out
