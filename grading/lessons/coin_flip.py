"""The hidden half of coin_flip.py's homework: the grades of its fixed answers (what
they compare with never reaches a student). Only the autograder has this file."""

from __future__ import annotations

import math

import dp
from homework.core import Result, number_in
from homework.lessons.coin_flip import SE_PEOPLE, SE_SHARE


def grade_epsilon(epsilon) -> Result:
    """ε of the protocol with a first coin honest 60% of the time and a fair second coin."""
    answer = float(dp.rr_epsilon(*dp.coin_flip_probabilities(0.6, 0.5)))
    return number_in(
        epsilon,
        answer * 0.995,
        answer * 1.005,
        what="epsilon_biased_coins",
        too_low="Too small: compare how likely a 'yes' report is under a true yes and under "
        "a true no.",
        too_high="Too large: ε is the log of the largest ratio of those two likelihoods.",
    )


def grade_standard_error(value) -> Result:
    """The standard error of r̂ with fair coins, 1,000 people and a true share of 0.3."""
    answer = math.sqrt(dp.rr_variance(SE_SHARE, SE_PEOPLE, 0.75, 0.75))
    return number_in(
        value,
        answer * 0.99,
        answer * 1.01,
        what="standard_error",
        too_low="Too small: the reports are noisier than the truth, and dividing by "
        "p + q − 1 = ½ doubles their spread.",
        too_high="Too large: check the variance of one report and the division by n.",
    )


HIDDEN_SEED = 640_331  # the cases a function's grade draws when the autograder grades


GRADES = {
    "coin_flip.epsilon": grade_epsilon,
    "coin_flip.standard_error": grade_standard_error,
}


SOLUTIONS = {
    "coin_flip.epsilon": "import math\n"
    "\n"
    "p = 0.6 + 0.4 * 0.5  # P[report yes | truth yes]\n"
    "epsilon_biased_coins = math.log(p / (1 - p))  # p = q here\n",
    "coin_flip.estimate": "def estimate_share(reports, honest, yes):\n"
    "    forced_yes = (1 - honest) * yes  # reports of 'yes' that coin 2 "
    "made\n"
    "    return (reports.mean() - forced_yes) / honest  # E[mean] = "
    "honest·r + forced\n",
    "coin_flip.standard_error": "import math\n"
    "\n"
    "p = q = 0.75\n"
    "r, n = 0.3, 1000\n"
    "variance = (r * p * (1 - p) + (1 - r) * q * (1 - q)) / (n * (p + "
    "q - 1) ** 2)\n"
    "standard_error = math.sqrt(variance)\n",
}
