r"""Empirical privacy auditing: a statistically sound lower bound on ε from samples.

Run a mechanism many times on neighbouring inputs D and D' and count how often each output
event E happens. ε-DP demands P[M(D) ∈ E] <= e^ε P[M(D') ∈ E] for every E, so

    ε >= ln( lower_CP(P[M(D) ∈ E]) / upper_CP(P[M(D') ∈ E]) )

holds with high probability when the bounds are one-sided Clopper–Pearson intervals and
the error budget α is split over all events and both directions (union bound). A
mechanism whose real ε exceeds its claim is caught with enough samples; a correct one
exceeds its claim with probability at most α. (Jagielski et al. 2020; Ding et al. 2018.)
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    check_epsilon,
    check_integer,
    check_probability,
    check_real,
    check_real_array,
)


def _clopper_pearson(successes: np.ndarray, trials: int, alpha: float):
    """One-sided lower and upper Clopper–Pearson bounds, each at level 1 - alpha."""
    from scipy.stats import beta  # scipy is a dev/test dependency; only auditing needs it

    successes = np.asarray(successes, dtype=float)
    with np.errstate(invalid="ignore"):
        lower = np.where(successes > 0, beta.ppf(alpha, successes, trials - successes + 1), 0.0)
        upper = np.where(
            successes < trials, beta.ppf(1 - alpha, successes + 1, trials - successes), 1.0
        )
    return np.nan_to_num(lower, nan=0.0), np.nan_to_num(upper, nan=1.0)


def _events(outputs_d, outputs_d_prime, thresholds):
    """Both samples, checked, and how often each event happened in each: (a, b, counts in
    a, counts in b)."""
    a = check_real_array("outputs_d", _bools_as_ints(outputs_d), allow_inf=False)
    b = check_real_array("outputs_d_prime", _bools_as_ints(outputs_d_prime), allow_inf=False)
    if a.size == 0:
        raise ValueError("outputs_d must not be empty")
    if b.size == 0:
        raise ValueError("outputs_d_prime must not be empty")
    if thresholds is None and (np.any(a != np.round(a)) or np.any(b != np.round(b))):
        raise ValueError("outputs look continuous: pass thresholds= (a grid fixed before sampling)")
    return (a, b, *_event_counts(a, b, thresholds))


def _event_counts(a: np.ndarray, b: np.ndarray, thresholds):
    """Counts of each event in the two samples."""
    if thresholds is not None:
        t = check_real_array("thresholds", thresholds, allow_inf=False).ravel()
        if t.size == 0:
            raise ValueError("thresholds must not be empty")
        if a.ndim != 1 or b.ndim != 1:
            raise ValueError("continuous outputs (with thresholds) must be 1-D samples")
        a_sorted, b_sorted = np.sort(a), np.sort(b)
        above_a = a.size - np.searchsorted(a_sorted, t, side="right")
        above_b = b.size - np.searchsorted(b_sorted, t, side="right")
        # Events {y > t} and {y <= t}.
        return (
            np.concatenate([above_a, a.size - above_a]),
            np.concatenate([above_b, b.size - above_b]),
        )
    if a.ndim == 1:
        a, b = a[:, None], b[:, None]
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1]:
        raise ValueError(
            "outputs_d and outputs_d_prime must both be 1-D, or 2-D with the same number "
            f"of columns; got shapes {a.shape} and {b.shape}"
        )
    events, inverse = np.unique(np.concatenate([a, b]), axis=0, return_inverse=True)
    inverse = np.asarray(inverse).ravel()
    counts_a = np.bincount(inverse[: a.shape[0]], minlength=len(events))
    counts_b = np.bincount(inverse[a.shape[0] :], minlength=len(events))
    return counts_a, counts_b


def _bools_as_ints(outputs):
    """Boolean outputs (e.g. unary-encoding bits) are discrete 0/1 outputs."""
    if isinstance(outputs, np.ndarray | list | tuple):
        arr = np.asarray(outputs)
        if arr.dtype == np.bool_:
            return arr.astype(np.int64)
    return outputs


def audit_epsilon(outputs_d, outputs_d_prime, *, alpha: float = 1e-6, thresholds=None) -> float:
    r"""A lower confidence bound (valid with probability >= 1 - α) on the ε that the two
    output samples reveal.

    Discrete outputs (1-D): each output value is an event. Vector outputs (2-D, one row per
    run, e.g. unary-encoding bits): each distinct row is an event. Continuous outputs
    (e.g. Laplace): pass `thresholds`, a grid fixed before sampling; the events are
    {y > t} and {y <= t}. Both directions D/D' and D'/D are bounded. Returns 0.0 when the
    samples show nothing."""
    alpha = check_real("alpha", alpha, low=0.0, high=1.0, low_open=True, high_open=True)
    a, b, counts_a, counts_b = _events(outputs_d, outputs_d_prime, thresholds)
    n_a, n_b = len(a), len(b)
    # Union bound: each event in each direction uses one lower and one upper bound.
    level = alpha / (4 * len(counts_a))
    low_a, high_a = _clopper_pearson(counts_a, n_a, level)
    low_b, high_b = _clopper_pearson(counts_b, n_b, level)
    with np.errstate(divide="ignore"):
        forward = np.log(low_a) - np.log(high_b)
        backward = np.log(low_b) - np.log(high_a)
    best = float(np.max(np.concatenate([forward, backward])))
    return max(best, 0.0)


def audit_delta(
    outputs_d, outputs_d_prime, epsilon: float, *, alpha: float = 1e-6, thresholds=None
) -> float:
    r"""A lower confidence bound (valid with probability >= 1 − α) on the δ that the two
    output samples reveal at ε: (ε, δ)-DP demands P[M(D) ∈ E] − e^ε P[M(D') ∈ E] <= δ for
    every event E, so

        δ >= max over E of  lower_CP(P[M(D) ∈ E]) − e^ε · upper_CP(P[M(D') ∈ E]),

    in both directions, with the same events and union bound as `audit_epsilon`. For the
    Gaussian mechanism the worst event is a threshold {y <= t}, so `thresholds` on a grid
    finds it. Returns 0.0 when the samples show nothing."""
    alpha = check_real("alpha", alpha, low=0.0, high=1.0, low_open=True, high_open=True)
    eps = check_epsilon(epsilon)
    a, b, counts_a, counts_b = _events(outputs_d, outputs_d_prime, thresholds)
    level = alpha / (4 * len(counts_a))
    low_a, high_a = _clopper_pearson(counts_a, len(a), level)
    low_b, high_b = _clopper_pearson(counts_b, len(b), level)
    with np.errstate(over="ignore"):  # e^ε beyond the largest float is inf: an event whose
        scale = np.exp(eps)  # other side was never seen (high 0) counts whole, no inf·0
        spent_b = np.where(high_b > 0, scale * np.where(high_b > 0, high_b, 1.0), 0.0)
        spent_a = np.where(high_a > 0, scale * np.where(high_a > 0, high_a, 1.0), 0.0)
    best = max(float(np.max(low_a - spent_b)), float(np.max(low_b - spent_a)))
    return max(best, 0.0)


# --- From an attack's rates to ε (Kairouz, Oh & Viswanath 2015; Jagielski, Ullman & Oprea 2020)


def epsilon_from_rates(tpr: float, fpr: float, *, delta: float = 0.0) -> float:
    r"""The least ε under which an (ε, δ)-DP mechanism admits a test with these rates.

    Any test of "D" against a neighbour "D′" on an (ε, δ)-DP mechanism's output satisfies
    TPR ≤ e^ε·FPR + δ and, for the complement, 1 − FPR ≤ e^ε·(1 − TPR) + δ (Kairouz, Oh &
    Viswanath 2015, Theorem 2.1). Solved for ε:

        ε = max(0, ln((TPR − δ)/FPR), ln((1 − FPR − δ)/(1 − TPR)))

    A term whose numerator is ≤ 0 is skipped (it bounds nothing); x/0 with x > 0 is ∞
    (no finite ε allows that test)."""
    t = check_probability("tpr", tpr)
    f = check_probability("fpr", fpr)
    d = check_real("delta", delta, low=0.0, high=1.0, high_open=True)
    best = 0.0
    for numerator, denominator in ((t - d, f), (1.0 - f - d, 1.0 - t)):
        if numerator <= 0.0:
            continue
        if denominator <= 0.0:
            return math.inf
        best = max(best, math.log(numerator / denominator))
    return best


def epsilon_lower_bound(
    true_positives: int,
    positives: int,
    false_positives: int,
    negatives: int,
    *,
    delta: float = 0.0,
    confidence: float = 0.95,
) -> float:
    r"""ε is at least this, with probability ≥ `confidence`: `epsilon_from_rates` with the
    true-positive rate replaced by its one-sided Clopper–Pearson lower bound and the false-
    positive rate by its upper bound, each at level 1 − (1 − confidence)/2 (so both hold
    together with probability ≥ confidence; Jagielski, Ullman & Oprea 2020).

    `positives` runs on D, of which `true_positives` the attack called "D"; `negatives`
    runs on D′, of which `false_positives` it called "D". The bound can show that a
    mechanism is *not* ε-DP; it never shows that one is."""
    n_pos = check_integer("positives", positives, low=1)
    n_neg = check_integer("negatives", negatives, low=1)
    tp = check_integer("true_positives", true_positives)
    fp = check_integer("false_positives", false_positives)
    if tp > n_pos:
        raise ValueError(f"true_positives must be <= positives = {n_pos}, got {tp}")
    if fp > n_neg:
        raise ValueError(f"false_positives must be <= negatives = {n_neg}, got {fp}")
    level = check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)
    d = check_real("delta", delta, low=0.0, high=1.0, high_open=True)
    alpha = (1.0 - level) / 2.0
    tpr_low, _ = _clopper_pearson(np.array([tp]), n_pos, alpha)
    _, fpr_high = _clopper_pearson(np.array([fp]), n_neg, alpha)
    return epsilon_from_rates(float(tpr_low[0]), float(fpr_high[0]), delta=d)


def tpr_bound(fpr, epsilon: float, *, delta: float = 0.0):
    r"""The largest true-positive rate any test can reach at false-positive rate `fpr` on an
    (ε, δ)-DP mechanism: the edge of the privacy region (Kairouz, Oh & Viswanath 2015,
    Theorem 2.1), the inverse of `epsilon_from_rates`:

        TPR ≤ min(1, e^ε·FPR + δ, 1 − e^(−ε)·(1 − FPR − δ))

    `fpr` a number or an array of numbers in [0, 1]; the result has its shape."""
    f = check_real_array("fpr", fpr, allow_inf=False)
    if np.any((f < 0.0) | (f > 1.0)):
        raise ValueError("fpr must lie in [0, 1]")
    eps = check_epsilon(epsilon)
    d = check_real("delta", delta, low=0.0, high=1.0, high_open=True)
    with np.errstate(over="ignore"):  # e^ε·FPR beyond the largest float: inf, capped at 1
        grown = np.where(f > 0, np.exp(eps) * np.where(f > 0, f, 1.0), 0.0)
    bound = np.minimum.reduce([np.ones_like(f), grown + d, 1.0 - math.exp(-eps) * (1.0 - f - d)])
    bound = np.clip(bound, 0.0, 1.0)
    return float(bound) if bound.ndim == 0 else bound
