"""The grader's half of "Private ERM"'s homework: the grade of its fixed answer and every
solution cell. Only the autograder has this file."""

from __future__ import annotations

from homework.core import Result, number_in

SETTING = {"n": 50_000, "lam": 0.0004}


def grade_sensitivity(value) -> Result:
    """2/(nλ) = 0.1, within 0.1%."""
    target = 2.0 / (SETTING["n"] * SETTING["lam"])
    return number_in(
        value,
        0.999 * target,
        1.001 * target,
        what="sensitivity",
        too_low="Too small: the bound is 2/(nλ); the 2 is two rows' slopes, each at most 1.",
        too_high="Too large: divide by both n and λ, the strong convexity the penalty gives.",
    )


HIDDEN_SEED = 2_011_083  # the cases a function's grade draws when the autograder grades


GRADES = {"private_erm.sensitivity": grade_sensitivity}


SOLUTIONS = {
    "private_erm.sensitivity": "n, lam = 50_000, 0.0004\nsensitivity = 2 / (n * lam)\n",
    "private_erm.noise": "def expected_noise(n, lam, epsilon, d):\n"
    "    beta = n * lam * epsilon / 2  # the density of b is proportional to exp(-beta |b|)\n"
    "    return d / beta  # |b| ~ Gamma(shape d, scale 1/beta), whose mean is d/beta\n",
}
