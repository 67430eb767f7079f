r"""Beyond global sensitivity: local and smooth sensitivity of the median, propose-test-release,
and sample-and-aggregate.

The median of `values` clamped to [lower, upper], sorted x_1 ≤ … ≤ x_n, is x_m with
m = ⌈n/2⌉ (1-based; the lower median), and x_i = lower for i < 1, x_i = upper for i > n.
Neighbours replace one person (n fixed), the relation of Nissim, Raskhodnikova & Smith 2007
(NRS). The global sensitivity of the median is upper − lower; on real data it moves far less:

    A^(k)(x) = max over 0 ≤ t ≤ k+1 of (x_{m+t} − x_{m+t−k−1})         (NRS Prop. 3.4)

is the largest local sensitivity of any dataset within k replacements of x; A^(0) is the
local sensitivity LS(x) itself. Adding noise scaled to LS(x) is NOT private: LS differs
between neighbours, so the noise scale gives the data away. The smooth sensitivity

    S_β(x) = max over k ≥ 0 of e^(−kβ)·A^(k)(x)                            (NRS Def. 2.2)

changes by at most a factor e^β between neighbours, and median + Lap(2S/ε) with
β = ε / (2 ln(2/δ)) is (ε, δ)-DP (NRS Lemma 2.9, Example 2.10 with Laplace noise).

Propose-test-release (Dwork & Lei 2009; Dwork & Roth §7.3): propose a bound b on the local
sensitivity, measure the distance d to the nearest dataset whose local sensitivity exceeds
b (it moves by at most 1 between neighbours), and release only if d + Lap(1/ε) > ln(1/δ)/ε.

Sample-and-aggregate (NRS §4): split the people into k disjoint blocks, compute any
statistic on each, clamp the k estimates to [lower, upper] and release their noisy mean:
one person is in one block, so the mean moves by at most (upper − lower)/k.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ._validate import (
    as_rng,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_positive,
    check_real,
    check_size,
)
from .gaussian import check_delta
from .sensitivity import _check_bounds


def _sorted_clamped(
    values: object, lower: object, upper: object
) -> tuple[np.ndarray, float, float]:
    if isinstance(values, str | bytes):
        raise TypeError("values must be an array of numbers, got a string")
    arr = check_finite_array("values", values)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"values must be a non-empty 1-D array, got shape {arr.shape}")
    low, high = _check_bounds(lower, upper)
    return np.sort(np.clip(arr, low, high)), low, high


def _padded(x: np.ndarray, low: float, high: float, k: int) -> tuple[np.ndarray, int]:
    """x with k + 1 copies of `lower` in front and of `upper` behind, and the offset that
    maps the 1-based index i to the padded array's position i − 1 + offset."""
    pad = k + 1
    return np.concatenate([np.full(pad, low), x, np.full(pad, high)]), pad


def _median_index(n: int) -> int:
    return (n + 1) // 2  # m = ⌈n/2⌉, 1-based


def _a_k(x: np.ndarray, low: float, high: float, k: int) -> float:
    n = x.size
    m = _median_index(n)
    k = min(k, n)  # beyond k = n every window spans [lower, upper]
    padded, offset = _padded(x, low, high, k)
    t = np.arange(k + 2)
    top = padded[m + t - 1 + offset]
    bottom = padded[m + t - k - 2 + offset]
    return float(np.max(top - bottom))


def clamped_median(values, lower: float, upper: float) -> float:
    """x_m, the lower median of the values clamped to [lower, upper]."""
    x, _, _ = _sorted_clamped(values, lower, upper)
    return float(x[_median_index(x.size) - 1])


def median_sensitivity_at_distance(values, lower: float, upper: float, k: int) -> float:
    r"""A^(k)(x) = max over 0 ≤ t ≤ k+1 of (x_{m+t} − x_{m+t−k−1}) (NRS Prop. 3.4): the
    largest local sensitivity of any dataset within k replacements of x."""
    x, low, high = _sorted_clamped(values, lower, upper)
    return _a_k(x, low, high, check_integer("k", k))


