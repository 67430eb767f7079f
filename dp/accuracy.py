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
    check_epsilon,
    check_finite_array,
    check_integer,
    check_positive,
    check_probability,
    check_real_array,
)
from .laplace import laplace_scale, laplace_variance
from .randomized_response import rr_keep_probability

# --- central model ------------------------------------------------------------------------


def laplace_std(sensitivity: float, epsilon: float) -> float:
    r"""Standard deviation (= root-mean-square error) of the Laplace mechanism:

    sd = √(2 b²) = √2 · Δ / ε."""
    return math.sqrt(laplace_variance(sensitivity, epsilon))


def laplace_median_abs_error(sensitivity: float, epsilon: float) -> float:
    r"""Median of |Lap(b)|: half the answers miss by more than this.

    P[|Lap(b)| > t] = e^(-t/b) = ½  ⇒  t = b ln 2."""
    return laplace_scale(sensitivity, epsilon) * math.log(2.0)


def laplace_abs_error_probability(lo, hi, *, sensitivity: float, epsilon: float):
    r"""Exact P[lo <= |Lap(b)| < hi] = e^(-lo/b) - e^(-hi/b), b = Δ/ε, for 0 <= lo <= hi
    (hi may be +inf). Broadcasts over arrays of bin edges."""
    b = laplace_scale(sensitivity, epsilon)
    lo_arr = check_real_array("lo", lo)
    hi_arr = check_real_array("hi", hi)
    if np.any(lo_arr < 0) or np.any(np.isinf(lo_arr)):
        raise ValueError("lo must be finite and >= 0 (an absolute error)")
    if np.any(lo_arr > hi_arr):
        raise ValueError("lo must be <= hi")
    out = np.exp(-lo_arr / b) - np.exp(-hi_arr / b)
    return float(out) if out.ndim == 0 else out


# --- sequential composition in practice -------------------------------------------------


def split_budget(total_epsilon: float, queries: int) -> float:
    r"""ε per query when a total budget is split evenly over m queries: ε_total / m
    (sequential composition then adds the m shares back up to ε_total)."""
    total_epsilon = check_epsilon(total_epsilon, "total_epsilon")
    queries = check_integer("queries", queries, low=1)
    return total_epsilon / queries


def queries_within_budget(total_epsilon: float, epsilon_per_query: float) -> int:
    r"""How many queries at ε each fit in a budget: ⌊ε_total / ε⌋ (with a tolerance of
    1e-9 so that 0.3 / 0.1 counts as 3, not 2.999…)."""
    total_epsilon = check_epsilon(total_epsilon, "total_epsilon")
    epsilon_per_query = check_epsilon(epsilon_per_query, "epsilon_per_query")
    return int(math.floor(total_epsilon / epsilon_per_query + 1e-9))


def averaged_laplace_std(sensitivity: float, epsilon: float, answers) -> float | np.ndarray:
    r"""Standard deviation of the average of m independent Laplace answers to the same
    query (the averaging attack):  sd = √2 · Δ / (ε √m).  `answers` (m) may be an array."""
    sd = laplace_std(sensitivity, epsilon)
    m = check_finite_array("answers", answers)
    if np.any(m < 1) or np.any(m != np.floor(m)):
        raise ValueError("answers must be whole numbers >= 1")
    out = sd / np.sqrt(m)
    return float(out) if out.ndim == 0 else out


def running_average(answers) -> np.ndarray:
    r"""The average of the first k answers, for k = 1 … m:  Āₖ = (1/k) Σ_{i<=k} Aᵢ."""
    arr = check_finite_array("answers", answers)
    if arr.ndim != 1:
        raise ValueError(f"answers must be one-dimensional, got shape {arr.shape}")
    return np.cumsum(arr) / np.arange(1, arr.size + 1)


# --- what an attacker can conclude --------------------------------------------------------


def likelihood_ratio_bound(epsilon: float) -> float:
    r"""The largest factor by which one output can be more likely under D than under a
    neighbour D': e^ε (for a group of g people use ε = g·ε₁, see `group_privacy`)."""
    return math.exp(check_epsilon(epsilon))


def posterior_bound(prior: float, epsilon: float) -> float:
    r"""Worst-case belief of an attacker after any output of an ε-DP mechanism:

    P[D | y] <= e^ε π / (e^ε π + 1 - π)  for prior π  (Bayes with the e^ε likelihood ratio);
    computed as π / (π + (1 - π) e^(-ε)) so that large ε cannot overflow."""
    prior = check_probability("prior", prior)
    epsilon = check_epsilon(epsilon)
    return prior / (prior + (1.0 - prior) * math.exp(-epsilon))


# --- local model --------------------------------------------------------------------------


def local_count_std(n, epsilon: float):
    r"""Standard deviation of the estimated count n·r̂ under binary randomized response
    with p = q = e^ε / (1 + e^ε):

    n² · Var[r̂] = n p(1 - p) / (2p - 1)²  ⇒  sd = √n · e^(ε/2) / (e^ε - 1).

    With p = q the variance does not depend on the true share r (r p(1-p) + (1-r) q(1-q) =
    p(1-p)). `n` may be an array (≥ 1)."""
    epsilon = check_epsilon(epsilon)
    n_arr = check_finite_array("n", n)
    if np.any(n_arr < 1):
        raise ValueError("n must be >= 1")
    p = rr_keep_probability(epsilon)
    out = np.sqrt(n_arr * p * (1.0 - p)) / (2.0 * p - 1.0)
    return float(out) if out.ndim == 0 else out


def local_to_central_error_ratio(n, epsilon: float):
    r"""How many times larger the local model's typical count error is than the central
    model's (Laplace, sensitivity 1) at the same ε:

    ratio = [√n e^(ε/2) / (e^ε - 1)] / (√2 / ε)."""
    return local_count_std(n, epsilon) / laplace_std(1.0, epsilon)


def normalised_error(std, true_count: float):
    r"""Typical error as a share of the true count: sd / count."""
    count = check_positive("true_count", true_count)
    sd = check_finite_array("std", std)
    out = sd / count
    return float(out) if out.ndim == 0 else out
