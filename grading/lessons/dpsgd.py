"""The grader's half of "Private training with DP-SGD"'s homework: the grades of its fixed
answers and every solution cell. Only the autograder has this file."""

from __future__ import annotations

from homework.core import Result, number_in


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


HIDDEN_SEED = 170_939  # the cases a function's grade draws when the autograder grades


GRADES = {
    "dpsgd.noise": grade_noise_sd,
}


SOLUTIONS = {
    "dpsgd.clip": "import numpy as np\n"
    "\n"
    "def clip(gradients, clip_norm):\n"
    "    norms = np.linalg.norm(gradients, axis=1, keepdims=True)\n"
    "    scale = np.minimum(1.0, clip_norm / np.maximum(norms, 1e-300))\n"
    "    return gradients * scale\n",
    "dpsgd.noise": "noise_sd_per_coordinate = 1.1 * 1.0 / 256\n",
}