def median_local_sensitivity(values, lower: float, upper: float) -> float:
    r"""LS(x) = A^(0)(x) = max(x_{m+1} − x_m, x_m − x_{m−1}): how far replacing one person
    can move this dataset's median."""
    return median_sensitivity_at_distance(values, lower, upper, 0)


def _all_a_k(x: np.ndarray, low: float, high: float, max_k: int | None = None) -> np.ndarray:
    """A^(k)(x) for k = 0..max_k (default n): windows of width k + 1 around the median."""
    n = x.size
    last = n if max_k is None else min(max_k, n)
    return np.array([_a_k(x, low, high, k) for k in range(last + 1)])


def median_sensitivity_curve(values, lower: float, upper: float, max_k: int | None = None):
    """A^(k)(x) for k = 0..max_k (default: every k up to n; non-decreasing, and
    A^(n) = upper − lower). Each A^(k) costs O(k): ask for the k you will draw."""
    x, low, high = _sorted_clamped(values, lower, upper)
    last = None if max_k is None else check_integer("max_k", max_k)
    return _all_a_k(x, low, high, last)


def median_smooth_sensitivity(values, lower: float, upper: float, beta: float) -> float:
    r"""S_β(x) = max over k = 0..n of e^(−kβ)·A^(k)(x) (NRS Def. 2.2; A^(k) = upper − lower
    for every k ≥ n, so larger k cannot raise the maximum). The search stops once
    e^(−kβ)·(upper − lower), the most any later k could give, is below the best so far."""
    b = check_positive("beta", beta)
    x, low, high = _sorted_clamped(values, lower, upper)
    best = 0.0
    for k in range(x.size + 1):
        ceiling = math.exp(-k * b) * (high - low)
        if ceiling <= best:
            break
        best = max(best, math.exp(-k * b) * _a_k(x, low, high, k))
    return best


def smooth_beta(epsilon: float, delta: float) -> float:
    """β = ε / (2 ln(2/δ)), the smoothing that makes median + Lap(2S_β/ε) (ε, δ)-DP."""
    return check_epsilon(epsilon) / (2.0 * math.log(2.0 / check_delta(delta)))


def smooth_median_scale(values, lower: float, upper: float, epsilon: float, delta: float) -> float:
    """The Laplace scale 2·S_β(x)/ε of `smooth_median` at β = ε / (2 ln(2/δ))."""
    beta = smooth_beta(epsilon, delta)
    return 2.0 * median_smooth_sensitivity(values, lower, upper, beta) / float(epsilon)


def smooth_median(
    values, lower: float, upper: float, epsilon: float, delta: float, *, size=None, rng=None
):
    r"""median + Lap(2S/ε), S the smooth sensitivity at β = ε / (2 ln(2/δ)): (ε, δ)-DP under
    replace-one (NRS Lemma 2.9). `size` draws many releases at once (a float without it)."""
    scale = smooth_median_scale(values, lower, upper, epsilon, delta)
    median = clamped_median(values, lower, upper)
    size = check_size(size)
    generator = as_rng(rng)
    if size is None:
        return median + float(generator.laplace(0.0, scale)) if scale > 0 else median
    noise = generator.laplace(0.0, scale, size=size) if scale > 0 else np.zeros(size)
    return median + noise


def median_distance_to_instability(values, lower: float, upper: float, bound: float) -> float:
    r"""The smallest k ≥ 0 with A^(k)(x) > bound: how many people must be replaced before the
    median's local sensitivity can exceed the proposed bound (an integer as a float), `inf`
    when bound ≥ upper − lower (no dataset exceeds it). A neighbour's distance differs by at
    most 1."""
    b = check_real("bound", bound, low=0.0)
    x, low, high = _sorted_clamped(values, lower, upper)
    if b >= high - low:
        return math.inf
    # A^(k) is non-decreasing in k and A^(n) = upper − lower > b: bisect for the first k
    lo_k, hi_k = 0, x.size
    while lo_k < hi_k:
        mid = (lo_k + hi_k) // 2
        if _a_k(x, low, high, mid) > b:
            hi_k = mid
        else:
            lo_k = mid + 1
    return float(lo_k)


