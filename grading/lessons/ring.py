"""The hidden half of ring.py's homework: the grades of its fixed answers (what
they compare with never reaches a student). Only the autograder has this file."""

from __future__ import annotations

import hashlib
import math

import numpy as np

import dp
from homework.core import Result, number_in
from homework.lessons.ring import FLAW_OPTIONS, STOP, UNIQUE_TABLE

FLAW_SHA256 = "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"


def grade_flaw(letter) -> Result:
    """The variant that is ε′-DP for no finite ε′ (the SHA-256 of its letter is kept)."""
    if letter is Ellipsis or letter is None:
        return Result(
            False, "Set broken_variant to your answer (a letter), then run the check again."
        )
    if not isinstance(letter, str) or letter.strip().lower() not in FLAW_OPTIONS:
        return Result(False, f"broken_variant must be one of {sorted(FLAW_OPTIONS)}.")
    digest = hashlib.sha256(letter.strip().lower().encode()).hexdigest()
    if digest == FLAW_SHA256:
        return Result(True, "")
    return Result(
        False,
        "That variant leaks, but only a bounded amount more than promised. Which one makes "
        "an output possible on one dataset and impossible on its neighbour?",
    )


def grade_stop(value) -> Result:
    """P[AboveThreshold stops at the third query] (exact, dp.above_threshold_probabilities)."""
    s = STOP
    answer = float(
        dp.above_threshold_probabilities(np.array(s["answers"]), s["threshold"], s["epsilon"])[2]
    )
    return number_in(
        value,
        answer - 0.002,
        answer + 0.002,
        what="stop_at_third",
        too_low="Too low: the third answer is 2 above the threshold, but the noises are wide "
        "(Lap(2/ε) on the threshold, Lap(4/ε) on each query).",
        too_high="Too high: it stops at the third only if the first two stay below the noisy "
        "threshold.",
    )


def grade_ratio(value) -> Result:
    answer = float(dp.local_to_central_error_ratio(10_000, 1.0))
    return number_in(
        value,
        answer * 0.99,
        answer * 1.01,
        what="local_over_central",
        too_low="Too low: in the local model everyone's report is noisy, not one total.",
        too_high="Too high: compare the two models' typical count errors at the same ε.",
    )


def grade_threshold(value) -> Result:
    answer = dp.laplace_partition_threshold(1.0, 1e-6, 1)
    return number_in(
        value,
        answer * 0.995,
        answer * 1.005,
        what="partition_threshold",
        too_low="Too low: a partition of one person must reach it with probability at most δ.",
        too_high="Too high: the threshold need only make a one-person partition's release "
        "chance at most δ.",
    )


def grade_unique(value) -> Result:
    """The share of people alone in their class in UNIQUE_TABLE (dp.share_unique)."""
    rows = [tuple(r) for r in UNIQUE_TABLE]
    sizes = [rows.count(r) for r in rows]  # each person's class size
    answer = dp.share_unique(sizes)
    return number_in(
        value,
        answer - 1e-9,
        answer + 1e-9,
        what="share_unique",
        too_low="Too low: count every person whose (age, ZIP) no one else has.",
        too_high="Too high: a person is unique only when no other row has the same values.",
    )


def grade_olh_sd(value) -> Result:
    answer = math.sqrt(dp.olh_variance(10_000, 2.0))
    return number_in(
        value,
        answer * 0.99,
        answer * 1.01,
        what="olh_count_sd",
        too_low="Too low: hashing and randomizing add noise to every report.",
        too_high="Too high: OLH's variance is the pure protocol's, with q = 1/g.",
    )


def grade_release(value) -> Result:
    """P[a 10-person group passes the Laplace threshold] at ε = 1, δ = 10⁻⁶."""
    tau = dp.laplace_partition_threshold(1.0, 1e-6, 1)
    answer = 1.0 - float(dp.laplace_cdf(tau, loc=10.0, scale=1.0))
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="ten_person_group_released",
        too_low="Too low: its noisy count must reach τ; how far above 10 is τ?",
        too_high="Too high: a group of 10 is still below the threshold most of the time.",
    )


