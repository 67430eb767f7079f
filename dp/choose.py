r"""Choosing a local frequency oracle, and measuring how far a histogram estimate is off
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

from ._validate import check_epsilon, check_finite_array, check_integer, check_k


def oue_variance(n: int, epsilon: float) -> float:
    r"""Variance of one OUE count estimate at true share 0 (count scale):

    n q(1-q)/(p-q)² with p = 1/2, q = 1/(e^ε+1)  =  n · 4 e^ε / (e^ε - 1)².

    It does not depend on k."""
    n = check_integer("n", n, low=1)
    epsilon = check_epsilon(epsilon)
    # 4 e^ε / (e^ε - 1)² = 4 e^(-ε) / (1 - e^(-ε))², no overflow for large ε.
    t = math.exp(-epsilon)
    return n * 4.0 * t / (-math.expm1(-epsilon)) ** 2


def grr_oue_crossover_k(epsilon: float) -> float:
    r"""The number of categories k* = 3 e^ε + 2 at which GRR and OUE have equal variance.

    From (e^ε + k - 2) / (e^ε - 1)² = 4 e^ε / (e^ε - 1)²  ⇔  k = 3 e^ε + 2.
    GRR has the smaller variance for k < k*, OUE for k > k*. A real number: the crossover
    usually falls between two whole k."""
    epsilon = check_epsilon(epsilon)
    return 3.0 * math.exp(epsilon) + 2.0


def better_frequency_oracle(epsilon: float, k: int) -> str:
    r"""'GRR' if k < 3 e^ε + 2 (its variance is smaller), 'OUE' if k > 3 e^ε + 2, and
    'either' when the two variances are equal."""
    k = check_k(k)
    crossover = grr_oue_crossover_k(epsilon)
    if math.isclose(k, crossover, rel_tol=1e-12):
        return "either"
    return "GRR" if k < crossover else "OUE"


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
    out = np.sqrt(np.square(_difference(estimates, truth)).sum(axis=-1))
    return float(out) if out.ndim == 0 else out
