"""The grader's half of "Rényi DP and the accountants"'s homework: the grade of its fixed
answer and every solution cell. Only the autograder has this file."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, number_in

RUN = {"sigma": 1.1, "sample_rate": 0.01, "steps": 1_000, "delta": 1e-5}


def grade_accountant(value) -> Result:
    """Within 1% of dp's RDP ε for the run: the subsampled Gaussian's curve at orders
    2 … 64 times T, dp.rdp_to_dp (improved)."""
    orders = np.arange(2, 65)
    curve = RUN["steps"] * dp.rdp_subsampled_gaussian(orders, RUN["sigma"], RUN["sample_rate"])
    target, _ = dp.rdp_to_dp(orders, curve, RUN["delta"])
    return number_in(
        value,
        0.99 * target,
        1.01 * target,
        what="rdp_epsilon",
        too_low="Too small: add the step's curve T times before converting, at every order.",
        too_high="Too large: take the smallest ε over the orders, with the improved conversion "
        "ε(α) + ln((α − 1)/α) − (ln δ + ln α)/(α − 1).",
    )


HIDDEN_SEED = 83_083  # the cases a function's grade draws when the autograder grades


GRADES = {"renyi.accountant": grade_accountant}


SOLUTIONS = {
    "renyi.curve": "import math\n\n\n"
    "def rr_divergence(alpha, p):\n"
    "    # outputs agree / disagree with the truth: P = (p, 1 - p), Q = (1 - p, p)\n"
    "    total = p**alpha * (1 - p) ** (1 - alpha) + (1 - p) ** alpha * p ** (1 - alpha)\n"
    "    return math.log(total) / (alpha - 1)\n",
    "renyi.accountant": "import math\n\n"
    "sigma, q, steps, delta = 1.1, 0.01, 1000, 1e-5\n\n\n"
    "def step_divergence(alpha):  # the subsampled Gaussian at a whole order α, in logs\n"
    "    logs = [\n"
    "        math.log(math.comb(alpha, k)) + (alpha - k) * math.log(1 - q) + k * math.log(q)\n"
    "        + (k * k - k) / (2 * sigma**2)\n"
    "        for k in range(alpha + 1)\n"
    "    ]\n"
    "    top = max(logs)\n"
    "    return (top + math.log(sum(math.exp(x - top) for x in logs))) / (alpha - 1)\n\n\n"
    "def converted(a):  # the improved conversion at order a\n"
    "    return steps * step_divergence(a) + math.log((a - 1) / a) - (\n"
    "        math.log(delta) + math.log(a)\n"
    "    ) / (a - 1)\n\n\n"
    "rdp_epsilon = min(converted(a) for a in range(2, 65))\n",
}