def grade_global(value) -> Result:
    """The median's global sensitivity on [0, 100] when one value is replaced."""
    answer = 100.0  # dp.median_local_sensitivity reaches U − L: (0, 0, 100) → (0, 100, 100)
    assert dp.median_local_sensitivity(np.array([0.0, 0.0, 100.0]), 0.0, 100.0) == answer
    return number_in(
        value,
        answer,
        answer,
        what="median_global_sensitivity",
        too_low="Too low: find three values where replacing one moves the median from one "
        "end of [0, 100] to the other.",
        too_high="Too high: the median stays inside [0, 100].",
    )


# The fixed answers' grades, by exercise id.
GRADES = {
    "anonymisation.unique": grade_unique,
    "beyond_global.global": grade_global,
    "central_vs_local.ratio": grade_ratio,
    "group_by.release": grade_release,
    "group_by.threshold": grade_threshold,
    "large_domains.sd": grade_olh_sd,
    "sparse_vector.flaw": grade_flaw,
    "sparse_vector.stop": grade_stop,
}

# Every exercise's solution cell, as the lecturer's solution notebook shows it.
SOLUTIONS = {
    "anonymisation.k": "from collections import Counter\n"
    "\n"
    "def k_of(rows):\n"
    "    return min(Counter(rows).values())\n",
    "anonymisation.unique": "rows = ((30, '0214'), (30, '0214'), (31, '0214'), (45, '0301'), (45, "
    "'0301'), (45, '0301'), (52, '0214'), (30, '0301'))\n"
    "share_unique = sum(rows.count(r) == 1 for r in rows) / len(rows)\n",
    "beyond_global.global": "median_global_sensitivity = 100  # (0, 0, 100) → (0, 100, 100)\n",
    "beyond_global.local": "def median_local_sensitivity(values, lower, upper):\n"
    "    m = len(values) // 2\n"
    "    below = values[m - 1] if m > 0 else lower\n"
    "    above = values[m + 1] if m + 1 < len(values) else upper\n"
    "    return max(values[m] - below, above - values[m])\n",
    "central_vs_local.ratio": "import dp\n"
    "\n"
    "local_over_central = dp.local_to_central_error_ratio(10_000, "
    "1.0)\n",
    "central_vs_local.std": "import math\n"
    "\n"
    "def local_count_std(n, epsilon):\n"
    "    p = math.exp(epsilon) / (1 + math.exp(epsilon))\n"
    "    return math.sqrt(n * p * (1 - p)) / (2 * p - 1)\n",
    "group_by.release": "import math\n"
    "\n"
    "tau = 1 + math.log(1 / (2 * 1e-6))\n"
    "ten_person_group_released = 0.5 * math.exp(-(tau - 10))  # P[Lap(1) >= τ "
    "− 10]\n",
    "group_by.threshold": "import math\n"
    "\n"
    "partition_threshold = 1 + math.log(1 / (2 * 1e-6)) / 1.0  # P[1 + "
    "Lap(1) >= τ] = δ\n",
    "large_domains.olh": "import math\n"
    "\n"
    "def olh_range(epsilon):\n"
    "    return max(2, round(math.exp(epsilon) + 1))\n",
    "large_domains.sd": "import math\n"
    "import dp\n"
    "\n"
    "olh_count_sd = math.sqrt(dp.olh_variance(10_000, 2.0))\n",
    "sparse_vector.flaw": 'broken_variant = "a"  # compared exactly, a query above the noisy '
    "threshold on one dataset can be impossible on its neighbour\n",
    "sparse_vector.stop": "import numpy as np\n"
    "import dp\n"
    "\n"
    "stop_at_third = dp.above_threshold_probabilities(np.array([1, 0, 6, "
    "2]), 4.0, 1.0)[2]\n",
}
