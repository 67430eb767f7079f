r"""The uncertainty of a DP answer: sampling error and privacy noise together.

A released statistic = the population's value + sampling error + privacy noise. With the
sampling error Z ~ N(0, σ²) (a survey's standard error) and Laplace noise L ~ Lap(b)
independent, the interval release ± t covers the population's value with probability
P(|Z + L| ≤ t). Z + L is the normal-Laplace distribution (Reed 2006, with both Laplace rates
1/b), whose distribution function is

    F(x) = Φ(x/σ) − ½·e^(σ²/(2b²))·[e^(−x/b)·Φ(x/σ − σ/b) − e^(x/b)·Φ(−x/σ − σ/b)],

so, by symmetry,

    P(|Z + L| ≤ t) = 2Φ(t/σ) − 1 − e^(σ²/(2b²))·[e^(−t/b)·Φ(t/σ − σ/b) − e^(t/b)·Φ(−t/σ − σ/b)].

(Derivation: F(x) = E[Φ((x − L)/σ)], integrated over the Laplace density on each side of 0.)
At σ = 0 this is the Laplace interval, t = b·ln(1/(1 − confidence)); at b = 0 the normal
one, t = σ·Φ⁻¹((1 + confidence)/2). The exponentials are taken with the log of Φ
(scipy.special.log_ndtr), so neither overflows when σ/b is large.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special

from ._validate import check_real

RELATIVE_TOLERANCE = 1e-9  # of t: well inside the 1e-6 the contract asks


def _log_tail_ratio(z: float) -> float:
    """g(z) = z²/2 + ln Φ(−z), for any z: ln(½·erfcx(z/√2)) where z > 0 (erfcx is the
    scaled complementary error function, finite for large z), directly below."""
    if z > 0.0:
        return math.log(0.5 * float(special.erfcx(z / math.sqrt(2.0))))
    return 0.5 * z * z + float(special.log_ndtr(-z))


def _coverage(t: float, sd: float, b: float) -> float:
    """P(|Z + L| ≤ t) for Z ~ N(0, sd²), L ~ Lap(b), sd > 0 and b > 0. With u = t/σ and
    s = σ/b the bracket's terms are e^(−u²/2 + g(s − u)) and e^(−u²/2 + g(s + u)), g as in
    _log_tail_ratio: neither overflows, whatever σ/b (σ/b = 1e300 or 1e-300)."""
    u, shift = t / sd, sd / b
    if shift - u > 0.0:
        below = -0.5 * u * u + _log_tail_ratio(shift - u)
    else:  # σ²/(2b²) − t/b + ln Φ(u − s): finite where s ≤ u
        below = 0.5 * shift * shift - t / b + float(special.log_ndtr(u - shift))
    above = -0.5 * u * u + _log_tail_ratio(shift + u)
    return float(2.0 * special.ndtr(u) - 1.0 - (math.exp(below) - math.exp(above)))


def noise_sampling_interval(
    release: float, sampling_sd: float, laplace_scale: float, confidence: float = 0.95
) -> tuple[float, float]:
    r"""The interval release ± t that holds the population's value with probability
    `confidence`, counting both the sampling error N(0, `sampling_sd`²) and the privacy
    noise Lap(`laplace_scale`): t solves P(|Z + L| ≤ t) = confidence (module docstring),
    to 1e-9 relative. Either scale may be 0, not both; confidence in [10⁻⁹, 1)."""
    release = check_real("release", release)
    sd = check_real("sampling_sd", sampling_sd, low=0.0, range_text="finite and >= 0")
    b = check_real("laplace_scale", laplace_scale, low=0.0, range_text="finite and >= 0")
    # below 10⁻⁹ the root is lost in the coverage's rounding (at 10⁻¹⁵ it was 5% off, and at
    # 10⁻¹⁰⁰ there was none to find): a confidence that small is no interval anyone asks for
    confidence = check_real("confidence", confidence, low=1e-9, high=1.0, high_open=True)
    if sd == 0.0 and b == 0.0:
        raise ValueError("sampling_sd and laplace_scale must not both be 0: nothing is uncertain")
    if sd == 0.0:
        t = b * -math.log1p(-confidence)
    elif b == 0.0:
        t = sd * float(special.ndtri(0.5 + 0.5 * confidence))
    else:
        # Z + L is wider than either alone and narrower than their sum at the same level:
        # P(|Z + L| ≤ t_Z + t_L) ≥ P(|Z| ≤ t_Z)·P(|L| ≤ t_L) at each one's √confidence.
        root = math.sqrt(confidence)
        high = sd * float(special.ndtri(0.5 + 0.5 * root)) + b * -math.log1p(-root)
        t = optimize.brentq(
            lambda x: _coverage(x, sd, b) - confidence,
            0.0,
            high,
            xtol=1e-300,
            rtol=RELATIVE_TOLERANCE,
        )
    return (release - t, release + t)


def noise_sampling_coverage(t: float, sampling_sd: float, laplace_scale: float) -> float:
    r"""P(|Z + L| ≤ t) for Z ~ N(0, `sampling_sd`²) and L ~ Lap(`laplace_scale`) independent
    (module docstring); either scale may be 0, not both; t ≥ 0."""
    t = check_real("t", t, low=0.0, range_text="finite and >= 0")
    sd = check_real("sampling_sd", sampling_sd, low=0.0, range_text="finite and >= 0")
    b = check_real("laplace_scale", laplace_scale, low=0.0, range_text="finite and >= 0")
    if sd == 0.0 and b == 0.0:
        raise ValueError("sampling_sd and laplace_scale must not both be 0: nothing is uncertain")
    if sd == 0.0:
        return float(-np.expm1(-t / b))
    if b == 0.0:
        return float(special.erf(t / (sd * math.sqrt(2.0))))
    return _coverage(t, sd, b)
