r"""The Laplace mechanism (central model).

A query f with sensitivity Δ = max |f(D) - f(D')| over neighbouring datasets is answered
as f(D) + Lap(b) with b = Δ / ε; the density of Lap(b) is exp(-|y| / b) / (2b).
(Dwork, McSherry, Nissim & Smith 2006; Dwork & Roth 2014, §3.3.)


What an attacker learns from one Laplace answer (from the lessons' inference):
What an attacker can learn from one noisy answer, and how far off a Laplace answer is.

- The malicious query (true answer 0 or 1): how often the best guess is right.
- Neighbouring datasets: P[F(D) ∈ Y], P[F(D') ∈ Y] and their ratio, exact in the far tails.
- Typical relative error of a count: median |noise| / truth = b ln 2 / f(D).

The worst-case posterior e^ε p / (e^ε p + 1 - p) is `dp.accuracy.posterior_bound`; the median
absolute error b ln 2 is `dp.accuracy.laplace_median_abs_error`.
(Dwork & Roth 2014, §2.3 and §3.3; Kasiviswanathan & Smith 2014.)
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import (
    MAX_COUNT,
    MAX_EXP_EPSILON,
    add_noise,
    as_rng,
    check_epsilon,
    check_finite_array,
    check_magnitude,
    check_positive,
    check_real,
    check_real_array,
    check_size,
)


def laplace_scale(sensitivity: float, epsilon: float) -> float:
    r"""Noise scale of the Laplace mechanism: b = Δ / ε."""
    sensitivity = check_positive("sensitivity", sensitivity)
    epsilon = check_epsilon(epsilon)
    return _finite(sensitivity / epsilon, "the noise scale Δ/ε", epsilon)


def _finite(value: float, what: str, epsilon: float) -> float:
    """`value`, or a ValueError naming ε when it is beyond the largest float."""
    if not math.isfinite(value):
        raise ValueError(
            f"epsilon is too small: {what} exceeds the largest float (ε = {epsilon:g})"
        )
    return value


def laplace_variance(sensitivity: float, epsilon: float) -> float:
    r"""Variance of Lap(b): 2 b² with b = Δ / ε."""
    b = laplace_scale(sensitivity, epsilon)
    return _finite(2.0 * b * b, "the variance 2b²", epsilon)


def laplace_interval_half_width(scale: float, confidence: float = 0.95) -> float:
    r"""Half-width h of the interval that holds the noise with the given probability:
    P[|Lap(b)| <= h] = 1 - e^(-h/b) = c  =>  h = b ln(1 / (1 - c)); for c = 0.95, b ln 20."""
    scale = check_positive("scale", scale)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0, high_open=True)
    return scale * math.log(1.0 / (1.0 - confidence))


def laplace_mechanism(
    value, sensitivity: float, epsilon: float, *, size=None, rng=None
) -> float | np.ndarray:
    r"""value + Lap(b), b = Δ / ε.

    `value` may be a number (one query) or an array (one noisy answer per entry, e.g. a
    histogram). `size` draws many independent answers at once (shape `size`, or
    `size + value.shape`). Returns a float for a scalar value without `size`."""
    b = laplace_scale(sensitivity, epsilon)
    generator = as_rng(rng)
    return add_noise(value, size, lambda shape: generator.laplace(0.0, b, size=shape))


# --- the discrete Laplace (two-sided geometric) mechanism -----------------------------------
# Textbook floating-point Laplace sampling leaks through the low-order bits of its output
# (Mironov 2012): real libraries (OpenDP, Google's, Tumult) add integer noise to integer
# queries, or snap. For a count (sensitivity 1) the discrete Laplace mechanism adds K with
#     P[K = k] = (1 − e^(−ε)) / (1 + e^(−ε)) · e^(−ε|k|),   k ∈ ℤ,
# so P[k] / P[k + 1] = e^ε for k ≥ 0: exactly ε-DP (Ghosh, Roughgarden & Sundararajan 2009;
# Canonne, Kamath & Steinke 2020). K is the difference of two independent geometric counts
# of failures with success probability 1 − e^(−ε).


def discrete_laplace_pmf(x, epsilon: float):
    r"""P[K = x] = (1 − e^(−ε)) / (1 + e^(−ε)) · e^(−ε|x|) for integer x (vectorised)."""
    epsilon = check_epsilon(epsilon)
    k_arr = check_real_array("x", x, allow_inf=False)
    if np.any(k_arr != np.round(k_arr)):
        raise ValueError("x must hold whole numbers (the noise is an integer)")
    t = math.exp(-epsilon)
    out = (-math.expm1(-epsilon)) / (1.0 + t) * np.exp(-epsilon * np.abs(k_arr))
    return float(out) if out.ndim == 0 else out


def discrete_laplace_mechanism(value, epsilon: float, *, size=None, rng=None):
    r"""value + K, K discrete Laplace with P[K = k] ∝ e^(−ε|k|): ε-DP for an integer query of
    sensitivity 1 (a count). `value` is an integer or an array of integers; returns integers
    (an int for a scalar value without `size`)."""
    epsilon = check_epsilon(epsilon)
    size = check_size(size)
    generator = as_rng(rng)
    success = -math.expm1(-epsilon)  # 1 − e^(−ε), exact at tiny ε
    if np.ndim(value) == 0:
        base = np.float64(check_real("value", value))
        shape = size
    else:
        base = check_real_array("value", value, allow_inf=False)
        shape = base.shape if size is None else (*np.atleast_1d(size), *base.shape)
    if np.any(base != np.round(base)):
        raise ValueError("value must be a whole number (a count): use laplace_mechanism otherwise")
    check_magnitude("value", np.asarray(base), MAX_COUNT)  # kept as an int64, exactly
    noise = generator.geometric(success, size=shape) - generator.geometric(success, size=shape)
    result = base.astype(np.int64) + noise
    return int(result) if np.ndim(result) == 0 else result


MAX_SUM_GRID = 1 << 22  # the largest lattice the sum's distribution is computed on (32 MB)


def discrete_laplace_sum_half_width(epsilon, count, *, confidence: float = 0.95) -> int:
    r"""The smallest whole w with P[|S| ≤ w] ≥ `confidence`, where S is the sum of independent
    discrete Laplace noises: `count[i]` of them with P[K = k] ∝ e^(−ε_i|k|) for each
    ε_i = `epsilon[i]` (scalars allowed). The noise of an average of m differences of noisy
    answers is S/m with S a sum of 2m such noises, so ±w/m is its exact interval.

    S's distribution is exact on the integers: one noise's characteristic function is
        φ(θ) = (1 − a)² / (1 − 2a·cos θ + a²),   a = e^(−ε)
    (the Fourier series of ((1 − a)/(1 + a))·a^|k|), the sum's is Π φ_i(θ)^count_i, and its
    inverse discrete Fourier transform on L ≥ 2·(12 SD + 50) points gives P[S = k] with a
    wrap-around below 10⁻⁸ (Inusah & Kozubowski 2006 for the distribution)."""
    eps = check_real_array("epsilon", epsilon, allow_inf=False).ravel()
    n = check_real_array("count", count, allow_inf=False).ravel()
    if np.any(eps <= 0):
        raise ValueError("epsilon must be finite and > 0")
    if np.any(n < 0) or np.any(n != np.floor(n)):
        raise ValueError("count must hold whole numbers >= 0")
    if eps.size == 0 or eps.size != n.size and eps.size != 1 and n.size != 1:
        raise ValueError("epsilon and count must have the same length (or one of them be one)")
    conf = check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)
    eps, n = np.broadcast_arrays(eps, n)
    a = np.exp(-eps)
    with np.errstate(divide="ignore", over="ignore"):  # an ε so small that (1 − e^−ε)² is 0
        variances = 2.0 * a / (-np.expm1(-eps)) ** 2  # gives an infinite SD: refused below
    sd = math.sqrt(float(np.sum(np.where(n > 0, n * variances, 0.0))))
    if sd == 0.0:
        return 0
    wide = not sd * 24 < MAX_SUM_GRID  # an infinite SD too, before its log
    size = 0 if wide else 1 << max(6, math.ceil(math.log2(2 * (12 * sd + 50))))
    if wide or size > MAX_SUM_GRID:
        raise ValueError(
            f"epsilon and count: the sum's noise is too wide to compute (SD {sd:,.0f})"
        )
    theta = 2 * math.pi * np.arange(size) / size
    log_phi = np.zeros(size)
    for e_i, a_i, n_i in zip(eps, a, n, strict=True):
        if n_i:
            log_phi += n_i * (
                2 * math.log(-math.expm1(-e_i)) - np.log1p(a_i * (a_i - 2 * np.cos(theta)))
            )
    pmf = np.clip(np.fft.ifft(np.exp(log_phi)).real, 0.0, None)
    half = size // 2
    inside = pmf[0] + 2.0 * np.cumsum(pmf[1:half])  # P[|S| <= w] for w = 1 .. half - 1
    if pmf[0] >= conf:
        return 0
    return int(np.searchsorted(inside, conf - 1e-12)) + 1


def _laplace_cdf(x: np.ndarray, loc: float, scale: float) -> np.ndarray:
    """F(x) = e^(z)/2 for z = (x - loc)/b < 0, else 1 - e^(-z)/2 (no overflow at ±inf)."""
    z = (x - loc) / scale
    return np.where(
        z < 0, 0.5 * np.exp(np.minimum(z, 0.0)), 1.0 - 0.5 * np.exp(-np.maximum(z, 0.0))
    )


def laplace_cdf(x, *, loc: float, scale: float):
    r"""P[loc + Lap(b) <= x] = ½ e^((x-loc)/b) below loc, 1 - ½ e^(-(x-loc)/b) above."""
    loc = check_real("loc", loc)
    scale = check_positive("scale", scale)
    arr = check_real_array("x", x)
    out = _laplace_cdf(arr, loc, scale)
    return float(out) if out.ndim == 0 else out


def laplace_pdf(y, *, loc: float, scale: float):
    r"""Density of loc + Lap(b): exp(-|y - loc| / b) / (2b)."""
    loc = check_real("loc", loc)
    scale = check_positive("scale", scale)
    arr = check_finite_array("y", y, allow_empty=True)
    out = np.exp(-np.abs(arr - loc) / scale) / (2.0 * scale)
    return float(out) if out.ndim == 0 else out


def laplace_interval_probability(lo, hi, *, loc: float, scale: float):
    r"""Exact P[loc + Lap(b) ∈ [lo, hi]] = F(hi) - F(lo), with F the Laplace CDF.

    lo may be -inf and hi +inf; lo must not exceed hi. Broadcasts over arrays."""
    loc = check_real("loc", loc)
    scale = check_positive("scale", scale)
    lo_arr = check_real_array("lo", lo)
    hi_arr = check_real_array("hi", hi)
    if np.any(lo_arr > hi_arr):
        raise ValueError("lo must be <= hi")
    # Three cases, each without subtracting two numbers close to 1 (so the far tails keep
    # their digits): with z = (x - loc) / b,
    #   both above loc:  ½ (e^(-z_lo) - e^(-z_hi))
    #   both below loc:  ½ (e^(z_hi) - e^(z_lo))
    #   straddling loc:  1 - ½ e^(z_lo) - ½ e^(-z_hi)
    z_lo = (lo_arr - loc) / scale
    z_hi = (hi_arr - loc) / scale
    above = 0.5 * (np.exp(-np.maximum(z_lo, 0.0)) - np.exp(-np.maximum(z_hi, 0.0)))
    below = 0.5 * (np.exp(np.minimum(z_hi, 0.0)) - np.exp(np.minimum(z_lo, 0.0)))
    across = 1.0 - 0.5 * np.exp(np.minimum(z_lo, 0.0)) - 0.5 * np.exp(-np.maximum(z_hi, 0.0))
    out = np.where(z_lo >= 0, above, np.where(z_hi <= 0, below, across))
    out = np.clip(out, 0.0, 1.0)
    return float(out) if out.ndim == 0 else out


def laplace_privacy_loss(y, *, loc: float, loc_neighbour: float, scale: float):
    r"""Privacy loss at output y: ln(pdf_D(y) / pdf_D'(y)) = (|y - loc'| - |y - loc|) / b.

    By the triangle inequality |loss| <= |loc - loc'| / b, with equality in the tails.
    y may be ±inf (the loss is constant beyond both centres)."""
    loc = check_real("loc", loc)
    loc_neighbour = check_real("loc_neighbour", loc_neighbour)
    scale = check_positive("scale", scale)
    arr = check_real_array("y", y)
    lo, hi = min(loc, loc_neighbour) - 1.0, max(loc, loc_neighbour) + 1.0
    arr = np.clip(arr, lo, hi)
    out = (np.abs(arr - loc_neighbour) - np.abs(arr - loc)) / scale
    return float(out) if out.ndim == 0 else out


def laplace_privacy_loss_cdf(loss, epsilon: float):
    r"""P[L <= l] for the privacy loss L of the Laplace mechanism with b = Δ/ε, for outputs
    y ~ M(D) (D at 0, D' at Δ). L(y) = ε(|y/Δ − 1| − |y/Δ|) lies in [−ε, ε]:

        L = +ε       when y <= 0        (probability 1/2),
        L = −ε       when y >= Δ        (probability e^(−ε)/2),
        L = ε(1 − 2y/Δ) in between     (continuous),

    so F(l) = 0 for l < −ε, F(l) = e^(−ε(1 − l/ε)/2)/2 = e^((l − ε)/2)/2 for −ε <= l < ε,
    and F(l) = 1 for l >= ε. It depends on ε only: the loss never exceeds ε."""
    eps = check_epsilon(epsilon)
    arr = check_real_array("loss", loss)
    inside = 0.5 * np.exp((np.clip(arr, -eps, eps) - eps) / 2.0)
    out = np.where(arr < -eps, 0.0, np.where(arr >= eps, 1.0, inside))
    return float(out) if out.ndim == 0 else out


def laplace_std(sensitivity: float, epsilon: float) -> float:
    r"""Standard deviation (= root-mean-square error) of the Laplace mechanism:

    sd = √(2 b²) = √2 · Δ / ε."""
    b = laplace_scale(sensitivity, epsilon)
    return _finite(math.sqrt(2.0) * b, "the noise SD √2·b", epsilon)


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


def averaged_laplace_std(sensitivity: float, epsilon: float, answers) -> float | np.ndarray:
    r"""Standard deviation of the average of m independent Laplace answers to the same
    query (the averaging attack):  sd = √2 · Δ / (ε √m).  `answers` (m) may be an array."""
    sd = laplace_std(sensitivity, epsilon)
    m = check_finite_array("answers", answers)
    if np.any(m < 1) or np.any(m != np.floor(m)):
        raise ValueError("answers must be whole numbers >= 1")
    out = sd / np.sqrt(m)
    return float(out) if out.ndim == 0 else out


def _check_epsilons(epsilon, name: str = "epsilon") -> np.ndarray:
    """ε as a float array (a scalar is fine): every entry finite and > 0."""
    if np.ndim(epsilon) == 0:
        return np.asarray(check_positive(name, epsilon))
    arr = check_real_array(name, epsilon, allow_inf=False)
    if np.any(arr <= 0):
        raise ValueError(f"{name} must be finite and > 0, got a minimum of {arr.min():g}")
    return arr


def _out(arr: np.ndarray):
    return float(arr) if arr.ndim == 0 else arr


def best_guess_accuracy(epsilon, sensitivity: float = 1.0):
    r"""How often the best guess is right for a query whose true answer is 0 or 1
    (equally likely), answered with Laplace noise of scale b = Δ / ε.

    The guess "1 if the answer y > 1/2, else 0" (the midpoint; optimal for equal priors
    because the likelihood ratio grows with y) is wrong exactly when the noise crosses
    the midpoint: in world 0 when Lap(b) > 1/2, in world 1 when Lap(b) < -1/2. Each has
    probability ½ e^(-(1/2)/b), so

    P[right] = 1 - ½ e^(-1/(2b)) = 1 - ½ e^(-ε / (2Δ)),

    and 1 - ½ e^(-ε/2) for a count (Δ = 1). It rises from ½ (a coin flip) at ε → 0
    towards 1."""
    sensitivity = check_positive("sensitivity", sensitivity)
    eps = _check_epsilons(epsilon)
    return _out(1.0 - 0.5 * np.exp(-eps / (2.0 * sensitivity)))


def laplace_median_relative_error(true_value: float, sensitivity: float, epsilon: float) -> float:
    r"""Typical relative error of a Laplace answer: median |noise| / |true value|
    = b ln 2 / |f(D)|, b = Δ / ε. Half of the noisy answers are closer than this
    fraction of the truth. The true value must not be 0 (the ratio would be infinite)."""
    value = check_real("true_value", true_value)
    if value == 0:
        raise ValueError("true_value must not be 0: the relative error of a zero count is infinite")
    return laplace_median_abs_error(sensitivity, epsilon) / abs(value)


def _log_interval_probability(lo: float, hi: float, loc: float, scale: float) -> float:
    """ln P[loc + Lap(b) ∈ [lo, hi]], accurate far in the tails (no 1 - 1 cancellation)."""
    zl, zh = (lo - loc) / scale, (hi - loc) / scale
    if not zh > zl:
        return -math.inf
    # 1 − e^(zl − zh) as −expm1(zl − zh): exact for a narrow interval (no 1 − 1 cancellation)
    if zl >= 0:  # right tail: ½ (e^-zl - e^-zh) = ½ e^-zl (1 - e^(zl - zh))
        return math.log(0.5) - zl + math.log(-math.expm1(zl - zh))
    if zh <= 0:  # left tail: ½ (e^zh - e^zl) = ½ e^zh (1 - e^(zl - zh))
        return math.log(0.5) + zh + math.log(-math.expm1(zl - zh))
    # the interval holds loc: ½ (1 − e^zl) + ½ (1 − e^−zh), two non-negative parts
    return math.log(-0.5 * math.expm1(zl) - 0.5 * math.expm1(-zh))


def laplace_event_probabilities(
    lo: float, hi: float, *, loc: float, loc_neighbour: float, scale: float
) -> tuple[float, float, float]:
    r"""(P[F(D) ∈ Y], P[F(D') ∈ Y], their ratio) for Y = [lo, hi], F(x) = x + Lap(b).

    P[loc + Lap(b) ∈ [lo, hi]] = ½ (e^(-(lo-loc)/b) - e^(-(hi-loc)/b)) right of loc (and
    mirrored left of it), computed in log space so that the ratio stays exact even when
    both probabilities are ~1e-40. ε-DP with ε = |loc - loc'| / b means
    e^(-ε) <= ratio <= e^ε for every Y. Y must have positive width (lo < hi)."""
    lo = check_real("lo", lo)
    hi = check_real("hi", hi)
    loc = check_real("loc", loc)
    loc_neighbour = check_real("loc_neighbour", loc_neighbour)
    scale = check_positive("scale", scale)
    if not lo < hi:
        raise ValueError(
            f"lo must be < hi (Y needs a positive width), got lo = {lo:g}, hi = {hi:g}"
        )
    log_p = _log_interval_probability(lo, hi, loc, scale)
    log_q = _log_interval_probability(lo, hi, loc_neighbour, scale)
    # |ln ratio| <= |loc − loc'|/b holds exactly; rounding in the last digit must not show
    # the bound broken, so the log-ratio is kept within it.
    bound = abs(loc - loc_neighbour) / scale
    log_ratio = min(max(log_p - log_q, -bound), bound)
    ratio = math.exp(log_ratio) if log_ratio <= MAX_EXP_EPSILON else math.inf  # q is then 0
    return math.exp(log_p), math.exp(log_q), ratio


def laplace_difference_pdf(z, *, scale: float):
    r"""Density of Z = L₁ - L₂ for independent L₁, L₂ ~ Lap(b):

    f(z) = (1 / 4b) (1 + |z|/b) e^(-|z|/b)

    (convolve e^(-|x|/b)/2b with itself; L₂ is symmetric, so L₁ - L₂ ~ L₁ + L₂)."""
    scale = check_positive("scale", scale)
    arr = check_real_array("z", z)
    s = np.minimum(np.abs(arr) / scale, 1e300)  # finite, so inf * 0 never appears
    out = (1.0 + s) * np.exp(-s) / (4.0 * scale)
    return float(out) if out.ndim == 0 else out


def laplace_difference_cdf(t, *, scale: float):
    r"""P[L₁ - L₂ <= t] for independent L₁, L₂ ~ Lap(b). With s = |t| / b:

    P[Z > t] = ∫_t^∞ (1/4b)(1 + z/b) e^(-z/b) dz = (2 + s) e^(-s) / 4   for t >= 0,

    so F(t) = 1 - (2 + s) e^(-s) / 4 for t >= 0 and, by symmetry, (2 + s) e^(-s) / 4 for
    t < 0. F(0) = ½; t may be ±inf."""
    scale = check_positive("scale", scale)
    arr = check_real_array("t", t)
    s = np.minimum(np.abs(arr) / scale, 1e300)  # finite, so inf * 0 never appears
    tail = (2.0 + s) * np.exp(-s) / 4.0
    out = np.where(arr >= 0, 1.0 - tail, tail)
    return float(out) if out.ndim == 0 else out
