r"""Sensitivity and clamping: sums and means of a numeric column (central model).

A sum has no finite sensitivity until every value is forced into a window [L, U]
("clamping"). Then, for datasets that differ by adding or removing one person,

    Δ_sum = max(|L|, |U|),

and for datasets that differ by replacing one person's value (the same size n),

    Δ_sum = U − L.

The Laplace mechanism releases Σ clamp(v, L, U) + Lap(Δ/ε). Clamping changes the answer:
its bias is Σ clamp(v) − Σ v (negative when values lie above U). The expected squared error
of the released sum is bias² + 2 (Δ/ε)², so a larger U trades bias for noise.
(Dwork & Roth 2014, §3.3; Near & Abuah, *Programming Differential Privacy*, ch. 5;
Wilson et al. 2020, "Differentially private SQL with bounded user contribution".)

A mean is a noisy sum at ε/2 divided by a noisy count at ε/2 (sequential composition: ε in
total). Under add/remove the count n is itself private, so it is noised too.

When one person may own several rows, the unit of privacy decides the sensitivity: a count
of rows changes by up to m when each person keeps at most m rows (user-level privacy);
without that bound, a person with r rows is only protected at r·ε (group privacy).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validate import (
    as_rng,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_real,
    check_real_array,
    check_size,
)
from .laplace import laplace_scale

NEIGHBOURS = ("add_remove", "replace")


def _check_bounds(lower: object, upper: object) -> tuple[float, float]:
    low = check_real("lower", lower)
    high = check_real("upper", upper)
    if not low < high:
        raise ValueError(f"lower must be < upper, got lower = {low:g}, upper = {high:g}")
    return low, high


def _check_values(values: object) -> np.ndarray:
    """A non-empty 1-D array of finite numbers (one per person)."""
    if isinstance(values, str | bytes):
        raise TypeError("values must be an array of numbers, got a string")
    arr = check_finite_array("values", values)
    if arr.ndim != 1:
        raise ValueError(f"values must be one-dimensional (one per person), got shape {arr.shape}")
    return arr


def clamp(values, lower: float, upper: float) -> np.ndarray:
    r"""clamp(v) = min(max(v, L), U) for each value (vectorised; L < U, both finite)."""
    low, high = _check_bounds(lower, upper)
    if isinstance(values, str | bytes):
        raise TypeError("values must be numbers, got a string")
    return np.clip(check_finite_array("values", values), low, high)


def sum_sensitivity(lower: float, upper: float, *, neighbours: str = "add_remove") -> float:
    r"""Sensitivity of Σ clamp(v, L, U): max(|L|, |U|) when neighbours add or remove one
    person; U − L when neighbours replace one person's value."""
    low, high = _check_bounds(lower, upper)
    if neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be 'add_remove' or 'replace', got {neighbours!r}")
    if neighbours == "replace":
        return high - low
    return max(abs(low), abs(high))


def clamping_bias(values, lower: float, upper: float) -> float:
    r"""What clamping adds to the sum: Σ clamp(v, L, U) − Σ v (≤ 0 when only values above U
    move; ≥ 0 when only values below L move)."""
    low, high = _check_bounds(lower, upper)
    arr = _check_values(values)
    return float(np.sum(np.clip(arr, low, high) - arr))


def noisy_sum(values, lower: float, upper: float, epsilon: float, *, size=None, rng=None):
    r"""Σ clamp(v, L, U) + Lap(Δ/ε), Δ = max(|L|, |U|): ε-DP under add/remove-one-person.

    A float; with `size`, that many independent releases (an array), e.g. for a histogram."""
    low, high = _check_bounds(lower, upper)
    arr = _check_values(values)
    scale = laplace_scale(sum_sensitivity(low, high), epsilon)
    size = check_size(size)
    noise = as_rng(rng).laplace(0.0, scale, size=size)
    total = float(np.sum(np.clip(arr, low, high)))
    return float(total + noise) if size is None else total + noise


class NoisyMean(NamedTuple):
    """The parts of a noisy mean: the noisy sum and the noisy count (each at ε/2), and their
    ratio (the count floored at 1, the ratio kept in [L, U]: post-processing). Floats, or
    arrays of `size` releases."""

    noisy_sum: float | np.ndarray
    noisy_count: float | np.ndarray
    mean: float | np.ndarray


def noisy_mean_parts(
    values, lower: float, upper: float, epsilon: float, *, size=None, rng=None
) -> NoisyMean:
    r"""Noisy sum Σ clamp(v) + Lap(2Δ/ε) and noisy count n + Lap(2/ε), each at ε/2 (ε in total
    by sequential composition); mean = clip(sum / max(count, 1), L, U).

    Flooring the count and clipping the ratio use only the two noisy answers and the public
    bounds, so they cost no privacy (post-processing)."""
    low, high = _check_bounds(lower, upper)
    arr = _check_values(values)
    half = check_epsilon(epsilon) / 2.0
    size = check_size(size)
    generator = as_rng(rng)
    total = float(np.sum(np.clip(arr, low, high)))
    sum_scale = laplace_scale(sum_sensitivity(low, high), half)
    noisy_total = total + generator.laplace(0.0, sum_scale, size=size)
    noisy_count = arr.size + generator.laplace(0.0, laplace_scale(1.0, half), size=size)
    mean = np.clip(noisy_total / np.maximum(noisy_count, 1.0), low, high)
    if size is None:
        return NoisyMean(float(noisy_total), float(noisy_count), float(mean))
    return NoisyMean(noisy_total, noisy_count, mean)


