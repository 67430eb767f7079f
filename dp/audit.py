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

import numpy as np

from ._validate import check_epsilon, check_real, check_real_array


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
    a = check_real_array("outputs_d", _bools_as_ints(outputs_d), allow_inf=False)
    b = check_real_array("outputs_d_prime", _bools_as_ints(outputs_d_prime), allow_inf=False)
    if a.size == 0:
        raise ValueError("outputs_d must not be empty")
    if b.size == 0:
        raise ValueError("outputs_d_prime must not be empty")
    if thresholds is None and (np.any(a != np.round(a)) or np.any(b != np.round(b))):
        raise ValueError("outputs look continuous: pass thresholds= (a grid fixed before sampling)")
    counts_a, counts_b = _event_counts(a, b, thresholds)
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
    a = check_real_array("outputs_d", _bools_as_ints(outputs_d), allow_inf=False)
    b = check_real_array("outputs_d_prime", _bools_as_ints(outputs_d_prime), allow_inf=False)
    if a.size == 0:
        raise ValueError("outputs_d must not be empty")
    if b.size == 0:
        raise ValueError("outputs_d_prime must not be empty")
    if thresholds is None and (np.any(a != np.round(a)) or np.any(b != np.round(b))):
        raise ValueError("outputs look continuous: pass thresholds= (a grid fixed before sampling)")
    counts_a, counts_b = _event_counts(a, b, thresholds)
    level = alpha / (4 * len(counts_a))
    low_a, high_a = _clopper_pearson(counts_a, len(a), level)
    low_b, high_b = _clopper_pearson(counts_b, len(b), level)
    scale = np.exp(eps)
    best = max(float(np.max(low_a - scale * high_b)), float(np.max(low_b - scale * high_a)))
    return max(best, 0.0)
