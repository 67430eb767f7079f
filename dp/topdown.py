r"""The 2020 US Census in miniature: discrete Gaussian noise and the TopDown algorithm.

The Census Bureau's Disclosure Avoidance System (Abowd et al. 2022, "The 2020 Census
Disclosure Avoidance System TopDown Algorithm", Harvard Data Science Review)
adds discrete Gaussian noise to counts at every level of a geographic hierarchy
(nation, states, counties, …) under zCDP, then post-processes the noisy counts top down:
each level is made non-negative, whole, and consistent with the level above (children sum
to their parent), the nation's total held exact (an invariant).

- The discrete Gaussian N_Z(0, σ²): P[x] ∝ exp(−x²/(2σ²)) over the integers. Adding it to a
  count of sensitivity 1 (add/remove) is ρ-zCDP with ρ = 1/(2σ²) (Canonne, Kamath &
  Steinke 2020, "The discrete Gaussian for differential privacy", NeurIPS). It is
  sampled here with their rejection sampler (Algorithm 3): draw Y from the discrete Laplace
  with scale t = ⌊σ⌋ + 1 and keep it with probability exp(−(|Y| − σ²/t)²/(2σ²)). This
  version uses floating-point arithmetic for the acceptance test; their exact sampler uses
  rationals (the "implementation hazards" lesson says why that matters for a deployment).
- Post-processing, per parent: the children's noisy counts are projected onto {x ≥ 0,
  Σx = parent's count} (the Euclidean projection onto a scaled simplex: Duchi, Shalev-Shwartz,
  Singer & Chandra 2008, Figure 1), then rounded to
  whole numbers with the same sum (floor every value, then add 1 to the largest fractional
  parts). The Bureau solves larger optimisation problems (least squares, then rounding, with
  more constraints); the two steps here are its shape at one table per level.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    MAX_COUNT,
    as_rng,
    check_count,
    check_finite_array,
    check_magnitude,
    check_real,
    check_real_array,
    check_size,
)

_PMF_ABS_ERROR = 1e-12


def _check_sigma2(sigma2: object) -> float:
    return check_real("sigma2", sigma2, low=0.0, low_open=True, range_text="finite and > 0")


def discrete_gaussian(sigma2: float, size: object = None, *, rng: object = None):
    r"""Integers x with P[x] ∝ exp(−x²/(2σ²)), by Canonne, Kamath & Steinke 2020's rejection
    sampler (module docstring). `sigma2` = σ², finite and > 0; size=None returns an int,
    else an int64 ndarray of shape `size`."""
    sigma2 = _check_sigma2(sigma2)
    shape = check_size(size)
    generator = as_rng(rng)
    wanted = 1 if shape is None else int(np.prod(shape))
    sigma = math.sqrt(sigma2)
    t = math.floor(sigma) + 1
    keep_geometric = -math.expm1(-1.0 / t)  # P(G = g) = (1 − e^(−1/t))·e^(−g/t), g ≥ 0
    found = np.empty(0, dtype=np.int64)
    while found.size < wanted:
        # acceptance is at least about 1/2 here: draw a little over twice what is missing
        batch = 2 * (wanted - found.size) + 16
        y = generator.geometric(keep_geometric, size=batch) - generator.geometric(
            keep_geometric, size=batch
        )
        accept = generator.random(batch) < np.exp(-((np.abs(y) - sigma2 / t) ** 2) / (2.0 * sigma2))
        found = np.concatenate([found, y[accept].astype(np.int64)])
    if shape is None:
        return int(found[0])
    return found[:wanted].reshape(shape)


def _normaliser(sigma2: float) -> float:
    """Z = Σ_y exp(−y²/(2σ²)) over the integers. For σ² ≥ 1 by Poisson summation,
    Z = sqrt(2πσ²)·Σ_k exp(−2π²σ²k²) (terms below 1e-17 dropped); below, directly."""
    if sigma2 >= 1.0:
        total, k = 1.0, 1
        while (term := 2.0 * math.exp(-2.0 * math.pi**2 * sigma2 * k * k)) > 1e-17:
            total += term
            k += 1
        return math.sqrt(2.0 * math.pi * sigma2) * total
    reach = int(math.ceil(math.sqrt(2.0 * sigma2 * 40.0 * math.log(10)))) + 1
    y = np.arange(-reach, reach + 1)
    return float(np.sum(np.exp(-(y.astype(float) ** 2) / (2.0 * sigma2))))


def discrete_gaussian_pmf(x: object, sigma2: float) -> float | np.ndarray:
    r"""P[X = x] for the discrete Gaussian N_Z(0, σ²): exp(−x²/(2σ²)) / Σ_y exp(−y²/(2σ²)),
    normalised over the integers to an absolute error ≤ 1e-12. Vectorised over integer x
    (a float for a scalar); a non-integer x raises ValueError."""
    sigma2 = _check_sigma2(sigma2)
    values = check_real_array("x", x, allow_inf=False)
    if np.any(values != np.floor(values)):
        raise ValueError("x must hold integers")
    with np.errstate(over="ignore"):  # x² beyond the largest float: its probability is 0
        pmf = np.exp(-(values**2) / (2.0 * sigma2)) / _normaliser(sigma2)
    return float(pmf) if values.ndim == 0 else pmf


def discrete_gaussian_std(sigma2: float) -> float:
    r"""The standard deviation of the discrete Gaussian N_Z(0, σ²): sqrt(Σ_x x²·P[X = x]),
    summed over |x| ≤ 12σ + 10 (what lies beyond is below 1e-30 of it), and σ itself from
    σ² = 16 on (the two agree to the last digit from σ² ≈ 4). It is below σ, far below when
    σ ≲ 0.8: at σ² = 0.098 it is 0.1098, not 0.3131 (Canonne, Kamath & Steinke 2020 bound the
    variance by σ²). `sigma2` = σ², finite and > 0."""
    sigma2 = _check_sigma2(sigma2)
    if sigma2 >= 16.0:
        # By Poisson summation the variance is σ² to within a factor 8π²σ²·e^(−2π²σ²) of it,
        # below 10⁻¹³³ here: σ itself, without summing 12σ terms (10¹⁰ of them at σ² = 10²⁰).
        return math.sqrt(sigma2)
    reach = math.ceil(12.0 * math.sqrt(sigma2)) + 10
    x = np.arange(1, reach + 1, dtype=float)
    weights = np.exp(-(x**2) / (2.0 * sigma2))
    variance = 2.0 * float(np.sum(x**2 * weights)) / (1.0 + 2.0 * float(np.sum(weights)))
    return math.sqrt(variance)


def simplex_projection(values: object, total: float) -> np.ndarray:
    r"""The Euclidean projection of `values` onto {x ≥ 0, Σx = total}: x = max(v − θ, 0)
    with θ chosen so that the sum is `total` (sort, then the largest ρ with
    v_(ρ) − (Σ_{i≤ρ} v_(i) − total)/ρ > 0; Duchi et al. 2008). `values` 1-D, finite, non-empty;
    total ≥ 0."""
    v = check_finite_array("values", values)
    if v.ndim != 1:
        raise ValueError(f"values must be 1-D, got {v.ndim} dimensions")
    total = check_real("total", total, low=0.0, range_text="finite and >= 0")
    return _project(v, total)


def _project(v: np.ndarray, total: float) -> np.ndarray:
    """simplex_projection on checked input."""
    if total == 0.0:  # the simplex is one point
        return np.zeros_like(v)
    ordered = np.sort(v)[::-1]
    running = np.cumsum(ordered) - total
    ranks = np.arange(1, v.size + 1)
    kept = np.flatnonzero(ordered - running / ranks > 0)
    if kept.size == 0:  # total is below the floats' spacing at the largest value (the first
        out = np.zeros_like(v)  # test, total > 0, rounded away): all of it goes to the largest
        out[int(np.argmax(v))] = total
        return out
    rho = int(kept[-1]) + 1
    theta = running[rho - 1] / rho
    return np.maximum(v - theta, 0.0)


def round_preserving_sum(values: object) -> np.ndarray:
    r"""Whole numbers with the same sum: floor every value, then add 1 to the entries with
    the largest fractional parts until the sum is round(Σ values). Fractional parts are
    compared after rounding to 9 decimals, so parts that differ only by round-off tie; ties
    go to the lower index first. `values` non-empty, 1-D, finite, summing to within 1e-9 of
    an integer."""
    v = check_finite_array("values", values)
    if v.ndim != 1:
        raise ValueError(f"values must be 1-D, got {v.ndim} dimensions")
    check_magnitude("values", v, MAX_COUNT)  # rounded to int64s, exactly
    total = float(np.sum(v))
    if abs(total) > MAX_COUNT:
        raise ValueError(f"values must sum to at most 2**53 in size, got {total:g}")
    target = round(total)
    if abs(total - target) > 1e-9:
        raise ValueError(f"values must sum to a whole number (within 1e-9), got {total!r}")
    return _round(v, target)


def _round(v: np.ndarray, target: int) -> np.ndarray:
    """round_preserving_sum on checked input whose sum rounds to `target`."""
    floors = np.floor(v)
    fractions = np.round(v - floors, 9)
    missing = int(target - np.sum(floors))
    order = np.lexsort((np.arange(v.size), -fractions))  # largest part first, then index
    result = floors.astype(np.int64)
    result[order[:missing]] += 1
    return result


def topdown(noisy_levels: object, parents: object, total: int) -> list[np.ndarray]:
    r"""TopDown's post-processing (module docstring): level 0 is the invariant `total`; for
    each level ℓ ≥ 1, `noisy_levels[ℓ−1]` holds its cells' noisy counts and `parents[ℓ−1]`
    each cell's parent index in level ℓ−1 (`parents[0]` all zeros: the one cell of level 0).
    Each parent's children get round_preserving_sum(simplex_projection(their noisy counts,
    the parent's final count)). A cell with a positive count and no child raises ValueError.
    Returns one integer vector per level ≥ 1: non-negative, children summing to their
    parent."""
    total = check_count("total", total)
    if not isinstance(noisy_levels, list | tuple) or not isinstance(parents, list | tuple):
        raise TypeError("noisy_levels and parents must be lists, one entry per level")
    if len(noisy_levels) == 0:
        raise ValueError("noisy_levels must hold at least one level")
    if len(noisy_levels) != len(parents):
        raise ValueError(
            f"noisy_levels and parents must have one entry per level, got {len(noisy_levels)} "
            f"and {len(parents)}"
        )
    above = np.array([total], dtype=np.int64)
    result = []
    for level, (noisy, parent) in enumerate(zip(noisy_levels, parents, strict=True), start=1):
        counts = check_finite_array(f"noisy_levels[{level - 1}]", noisy)
        index = np.asarray(parent)
        if counts.ndim != 1 or index.shape != counts.shape:
            raise ValueError(
                f"parents[{level - 1}] must give one parent per cell of noisy_levels[{level - 1}]"
            )
        if (
            not np.issubdtype(index.dtype, np.integer)
            or np.any(index < 0)
            or np.any(index >= above.size)
        ):
            raise ValueError(
                f"parents[{level - 1}] must hold indices of level {level - 1}'s "
                f"{above.size:,} cells"
            )
        final = np.zeros(counts.size, dtype=np.int64)
        childless = np.flatnonzero((np.bincount(index, minlength=above.size) == 0) & (above > 0))
        if childless.size:
            cell = int(childless[0])
            raise ValueError(
                f"cell {cell} of level {level - 1} has a count of {above[cell]:,} and "
                f"no child in level {level}"
            )
        order = np.argsort(index, kind="stable")  # each parent's children, in cell order
        starts = np.searchsorted(index[order], np.arange(above.size + 1))
        for cell in range(above.size):
            children = order[starts[cell] : starts[cell + 1]]
            if children.size:
                projected = _project(counts[children], float(above[cell]))
                final[children] = _round(projected, int(above[cell]))
        result.append(final)
        above = final
    return result