def ptr_refusal_probability(distance: float, epsilon: float, delta: float) -> float:
    r"""P[propose-test-release refuses] = P[d + Lap(1/ε) ≤ ln(1/δ)/ε], exactly: the Laplace
    CDF at ln(1/δ)/ε − d, scale 1/ε (0 when d is infinite)."""
    d = check_real("distance", distance, low=0.0, allow_inf=True)
    eps = check_epsilon(epsilon)
    dl = check_delta(delta)
    if math.isinf(d):
        return 0.0
    z = (math.log(1.0 / dl) / eps - d) * eps  # in units of the scale 1/ε
    return 0.5 * math.exp(z) if z < 0 else 1.0 - 0.5 * math.exp(-z)


def propose_test_release(
    value: float, distance: float, bound: float, epsilon: float, delta: float, *, rng=None
) -> float | None:
    r"""None ("refused") if distance + Lap(1/ε) ≤ ln(1/δ)/ε, else value + Lap(bound/ε)
    (Dwork & Lei 2009; Dwork & Roth §7.3). Run on a statistic whose local sensitivity is at
    most `bound` on every dataset within `distance` − 1 replacements (the median's
    `median_distance_to_instability`), it is (2ε, δ)-DP in all: ε for the test, ε for the
    release, and δ for the chance of passing a test it should have failed (Dwork & Roth,
    Proposition 7.3 / Theorem 7.2 with ε for each step)."""
    v = check_real("value", value)
    d = check_real("distance", distance, low=0.0, allow_inf=True)
    b = check_positive("bound", bound)
    eps = check_epsilon(epsilon)
    dl = check_delta(delta)
    generator = as_rng(rng)
    threshold = math.log(1.0 / dl) / eps
    if d + generator.laplace(0.0, 1.0 / eps) <= threshold:
        return None
    return v + float(generator.laplace(0.0, b / eps))


def sample_and_aggregate(
    data,
    statistic: Callable[[np.ndarray], float],
    blocks: int,
    lower: float,
    upper: float,
    epsilon: float,
    *,
    rng=None,
) -> tuple[float, np.ndarray]:
    r"""Sample-and-aggregate (NRS §4): shuffle the rows of `data` (one per person) with
    `rng`, split them into `blocks` disjoint blocks of nearly equal size, compute
    `statistic` on each block, clamp the estimates to [lower, upper], and release

        mean(clamped estimates) + Lap((upper − lower) / (blocks·ε))

    ε-DP under replace-one: one person is in one block, and moves its clamped estimate by
    at most upper − lower. Returns (the release, the clamped block estimates)."""
    if callable(data) or not callable(statistic):
        raise TypeError("statistic must be a function of a block of rows")
    rows = check_finite_array("data", data)
    if rows.ndim not in (1, 2) or rows.shape[0] == 0:
        raise ValueError(f"data must be a non-empty 1-D or 2-D array, got shape {rows.shape}")
    k = check_integer("blocks", blocks, low=1)
    if k > rows.shape[0]:
        raise ValueError(f"blocks must be at most the number of rows {rows.shape[0]}, got {k}")
    low, high = _check_bounds(lower, upper)
    eps = check_epsilon(epsilon)
    generator = as_rng(rng)
    order = generator.permutation(rows.shape[0])
    estimates = np.empty(k)
    for i, block in enumerate(np.array_split(order, k)):
        value = float(statistic(rows[block]))
        estimates[i] = value if math.isfinite(value) else (low + high) / 2.0
    clamped = np.clip(estimates, low, high)
    noisy = float(clamped.mean() + generator.laplace(0.0, (high - low) / (k * eps)))
    return noisy, clamped
