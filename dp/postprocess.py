r"""Post-processing of noisy estimates. Anything computed from a DP output alone is still
DP with the same ε (Dwork & Roth 2014, Prop. 2.1): it never costs privacy, and it can
reduce error.
"""

from __future__ import annotations

import numpy as np

from ._validate import check_finite_array, check_real


def clip_counts(estimates) -> np.ndarray:
    r"""max(ĉ_v, 0): removes negative counts, but the total no longer equals n."""
    return np.maximum(check_finite_array("estimates", estimates), 0.0)


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
