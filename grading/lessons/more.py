"""The hidden half of more.py's homework: the grades of its fixed answers (what
they compare with never reaches a student). Only the autograder has this file."""

from __future__ import annotations

import math

import numpy as np

import dp
from homework.core import Result, number_in
from homework.lessons.more import MEDIAN_SCORES


def grade_ratio(value) -> Result:
    answer = dp.likelihood_ratio_bound(math.log(3))
    return number_in(
        value,
        answer - 1e-6,
        answer + 1e-6,
        what="likelihood_ratio",
        too_low="Too low: ε bounds the log of the ratio.",
        too_high="Too high: ε bounds the log of the ratio.",
    )


def grade_keep(value) -> Result:
    answer = dp.rr_keep_probability(2.0)
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="keep_probability",
        too_low="Too low: with p = q, the ratio p/(1 − p) must be e^ε.",
        too_high="Too high: that keeps the truth so often that ε is larger than 2.",
    )


def grade_oue_q(value) -> Result:
    answer = dp.oue_probabilities(2.0)[1]
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="oue_q",
        too_low="Too low: OUE keeps a 1 with probability ½ and flips a 0 to 1 with q.",
        too_high="Too high: with p = ½, ε = ln((1 − q)/q) here.",
    )


def grade_top(value) -> Result:
    answer = float(dp.exponential_mechanism_probabilities(np.array(MEDIAN_SCORES), 1.0, 1.0)[3])
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="top_probability",
        too_low="Too low: the best candidate's weight is the largest; divide by the sum.",
        too_high="Too high: every candidate keeps some weight, e^(ε·u/(2Δ)).",
    )


def grade_crossover(value) -> Result:
    """The first day of a 1,000-day stream from which the tree's variance stays below the
    noisy increments' (ε = 1)."""
    horizon, epsilon = 1000, 1.0
    answer = next(
        t
        for t in range(1, horizon + 1)
        if all(
            dp.binary_tree_variance(s, horizon, epsilon) < dp.increments_variance(s, epsilon)
            for s in range(t, horizon + 1)
        )
    )
    return number_in(
        value,
        answer,
        answer,
        what="tree_wins_from",
        too_low="Too early: on some later day the increments are still more accurate.",
        too_high="Too late: the tree is already more accurate on every day from an earlier one.",
    )


def grade_basic_steps(value) -> Result:
    step = dp.subsampled_privacy(1.0, 0.0, 0.01)[0]
    answer = 300 * step
    return number_in(
        value,
        answer * 0.995,
        answer * 1.005,
        what="basic_total",
        too_low="Too low: basic composition adds every step's ε′.",
        too_high="Too high: each step costs the amplified ε′, not ε.",
    )


# The fixed answers' grades, by exercise id.
GRADES = {
    "binary_rr.keep": grade_keep,
    "choosing.top": grade_top,
    "counting_over_time.crossover": grade_crossover,
    "definition.ratio": grade_ratio,
    "subsampling.steps": grade_basic_steps,
    "unary_encoding.oue": grade_oue_q,
}

# Every exercise's solution cell, as the lecturer's solution notebook shows it.
SOLUTIONS = {
    "binary_rr.epsilon": "import math\n"
    "\n"
    "def rr_epsilon(p, q):\n"
    "    return max(abs(math.log(p / (1 - q))), abs(math.log((1 - p) / "
    "q)))\n",
    "binary_rr.keep": "import math\n\nkeep_probability = math.exp(2) / (1 + math.exp(2))\n",
    "choosing.exponential": "import numpy as np\n"
    "\n"
    "def exponential_probabilities(scores, sensitivity, epsilon):\n"
    "    logits = epsilon * np.asarray(scores, dtype=float) / (2 * "
    "sensitivity)\n"
    "    weights = np.exp(logits - logits.max())  # no overflow\n"
    "    return weights / weights.sum()\n",
    "choosing.top": "import math\n"
    "\n"
    "scores = (0, 1, 2, 3, 2, 1, 0)\n"
    "weights = [math.exp(1 * u / 2) for u in scores]\n"
    "top_probability = max(weights) / sum(weights)\n",
    "counting_over_time.crossover": "def tree_var(t, horizon=1000, eps=1.0):\n"
    "    return bin(t).count('1') * 2 * (horizon.bit_length() / "
    "eps) ** 2\n"
    "\n"
    "def increments_var(t, eps=1.0):\n"
    "    return t * 2 / eps**2\n"
    "\n"
    "tree_wins_from = min(\n"
    "    t for t in range(1, 1001)\n"
    "    if all(tree_var(s) < increments_var(s) for s in range(t, "
    "1001))\n"
    ")\n",
    "counting_over_time.variance": "def tree_variance(t, horizon, epsilon):\n"
    "    levels = horizon.bit_length()  # each event is in one "
    "block per level\n"
    "    blocks = bin(t).count('1')  # day t's count adds one "
    "block per 1 bit\n"
    "    return blocks * 2 * (levels / epsilon) ** 2\n",
    "definition.posterior": "import math\n"
    "\n"
    "def posterior_bound(prior, epsilon):\n"
    "    odds = math.exp(epsilon) * prior / (1 - prior)  # the odds grow "
    "by e^ε at most\n"
    "    return odds / (1 + odds)\n",
    "definition.ratio": "import math\n\nlikelihood_ratio = math.exp(math.log(3))\n",
    "subsampling.amplified": "import math\n"
    "\n"
    "def amplified_epsilon(epsilon, q):\n"
    "    return math.log(1 + q * math.expm1(epsilon))\n",
    "subsampling.steps": "import math\n\nbasic_total = 300 * math.log(1 + 0.01 * math.expm1(1))\n",
    "unary_encoding.epsilon": "import math\n"
    "\n"
    "def ue_epsilon(p, q):\n"
    "    return math.log(p * (1 - q) / ((1 - p) * q))\n",
    "unary_encoding.oue": "import math\n"
    "\n"
    "oue_q = 1 / (math.exp(2) + 1)  # p/(1-p) * (1-q)/q = e^2\n",
}
