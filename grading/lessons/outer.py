"""The hidden half of outer.py's homework: the grades of its fixed answers (what
they compare with never reaches a student). Only the autograder has this file."""

from __future__ import annotations

import numpy as np

import dp
from homework.core import Result, number_in
from homework.lessons.outer import SKEW_CLASS, SKEW_TABLE


def grade_exposure(value) -> Result:
    answer = dp.delta_exposure(1e-5, 1_000_000)[1]
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="someone_published",
        too_low="Too low: a million people each get the δ = 10⁻⁵ chance.",
        too_high="Too high: it is a probability, and the chances do not simply add up.",
    )


def grade_interval(value) -> Result:
    """The 95% half-width for a release with sampling SD 10 and Laplace noise of scale 20."""
    low, high = dp.noise_sampling_interval(0.0, 10.0, 20.0)
    answer = (high - low) / 2
    return number_in(
        value,
        answer * 0.995,
        answer * 1.005,
        what="half_width",
        too_low="Too narrow: both errors count, and Laplace noise has heavy tails.",
        too_high="Too wide: adding the two 95% half-widths overstates it; find t with "
        "P(|Z + L| ≤ t) = 95%, by simulation if you like.",
    )


def grade_noise_sd(value) -> Result:
    """The SD of one coordinate of a step's noise, divided by the batch: σ·C/B."""
    answer = 1.1 * 1.0 / 256
    return number_in(
        value,
        answer * 0.995,
        answer * 1.005,
        what="noise_sd_per_coordinate",
        too_low="Too low: the noise is added to the sum of clipped gradients, N(0, σ²C²).",
        too_high="Too high: the noisy sum is divided by the expected batch size.",
    )


def grade_distance(value) -> Result:
    """The class's distance from the table, dp.class_distances on that table."""
    (yes_in, size_in), (yes_all, size_all) = SKEW_CLASS, SKEW_TABLE
    classes = np.array([0] * size_in + [1] * (size_all - size_in))
    sensitive = np.zeros(size_all, dtype=int)
    sensitive[:yes_in] = 1
    sensitive[size_in : size_in + yes_all - yes_in] = 1
    answer = float(dp.class_distances(classes, sensitive)[0])
    return number_in(
        value,
        answer - 5e-4,
        answer + 5e-4,
        what="class_distance",
        too_low="Too low: add the differences of both values' shares, then halve.",
        too_high="Too high: halve the sum of the absolute differences.",
    )


# The fixed answers' grades, by exercise id.
GRADES = {
    "beyond_k_anonymity.distance": grade_distance,
    "dpsgd.noise": grade_noise_sd,
    "epsilon_meaning.exposure": grade_exposure,
    "uncertainty.interval": grade_interval,
}

# Every exercise's solution cell, as the lecturer's solution notebook shows it.
SOLUTIONS = {
    "beyond_k_anonymity.distance": "share_class, share_table = 123 / 200, 484 / 2000\n"
    "class_distance = 0.5 * (\n"
    "    abs(share_class - share_table) + abs((1 - share_class) - "
    "(1 - share_table))\n"
    ")\n",
    "beyond_k_anonymity.l": "from collections import defaultdict\n"
    "\n"
    "def l_of(classes, sensitive):\n"
    "    values = defaultdict(set)\n"
    "    for c, s in zip(classes, sensitive):\n"
    "        values[c].add(s)\n"
    "    return min(len(v) for v in values.values())\n",
    "dpsgd.clip": "import numpy as np\n"
    "\n"
    "def clip(gradients, clip_norm):\n"
    "    norms = np.linalg.norm(gradients, axis=1, keepdims=True)\n"
    "    scale = np.minimum(1.0, clip_norm / np.maximum(norms, 1e-300))\n"
    "    return gradients * scale\n",
    "dpsgd.noise": "noise_sd_per_coordinate = 1.1 * 1.0 / 256\n",
    "epsilon_meaning.advantage": "import math\n"
    "\n"
    "def advantage_bound(epsilon):\n"
    "    return math.tanh(epsilon / 2)  # (e^ε − 1)/(e^ε + 1)\n",
    "epsilon_meaning.exposure": "import math\n\nsomeone_published = 1 - (1 - 1e-5) ** 1_000_000\n",
    "uncertainty.interval": "import dp\n"
    "\n"
    "low, high = dp.noise_sampling_interval(0.0, 10.0, 20.0)\n"
    "half_width = (high - low) / 2\n",
    "uncertainty.se": "import math\n"
    "\n"
    "def share_standard_error(share, n):\n"
    "    return math.sqrt(share * (1 - share) / n)\n",
}
