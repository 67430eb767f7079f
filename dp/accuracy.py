r"""Accuracy: how large the error of a DP answer typically is, and what a budget buys.

"Typical error" here is the root-mean-square error; every estimator below is unbiased, so
it equals the standard deviation of the answer.

Central model (one trusted curator adds Laplace noise of scale b = Δ/ε):
    sd = √2 · Δ / ε                       — constant in the number of people n.
Local model (every person runs binary randomized response with p = q = e^ε / (1 + e^ε)):
    sd of the estimated count = √n · e^(ε/2) / (e^ε - 1)   — grows like √n.
(Dwork & Roth 2014, §3.3 and §3.5; Warner 1965; Duchi, Jordan & Wainwright 2013 for the
√n gap between the two models.)
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    check_finite_array,
    check_integer,
    check_positive,
    check_probability,
)

# --- central model ------------------------------------------------------------------------


# --- sequential composition in practice -------------------------------------------------


def running_average(answers) -> np.ndarray:
    r"""The average of the first k answers, for k = 1 … m:  Āₖ = (1/k) Σ_{i<=k} Aᵢ."""
    arr = check_finite_array("answers", answers)
    if arr.ndim != 1:
        raise ValueError(f"answers must be one-dimensional, got shape {arr.shape}")
    return np.cumsum(arr) / np.arange(1, arr.size + 1)


# --- what an attacker can conclude --------------------------------------------------------


# --- local model --------------------------------------------------------------------------


def normalised_error(std, true_count: float):
    r"""Typical error as a share of the true count: sd / count."""
    count = check_positive("true_count", true_count)
    sd = check_finite_array("std", std)
    if np.any(sd < 0):
        raise ValueError("std must be >= 0 (a standard deviation)")
    out = sd / count
    return float(out) if out.ndim == 0 else out


def _difference(estimates, truth) -> np.ndarray:
    estimates = check_finite_array("estimates", estimates)
    truth = check_finite_array("truth", truth)
    if truth.ndim != 1:
        raise ValueError(f"truth must be one-dimensional, got shape {truth.shape}")
    if estimates.shape[-1] != truth.size:
        raise ValueError(
            f"estimates must have {truth.size} entries on their last axis (one per "
            f"category of truth), got shape {estimates.shape}"
        )
    return estimates - truth


def l1_error(estimates, truth) -> np.ndarray | float:
    r"""L1 error of a histogram estimate: Σ_v |ĉ_v - c_v| (last axis = categories; a
    float for one histogram, an array for many repeated ones)."""
    out = np.abs(_difference(estimates, truth)).sum(axis=-1)
    return float(out) if out.ndim == 0 else out


def l2_error(estimates, truth) -> np.ndarray | float:
    r"""L2 (Euclidean) error of a histogram estimate: sqrt(Σ_v (ĉ_v - c_v)²) (last axis =
    categories; a float for one histogram, an array for many repeated ones)."""
    difference = _difference(estimates, truth)
    # scaled by the largest gap first, so that no square overflows (a norm beyond the
    # largest float is inf)
    peak = np.max(np.abs(difference), axis=-1, keepdims=True)
    unit = difference / np.where(peak > 0, peak, 1.0)
    with np.errstate(over="ignore"):
        out = peak[..., 0] * np.sqrt(np.square(unit).sum(axis=-1))
    return float(out) if out.ndim == 0 else out


def proportion_standard_error(proportion: float, tries: int) -> float:
    r"""Standard error of a success share over n independent tries: √(p (1 - p) / n)."""
    proportion = check_probability("proportion", proportion)
    tries = check_integer("tries", tries, low=1)
    return math.sqrt(proportion * (1.0 - proportion) / tries)