def noisy_mean(values, lower: float, upper: float, epsilon: float, *, size=None, rng=None):
    r"""A noisy sum at ε/2 divided by a noisy count at ε/2 (see `noisy_mean_parts`): ε-DP
    under add/remove-one-person. A float; with `size`, an array of releases."""
    return noisy_mean_parts(values, lower, upper, epsilon, size=size, rng=rng).mean


# --- choosing the bound: bias against noise ------------------------------------------------


def _check_uppers(uppers: object, low: float) -> np.ndarray:
    arr = check_real_array("uppers", uppers, allow_inf=False)
    if arr.size == 0:
        raise ValueError("uppers must not be empty")
    if np.any(arr <= low):
        raise ValueError(f"every upper bound must be > lower = {low:g}, got {arr.min():g}")
    return arr


def clamping_bias_curve(values, lower: float, uppers) -> np.ndarray:
    r"""clamping_bias(values, L, U) for every U in `uppers` at once (sorted values and a
    cumulative sum: O((n + m) log n))."""
    low = check_real("lower", lower)
    arr = np.sort(_check_values(values))
    highs = _check_uppers(uppers, low)
    prefix = np.concatenate([[0.0], np.cumsum(arr)])
    n = arr.size
    # values above U lose (v − U): Σ_{v > U} (U − v)
    above = np.searchsorted(arr, highs, side="right")
    loss = highs * (n - above) - (prefix[n] - prefix[above])
    # values below L gain (L − v): Σ_{v < L} (L − v)
    below = int(np.searchsorted(arr, low, side="left"))
    gain = low * below - prefix[below]
    out = loss + gain
    return float(out) if out.ndim == 0 else out


def clamped_sum_squared_error(values, lower: float, uppers, epsilon: float):
    r"""Expected squared error of the released sum, E[(noisy clamped sum − true sum)²]
    = bias² + 2 (Δ/ε)², Δ = max(|L|, |U|), for each U in `uppers` (vectorised)."""
    bias = np.asarray(clamping_bias_curve(values, lower, uppers))
    epsilon = check_epsilon(epsilon)
    highs = np.asarray(check_real_array("uppers", uppers, allow_inf=False), dtype=float)
    with np.errstate(over="ignore"):  # an error beyond the largest float is inf (never NaN:
        scale = np.maximum(abs(float(lower)), np.abs(highs)) / epsilon  # both terms are >= 0)
        out = bias**2 + 2.0 * scale**2
    return float(out) if out.ndim == 0 else out


def best_clamp_upper(values, lower: float, epsilon: float, uppers) -> float:
    r"""The U among `uppers` with the smallest expected squared error bias² + 2 (Δ/ε)².

    It is computed from the true values, so releasing it is *not* private: it shows the
    trade-off; a private choice uses domain knowledge or a private quantile."""
    errors = np.atleast_1d(clamped_sum_squared_error(values, lower, uppers, epsilon))
    if errors.size and not np.any(np.isfinite(errors)):
        raise ValueError(
            "values, uppers and epsilon give every U an expected squared error beyond the "
            "largest float: no U is best"
        )
    highs = np.atleast_1d(np.asarray(uppers, dtype=float))
    return float(highs[int(np.argmin(errors))])


# --- contribution bounding: one person, many rows ------------------------------------------


def contribution_bias(rows_per_person, max_rows):
    r"""What keeping at most m rows per person removes from a count of rows:
    −Σ max(r_i − m, 0), for each m in `max_rows` (vectorised). A count of the kept rows has
    sensitivity m under add/remove-one-person."""
    rows = check_finite_array("rows_per_person", rows_per_person)
    if np.any(rows < 0) or np.any(rows != np.round(rows)):
        raise ValueError("rows_per_person must hold whole numbers >= 0")
    limits = check_real_array("max_rows", max_rows, allow_inf=False)
    if np.any(limits < 1) or np.any(limits != np.round(limits)):
        raise ValueError("max_rows must be whole numbers >= 1")
    rows = np.sort(rows)
    prefix = np.concatenate([[0.0], np.cumsum(rows)])
    above = np.searchsorted(rows, limits, side="right")
    out = -((prefix[rows.size] - prefix[above]) - limits * (rows.size - above))
    return float(out) if out.ndim == 0 else out


def bound_contributions(person_ids, max_rows: int, *, rng=None) -> np.ndarray:
    r"""A boolean mask keeping at most m rows of each person (chosen uniformly at random
    among that person's rows; the mask does not depend on the other people's data)."""
    ids = np.asarray(person_ids)
    if ids.ndim != 1:
        raise ValueError(f"person_ids must be one-dimensional, got shape {ids.shape}")
    if ids.size == 0:
        raise ValueError("person_ids must not be empty")
    m = check_integer("max_rows", max_rows, low=1)
    order = as_rng(rng).permutation(ids.size)
    shuffled = ids[order]
    # rank of each row among its person's rows, in the random order
    sort = np.argsort(shuffled, kind="stable")
    sorted_ids = shuffled[sort]
    starts = np.r_[0, np.flatnonzero(sorted_ids[1:] != sorted_ids[:-1]) + 1]
    group_start = np.repeat(starts, np.diff(np.r_[starts, ids.size]))
    rank = np.empty(ids.size, dtype=np.int64)
    rank[sort] = np.arange(ids.size) - group_start
    keep = np.empty(ids.size, dtype=bool)
    keep[order] = rank < m
    return keep
