r"""Post-processing of noisy estimates. Anything computed from a DP output alone is still
DP with the same ε (Dwork & Roth 2014, Prop. 2.1): it never costs privacy, and it can
reduce error.
"""

from __future__ import annotations

import numpy as np

from ._validate import check_finite_array, check_positive, check_real


def clip_counts(estimates) -> np.ndarray:
    r"""max(ĉ_v, 0): removes negative counts, but the total no longer equals n."""
    return np.maximum(check_finite_array("estimates", estimates), 0.0)


def clipped_laplace_bias(count, scale: float) -> float | np.ndarray:
    r"""The bias that clipping at 0 adds to a Laplace release: E[max(c + Lap(b), 0)] − c for
    a true value c and scale b.

        E[max(c + L, 0)] = max(c, 0) + (b/2)·e^(−|c|/b),  so the bias is
        (b/2)·e^(−|c|/b) − min(c, 0)

    (for c ≥ 0 the noise falls below −c with probability ½e^(−c/b), and then by b on
    average: the Laplace tail is memoryless). It is largest at c = 0, b/2, and fades for
    counts of a few b. `count`: a real number (a float back) or an array of them (an array
    of the same shape back); `scale` > 0."""
    c = check_finite_array("count", count)
    b = check_positive("scale", scale)
    bias = 0.5 * b * np.exp(-np.abs(c) / b) - np.minimum(c, 0.0)
    return float(bias) if bias.ndim == 0 else bias


def project_counts(estimates, n: float) -> np.ndarray:
    r"""Non-negative counts summing to n, closest to the estimates ("Norm-Sub", Wang et al.,
    NDSS 2020): find δ with Σ_v max(ĉ_v - δ, 0) = n and return max(ĉ_v - δ, 0).

    This is the Euclidean projection onto {x ≥ 0, Σ x = n}; estimates that already are a
    proper histogram come back unchanged. Works along the last axis of a 2-D array too."""
    x = check_finite_array("estimates", estimates)
    n = check_real("n", n, low=0.0)
    single = x.ndim == 1
    x = np.atleast_2d(x)
    if x.ndim != 2:
        raise ValueError(f"estimates must be 1-D or 2-D, got shape {x.shape}")
    k = x.shape[-1]
    s = -np.sort(-x, axis=-1)  # descending
    cumulative = np.cumsum(s, axis=-1)
    j = np.arange(1, k + 1)
    # Largest j whose j-th largest entry stays positive after the shift (css_j - n) / j.
    positive = s - (cumulative - n) / j > 0
    rho = k - np.argmax(positive[:, ::-1], axis=-1)  # index (1-based) of the last True
    delta = (cumulative[np.arange(x.shape[0]), rho - 1] - n) / rho
    # No entry stays positive only when n = 0: the projection is all zeros (shift by the max).
    delta = np.where(positive.any(axis=-1), delta, s[:, 0])
    out = np.maximum(x - delta[:, None], 0.0)
    return out[0] if single else out
