r"""What the definition guarantees about one person (Dwork & Roth 2014, §2.3; Kasiviswanathan
& Smith 2014).

An ε-DP mechanism bounds the likelihood ratio of any output between neighbouring datasets by
e^ε, so an attacker's odds about one person move by at most that factor:

    posterior ≤ e^ε p / (e^ε p + 1 - p)   for a prior p.
"""

from __future__ import annotations

import math

from ._validate import MAX_EXP_EPSILON, check_epsilon, check_probability, check_real


def likelihood_ratio_bound(epsilon: float) -> float:
    r"""The largest factor by which one output can be more likely under D than under a
    neighbour D': e^ε (for a group of g people use ε = g·ε₁, see `group_privacy`)."""
    return math.exp(check_epsilon(epsilon, high=MAX_EXP_EPSILON))


def posterior_bound(prior: float, epsilon: float) -> float:
    r"""Worst-case belief of an attacker after any output of an ε-DP mechanism:

    P[D | y] <= e^ε π / (e^ε π + 1 - π)  for prior π  (Bayes with the e^ε likelihood ratio);
    computed as π / (π + (1 - π) e^(-ε)) so that large ε cannot overflow."""
    prior = check_probability("prior", prior)
    epsilon = check_epsilon(epsilon)
    if prior in (0.0, 1.0):  # certainty stays certainty (and 0/0 at huge ε is avoided)
        return prior
    return prior / (prior + (1.0 - prior) * math.exp(-epsilon))


def advantage_bound(epsilon: float, delta: float = 0.0) -> float:
    r"""The largest advantage TPR − FPR of any test telling neighbouring datasets apart
    under (ε, δ)-DP:

        (e^ε − 1 + 2δ)/(e^ε + 1) = tanh(ε/2) + 2δ/(e^ε + 1)   (Kairouz, Oh & Viswanath 2015)

    reached where the (ε, δ) trade-off line's two pieces meet. delta in [0, 1) (0: pure DP);
    written with e^(−ε), so a large ε does not overflow."""
    epsilon = check_epsilon(epsilon)
    delta = check_real("delta", delta, low=0.0, high=1.0, high_open=True)
    shrink = math.exp(-epsilon)
    return math.tanh(epsilon / 2.0) + 2.0 * delta * shrink / (1.0 + shrink)
