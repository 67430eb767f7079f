r"""Binary randomized response (local model).

Each person reports a bit. With keep-probabilities
    p = P[report 1 | truth 1],   q = P[report 0 | truth 0],
the share of reported 1s has expectation  E[Ŷ] = r p + (1 - r)(1 - q)  for a true share r,
so  r̂ = (Ŷ + q - 1) / (p + q - 1)  is unbiased whenever p + q ≠ 1.
(Warner 1965; Dwork & Roth 2014, §3.2; Erlingsson et al. 2014.)


Confidence intervals, from counts:
Confidence intervals for binary randomized response, from counts.

With n reports of which C say "yes", the unbiased estimate of the true share is
    r̂ = (C/n + q - 1) / (p + q - 1)                       (dp.estimate_proportion_from_counts)
and its variance given the true share r is
    Var[r̂] = [r p(1-p) + (1-r) q(1-q)] / (n (p+q-1)²)      (dp.rr_variance).
A Wald interval plugs the estimate (clipped to [0, 1], where r lives) into the variance:
    r̂ ± z · sqrt(Var[r̂ at r = clip(r̂)]),   z = Φ⁻¹(1 - (1 - level)/2)  (1.96 at 95%).
The interval is then intersected with [0, 1]: the true share lies there, so cutting off
the impossible part cannot make the interval miss it more often. The estimate itself is
not clipped (that would bias it).


A plausible but WRONG formula, kept so a lesson can show what it does:
Plausible but WRONG formulas, kept here so lessons can show what they do.

Nothing in this module is an estimator to use. Each function says in its name and its
docstring what is wrong with it, and the tests prove the bias.

The fair-coin de-biasing (Dwork & Roth 2014, §3.2, "The Algorithmic Foundations of
Differential Privacy"): with two fair coins a true "yes" is reported "yes" with probability
¾ and a true "no" with probability ¼, so the share of "yes" answers has expectation
    E[Ŷ] = ¼ (1 - r) + ¾ r = ¼ + r / 2,
and the book estimates r as "twice the fraction answering yes, minus ½":
    r̂ = 2 Ŷ - ½.
That formula hard-codes both coins. Copied into a survey that later biased its coins
(honest probability h, random-"yes" probability y), it silently keeps answering for fair
coins. The right estimator for any coins is
    r̂ = (Ŷ - (1 - h) y) / h = (Ŷ + q - 1) / (p + q - 1)   (see `dp.estimate_proportion`).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from ._validate import (
    MAX_EXP_EPSILON,
    as_rng,
    check_binary,
    check_count,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_not_one,
    check_probability,
    check_real,
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


def rr_pull_point(p: float, q: float) -> float:
    r"""The share the coins pull the reported share toward: r* = (1 - q) / (2 - p - q).

    The expected reported share is E[Ŷ] = r p + (1 - r)(1 - q), so
    E[Ŷ] - r* = (p + q - 1)(r - r*): with p + q < 2 every true share r is reported closer
    to r* (pulled by the factor p + q - 1). r* = ½ exactly when p = q. Undefined for
    p = q = 1 (truthful reports: no pull)."""
    p = check_probability("p", p)
    q = check_probability("q", q)
    if p == 1.0 and q == 1.0:
        raise ValueError("p and q must not both be 1: truthful reports are not pulled anywhere")
    return (1.0 - q) / (2.0 - p - q)


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
    n = check_count("n", n)
    true_yes = check_count("true_yes", true_yes)
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
    # √n e^(ε/2) / (e^ε − 1), written as √n / (e^(ε/2) − e^(−ε/2)) = √n / (2 sinh(ε/2)):
    # exact at tiny ε (2p − 1 would round to 0 below ε ≈ 1e-16) and no overflow at large ε.
    # beyond 2·ln(largest float) the sinh is past every float: the error is 0 to the last digit
    denominator = 2.0 * math.sinh(epsilon / 2.0) if epsilon < 2 * MAX_EXP_EPSILON else math.inf
    if denominator == 0.0 or not math.isfinite(1.0 / denominator):
        raise ValueError(f"epsilon is too small to give a finite error, got {epsilon:g}")
    with np.errstate(over="raise"):
        try:
            out = np.sqrt(n_arr) / denominator
        except FloatingPointError:
            raise ValueError(
                f"epsilon is too small to give a finite error, got {epsilon:g}"
            ) from None
    if not np.all(np.isfinite(out)):
        raise ValueError(f"epsilon is too small to give a finite error, got {epsilon:g}")
    return float(out) if out.ndim == 0 else out


def local_to_central_error_ratio(n, epsilon: float):
    r"""How many times larger the local model's typical count error is than the central
    model's (Laplace, sensitivity 1) at the same ε:

    ratio = [√n e^(ε/2) / (e^ε - 1)] / (√2 / ε) = √(n/2) · (ε/2) / sinh(ε/2),

    the last form finite and exact at any ε (it tends to √(n/2) as ε → 0)."""
    epsilon = check_epsilon(epsilon)
    n_arr = check_finite_array("n", n)
    if np.any(n_arr < 1):
        raise ValueError("n must be >= 1")
    half = epsilon / 2.0
    # x / sinh x = 2x e^(−x) / (1 − e^(−2x)): the second form where sinh would overflow
    shrink = half / math.sinh(half) if half < 20.0 else 2.0 * half * math.exp(-half)
    out = np.sqrt(n_arr / 2.0) * shrink
    return float(out) if out.ndim == 0 else out


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
        [low, high] = clip([r̂ ± z sqrt(rr_variance(clip(r̂, 0, 1), n, p, q))], 0, 1).

    Both ends are clipped to [0, 1], so low <= high always; when r̂ falls outside [0, 1] so
    far that the whole interval does, it shrinks to the nearer end (e.g. [1, 1]). The
    estimate itself is returned unclipped: show it clipped, with the raw value explained."""
    n = check_integer("n", n, low=1)
    yes_count = check_integer("yes_count", yes_count, low=0)
    if yes_count > n:
        raise ValueError(f"yes_count must be <= n, got yes_count = {yes_count}, n = {n}")
    z = normal_quantile_two_sided(level)
    estimate = estimate_proportion_from_counts(yes_count, n, p, q)
    half_width = z * math.sqrt(rr_variance(min(max(estimate, 0.0), 1.0), n, p, q))
    low = min(max(estimate - half_width, 0.0), 1.0)
    high = max(min(estimate + half_width, 1.0), 0.0)
    return estimate, low, high


