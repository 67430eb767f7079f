r"""Binary randomized response (local model).

Each person reports a bit. With keep-probabilities
    p = P[report 1 | truth 1],   q = P[report 0 | truth 0],
the share of reported 1s has expectation  E[Ŷ] = r p + (1 - r)(1 - q)  for a true share r,
so  r̂ = (Ŷ + q - 1) / (p + q - 1)  is unbiased whenever p + q ≠ 1.
(Warner 1965; Dwork & Roth 2014, §3.2; Erlingsson et al. 2014.)
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    as_rng,
    check_binary,
    check_epsilon,
    check_integer,
    check_not_one,
    check_probability,
    check_real_array,
    check_size,
)


def coin_flip_probabilities(honest: float = 0.5, yes: float = 0.5) -> tuple[float, float]:
    r"""Keep-probabilities of the two-coin protocol.

    Coin 1 says "answer honestly" with probability h; otherwise coin 2 says "yes" with
    probability y. Then
        p = P[yes | truth yes] = h + (1 - h) y,
        q = P[no  | truth no ] = h + (1 - h)(1 - y).
    Fair coins (h = y = ½) give p = q = ¾."""
    honest = check_probability("honest", honest)
    yes = check_probability("yes", yes)
    return honest + (1.0 - honest) * yes, honest + (1.0 - honest) * (1.0 - yes)


def _abs_log_ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """|ln(a / b)| for probabilities a, b >= 0: inf if exactly one is 0, and 0 if both are
    (an output that never happens constrains nothing)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.abs(np.log(a) - np.log(b))
    return np.where((a == 0) & (b == 0), 0.0, out)


def _probability_array(name: str, x) -> np.ndarray:
    arr = check_real_array(name, x, allow_inf=False)
    if np.any((arr < 0) | (arr > 1)):
        raise ValueError(f"{name} must be in [0, 1]")
    return arr


def rr_epsilon(p, q):
    r"""The smallest ε that binary randomized response with keep-probabilities (p, q)
    satisfies: the largest |ln| of the likelihood ratios of the two outputs,

        ε = max( |ln( p / (1 - q) )|,  |ln( (1 - p) / q )| ).

    Right on all of [0, 1]²: below ½ too (lying more often than not is as informative),
    0 where the report does not depend on the truth (p + q = 1), and inf where one output
    is possible under one truth only. (¾, ¾) → ln 3; (0.7, 0.6) → ln 2. Broadcasts."""
    p_arr = _probability_array("p", p)
    q_arr = _probability_array("q", q)
    out = np.maximum(_abs_log_ratio(p_arr, 1.0 - q_arr), _abs_log_ratio(1.0 - p_arr, q_arr))
    return float(out) if out.ndim == 0 else out