def rr_running_intervals(
    reports, p: float, q: float, *, level: float = 0.95
) -> dict[str, np.ndarray]:
    r"""The estimate and its interval after each of the reports, in arrival order:
    for k = 1..n the first k reports give C_k = cumulative sum, and

        r̂_k = (C_k/k + q - 1)/(p + q - 1),  [low_k, high_k] as in rr_confidence_interval.

    Returns arrays 'n', 'reported_share', 'estimate', 'low', 'high' (length n; empty when
    there are no reports); 0 <= low <= high <= 1 at every k, the estimate unclipped. Vectorised:
    no loop over reports."""
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
        # Both ends clipped into [0, 1], as in rr_confidence_interval: an estimate far above
        # 1 (11 "yes" at p = q = 0.75) must not give low = 1.01 > high = 1.
        "low": np.clip(estimate - half_width, 0.0, 1.0),
        "high": np.clip(estimate + half_width, 0.0, 1.0),
    }


def fair_coin_formula_estimate(yes_counts, n: int):
    r"""WRONG unless both coins are fair: the textbook fair-coin de-biasing 2Ŷ − ½.

        r̂_wrong = 2 · (C / n) − ½      for C reported "yes" out of n.

    It is Dwork & Roth's formula for h = y = ½ (first coin: answer honestly with
    probability h; second coin: "yes" with probability y). It subtracts the fair-coin
    random-"yes" share ¼ instead of (1 − h) y, and multiplies by 2 = 1/½ instead of
    dividing by h = p + q − 1. Its expectation is r + `fair_coin_formula_bias(r, h, y)`,
    which is r for every r only when h = y = ½. Vectorised over many surveys' counts."""
    n = check_integer("n", n, low=1)
    counts = check_real_array("yes_counts", yes_counts, allow_inf=False)
    if np.any((counts < 0) | (counts > n)):
        raise ValueError(f"yes_counts must lie in 0..n (n = {n})")
    out = 2.0 * (counts / n) - 0.5
    return float(out) if out.ndim == 0 else out


def fair_coin_formula_bias(proportion: float, honest: float, yes: float) -> float:
    r"""The bias E[r̂_wrong] − r of `fair_coin_formula_estimate` under biased coins.

    With E[Ŷ] = h r + (1 − h) y (coin 1 honest with probability h, coin 2 "yes" with
    probability y):
        E[2Ŷ − ½] − r = (2h − 1) r + 2 (1 − h) y − ½,
    which is 0 for every r exactly when h = ½ and y = ½."""
    r = check_probability("proportion", proportion)
    h = check_probability("honest", honest)
    y = check_probability("yes", yes)
    return (2.0 * h - 1.0) * r + 2.0 * (1.0 - h) * y - 0.5