def rr_likelihood_ratios(p, q, *, log: bool = True):
    r"""The likelihood ratios of the two reports of binary randomized response, each taken
    as evidence for the true answer it repeats:

        a reported yes:  P[yes | truly yes] / P[yes | truly no] = p / (1 - q),
        a reported no :  P[no  | truly no ] / P[no  | truly yes] = q / (1 - p).

    Returns (yes, no): their natural logs (default), or the ratios themselves with
    `log=False`. A ratio is inf (ln +inf) where only its denominator is 0 (the report is
    impossible under the other truth), 0 (ln -inf) where only its numerator is 0, and 1
    (ln 0) where both are 0 (a report that never happens reveals nothing). Below ½ the
    logs turn negative: that report is evidence for the *other* truth.
    `rr_epsilon(p, q)` equals max(|yes|, |no|) of the logs. (¾, ¾) → (ln 3, ln 3);
    (0.7, 0.6) → (ln 1.75, ln 2). Broadcasts."""
    p_arr = _probability_array("p", p)
    q_arr = _probability_array("q", q)
    out = []
    for top, bottom in ((p_arr, 1.0 - q_arr), (q_arr, 1.0 - p_arr)):
        never = (top == 0) & (bottom == 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            if log:
                value = np.where(never, 0.0, np.log(top) - np.log(bottom))
            else:
                value = np.where(never, 1.0, np.where(bottom == 0, np.inf, top / bottom))
        out.append(float(value) if value.ndim == 0 else value)
    return out[0], out[1]


def rr_count_std(proportion: float, n: int, p: float, q: float) -> float:
    r"""Standard deviation of the count estimate n · r̂ (see `rr_variance`):

    SD[n r̂] = n · sqrt( [ r p (1 - p) + (1 - r) q (1 - q) ] / ( n (p + q - 1)² ) )."""
    return n * math.sqrt(rr_variance(proportion, n, p, q))


def rr_keep_probability(epsilon: float) -> float:
    r"""Keep-probability p = q that makes binary randomized response exactly ε-LDP:

    p = e^ε / (1 + e^ε)     (ε = 2 → 0.881)."""
    epsilon = check_epsilon(epsilon)
    return 1.0 / (1.0 + math.exp(-epsilon))


def randomized_response(truth, p: float = 0.75, q: float = 0.75, *, rng=None) -> np.ndarray:
    r"""Each person's report: a true 1 stays 1 with probability p; a true 0 stays 0 with
    probability q. `truth` holds 0/1 (or booleans); returns int64 0/1 reports."""
    truth = check_binary("truth", truth)
    p = check_probability("p", p)
    q = check_probability("q", q)
    u = as_rng(rng).random(truth.shape)
    return np.where(truth, u < p, u >= q).astype(np.int64)


def estimate_proportion(responses, p: float, q: float) -> float:
    r"""Unbiased estimate of the true share of 1s from the reports:

        r̂ = (Ŷ + q - 1) / (p + q - 1),   Ŷ = mean of the reports.

    Not clipped to [0, 1] (clipping would bias it)."""
    responses = check_binary("responses", responses, allow_empty=False)
    p = check_probability("p", p)
    q = check_probability("q", q)
    check_not_one(p, q)
    return float((responses.mean() + q - 1.0) / (p + q - 1.0))


def estimate_count(responses, p: float, q: float) -> float:
    r"""Unbiased estimate of the number of true 1s: n · r̂."""
    responses = check_binary("responses", responses, allow_empty=False)
    return responses.size * estimate_proportion(responses, p, q)


def estimate_proportion_from_counts(yes_counts, n: int, p: float, q: float):
    r"""r̂ = (C/n + q - 1) / (p + q - 1) for reported-yes counts C out of n (vectorised
    over many surveys, e.g. the output of `sample_rr_counts`)."""
    n = check_integer("n", n, low=1)
    p = check_probability("p", p)
    q = check_probability("q", q)
    check_not_one(p, q)
    counts = check_real_array("yes_counts", yes_counts, allow_inf=False)
    if np.any((counts < 0) | (counts > n)):
        raise ValueError(f"yes_counts must lie in 0..n (n = {n})")
    out = (counts / n + q - 1.0) / (p + q - 1.0)
    return float(out) if out.ndim == 0 else out


def rr_variance(proportion: float, n: int, p: float, q: float) -> float:
    r"""Variance of `estimate_proportion` given the n true values with true share r:

    Var[r̂] = [ r p (1 - p) + (1 - r) q (1 - q) ] / ( n (p + q - 1)² )."""
    r = check_probability("proportion", proportion)
    n = check_integer("n", n, low=1)
    p = check_probability("p", p)
    q = check_probability("q", q)
    check_not_one(p, q)
    return (r * p * (1.0 - p) + (1.0 - r) * q * (1.0 - q)) / (n * (p + q - 1.0) ** 2)


def sample_rr_counts(true_yes: int, n: int, p: float, q: float, *, size=None, rng=None):
    r"""Exact draw of the number of reported 1s without simulating people:

        Binomial(true_yes, p) + Binomial(n - true_yes, 1 - q).

    Returns an int, or an int64 array of shape `size`."""
    n = check_integer("n", n, low=0)
    true_yes = check_integer("true_yes", true_yes, low=0)
    if true_yes > n:
        raise ValueError(f"true_yes must be <= n, got true_yes = {true_yes}, n = {n}")
    p = check_probability("p", p)
    q = check_probability("q", q)
    size = check_size(size)
    generator = as_rng(rng)
    out = generator.binomial(true_yes, p, size=size) + generator.binomial(
        n - true_yes, 1.0 - q, size=size
    )
    return int(out) if size is None else np.asarray(out, dtype=np.int64)
