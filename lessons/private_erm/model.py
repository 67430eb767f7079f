"""Private ERM (the numbers behind the page): L2-regularised logistic regression on the census
(income > 50K from age, education, hours worked and capital gains), how far its minimiser
moves when one person changes, and its private versions by output and objective
perturbation (Chaudhuri, Monteleoni & Sarwate 2011) against DP-SGD on the same rows.

The data (data.features.unit_ball_features). The census's training rows (the split "Private
training with DP-SGD" uses): four numeric columns scaled from their public ranges onto
[−1, 1] (capital gains by log(1 + v)) and a constant 1 for the intercept, the row divided by
√5 so that its L2 norm is at most 1, as dp/erm.py requires; labels +1 (income > 50K) and −1.
Nothing about the people is read to scale them, so the scaling costs no ε.

Every private number is dp's (dp.output_perturbation, dp.objective_perturbation,
dp.dpsgd_step, dp.dpsgd_noise_multiplier), computed ahead of time by make_tables.py into
tables.py: about 20 s of work that a first visit should not wait for.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from data.features import UNIT_BALL_COLUMNS, Data, unit_ball_features
from lessons.private_erm import tables
from ui import datasets, dpsgd_setup, text

DIMENSION = len(UNIT_BALL_COLUMNS) + 1  # and the intercept
LAMBDAS: tuple[float, ...] = (1e-4, 3e-4, 1e-3, 3e-3, 1e-2)
DEFAULT_LAMBDA = 1e-3
EPSILONS: tuple[float, ...] = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
DEFAULT_EPSILON = 0.1
RUNS = 10  # seeded private models per point
NEIGHBOURS = 20  # people whose row is replaced in section 1
NEIGHBOUR_SEED = 2011
DPSGD_LEARNING_RATE = 2.0

OUTPUT, OBJECTIVE = "Output perturbation", "Objective perturbation"
METHODS = (OUTPUT, OBJECTIVE)
KEYS = {OUTPUT: "output", OBJECTIVE: "objective"}  # their names in tables.py
DPSGD = "DP-SGD, (ε, 10⁻⁵)"
PLAIN = "Not private"
ALWAYS_NO = "Always “≤ 50K”"
LINES = (PLAIN, OBJECTIVE, OUTPUT, DPSGD, ALWAYS_NO)
SHOWN = (OBJECTIVE, OUTPUT, DPSGD)  # the metrics beside the chart
SHORT = {OBJECTIVE: "Objective", OUTPUT: "Output", DPSGD: "DP-SGD"}
ACCURACY_DOMAIN = (0.5, 0.85)  # a lower error bar below 50% is drawn to 50%


@datasets.cached(max_entries=1, census_only=True)
def data() -> Data:
    """The rows, scaled into the unit ball from public ranges (data/features.py)."""
    return unit_ball_features(datasets.census())


def correct(weights: np.ndarray) -> int:
    """Test rows the linear classifier sign(wᵀx) gets right."""
    found = data()
    return int(np.sum(np.where(found.x_test @ weights > 0, 1.0, -1.0) == found.y_test))


def n_test() -> int:
    return len(data().y_test)


def neighbours() -> np.ndarray:
    """The training rows whose person section 1 replaces (a fixed draw)."""
    n = len(data().y_train)
    return np.random.default_rng(NEIGHBOUR_SEED).choice(n, NEIGHBOURS, replace=False)


def n_train() -> int:
    return len(data().y_train)


# --- 1. the minimiser's sensitivity ------------------------------------------------------------
def bound(lam: float) -> float:
    """CMS Cor. 8: replacing one row moves the minimiser by at most 2/(nλ)."""
    return 2.0 / (n_train() * lam)


MOVE_DOMAIN = (1e-4, 1.0)


@datasets.cached(max_entries=1, census_only=True)
def movement_points() -> pd.DataFrame:
    """Every replaced person's movement at every λ (x: λ, y: movement)."""
    rows = [(lam, moved, PERSON) for lam in LAMBDAS for moved in tables.MOVED[lam]]
    return pd.DataFrame(rows, columns=["lam", "moved", "who"])


BOUND = "the bound 2/(nλ)"
PERSON = "one person replaced"


@datasets.cached(max_entries=1, census_only=True)
def bound_curve() -> pd.DataFrame:
    """The bound 2/(nλ) over the λ axis (lam, moved, line)."""
    grid = np.geomspace(LAMBDAS[0], LAMBDAS[-1], 21)
    return pd.DataFrame({"lam": grid, "moved": [bound(lam) for lam in grid], "line": BOUND})


def lambda_label(lam: float) -> str:
    return f"λ = {text.number(lam)}"


@datasets.cached(max_entries=2 * len(LAMBDAS))
def lambda_rule(lam: float, bottom: bool = False) -> pd.DataFrame:
    """Your λ as the chart's rule, its label at the plot's bottom with `bottom`
    (charts.lambda_label_at_bottom)."""
    return pd.DataFrame({"x": [lam], "label": [lambda_label(lam)], "bottom": [bottom]})


def largest_move(lam: float) -> float:
    return max(tables.MOVED[lam])


def sensitivity_words(lam: float) -> str:
    """The bound against what the replaced people moved, in this state."""
    most, limit = largest_move(lam), bound(lam)
    return (
        f"At λ = {text.number(lam)} the bound 2/(nλ) with n = {n_train():,} is "
        f"{text.number(limit, 3)}; the {NEIGHBOURS} people replaced here moved the minimiser "
        f"by at most {text.number(most, 3)}, {text.number(limit / most, 3)} times less. The "
        "bound is what the proof can count on for any data and any person (the loss's "
        "slope is at most 1 and the objective at least λ-strongly convex); a real dataset's "
        "curvature holds the minimiser tighter, but a privacy proof cannot assume it."
    )


# --- 2. and 3. output and objective perturbation, and DP-SGD ------------------------------------
class Point(NamedTuple):
    mean: float
    low: float  # mean ± 1.96 standard errors over the runs
    high: float
    se: float


def summary(counts: tuple[int, ...]) -> Point:
    """Mean accuracy of seeded runs (test rows right, out of n_test()) and its interval."""
    array = np.asarray(counts) / n_test()
    mean = float(array.mean())
    se = float(array.std(ddof=1) / math.sqrt(array.size))
    return Point(mean, mean - 1.959964 * se, mean + 1.959964 * se, se)


def point(line: str, epsilon: float, lam: float) -> Point:
    """A line's accuracy at ε (and λ, for the ERM methods)."""
    if line in METHODS:
        return summary(tables.PRIVATE[(KEYS[line], epsilon, lam)])
    if line == DPSGD:
        return summary(tables.DPSGD[epsilon])
    value = tables.PLAIN[lam] / n_test() if line == PLAIN else base_rate()
    return Point(value, value, value, 0.0)


def base_rate() -> float:
    """What always answering "≤ 50K" gets right on the test rows."""
    return float(np.mean(data().y_test == -1.0))


@datasets.cached(max_entries=len(LAMBDAS))
def accuracy_curves(lam: float) -> pd.DataFrame:
    """Each line's accuracy against ε at λ, with its 95% interval (x: epsilon, y: accuracy,
    low, high, line)."""
    rows = []
    for line in LINES:
        for epsilon in EPSILONS:
            found = point(line, epsilon, lam)
            rows.append((epsilon, found.mean, found.low, found.high, line))
    return pd.DataFrame(rows, columns=["epsilon", "accuracy", "low", "high", "line"])


@datasets.cached(max_entries=len(EPSILONS))
def epsilon_rule(epsilon: float) -> pd.DataFrame:
    return pd.DataFrame({"x": [epsilon], "label": [f"ε = {text.number(epsilon)}"]})


def noise_norm(epsilon: float, lam: float) -> float:
    """Output perturbation's expected noise norm: ‖b‖ ~ Gamma(d, 1/β), β = nλε/2, so
    E‖b‖ = d/β = 2d/(nλε)."""
    return DIMENSION / (n_train() * lam * epsilon / 2.0)


def weight_norm(lam: float) -> float:
    return tables.NORM[lam]


ABOUT_THE_SAME = "About the same"
PREDICT_EPSILON = 0.1


def better(first: str, second: str, epsilon: float, lam: float) -> str:
    """Which of two lines is more accurate at ε, or ABOUT_THE_SAME when their means differ by
    less than 1.96 standard errors of the difference."""
    a, b = point(first, epsilon, lam), point(second, epsilon, lam)
    if abs(a.mean - b.mean) <= 1.959964 * math.hypot(a.se, b.se):
        return ABOUT_THE_SAME
    return first if a.mean > b.mean else second


def comparison_words(epsilon: float, lam: float) -> str:
    """Where each method wins in this state, from the numbers and their error bars."""
    found = {line: point(line, epsilon, lam) for line in LINES}

    def shown(line: str) -> str:
        return text.percent(found[line].mean, 3)

    erm = better(OBJECTIVE, OUTPUT, epsilon, lam)
    words = (
        f"At ε = {text.number(epsilon)} and λ = {text.number(lam)}: objective perturbation "
        f"{shown(OBJECTIVE)}, output perturbation {shown(OUTPUT)}, DP-SGD {shown(DPSGD)}, "
        f"against {shown(PLAIN)} without privacy and {shown(ALWAYS_NO)} for always answering "
        "“≤ 50K”. "
    )
    if erm == ABOUT_THE_SAME:
        words += "The two ERM methods are about the same here (within their error bars). "
    else:
        other = OUTPUT if erm == OBJECTIVE else OBJECTIVE
        words += f"{erm} is more accurate than {other.lower()}, beyond the error bars. "
    versus = better(OBJECTIVE, DPSGD, epsilon, lam)
    if versus == ABOUT_THE_SAME:
        words += "Objective perturbation and DP-SGD are about the same."
    else:
        words += f"Of objective perturbation and DP-SGD, {versus.split(',')[0]} is more accurate."
    return words + above_plain_words(epsilon, lam)


def dpsgd_without_noise() -> Point:
    """DP-SGD's own trainings with σ = 0: the same model, batches and steps, no privacy."""
    return summary(tables.DPSGD_WITHOUT_NOISE[dpsgd_steps()])


def above_plain_words(epsilon: float, lam: float) -> str:
    """Why a private line sits above "not private" beyond its error bar, where one does (a
    student would read that privacy made a model better): DP-SGD is another model, measured
    here against its own training without noise; an ERM method scores a few test rows more
    than the penalised minimiser, which is the best fit to the training rows, not to these."""
    plain = point(PLAIN, epsilon, lam).mean
    words = ""
    sgd = point(DPSGD, epsilon, lam)
    if sgd.low > plain:
        own = dpsgd_without_noise()
        lost = own.mean - sgd.mean
        said = f"without noise the same training scores {text.percent(own.mean, 3)}"
        if abs(lost) <= 1.959964 * math.hypot(own.se, sgd.se):
            said += ", within the error bars of its score here"
        elif lost > 0:
            said += f": privacy costs it {text.number(100 * lost, 2)} points"
        else:
            said += f", {text.number(-100 * lost, 2)} points less than with its noise here"
        words += (
            " DP-SGD is above the model without privacy because it is another model "
            f"({dpsgd_steps()} steps from zero, no penalty λ): {said}."
        )
    for line in METHODS:
        found = point(line, epsilon, lam)
        gain = found.mean - plain
        if found.low > plain and gain * n_test() >= 1:  # under a row: the same percentage
            words += (
                f" {line} is {text.number(100 * gain, 2)} points above the model without "
                f"privacy ({text.number(gain * n_test(), 2)} of {n_test():,} test rows on "
                "average, beyond the error bars): that model is the best fit to the training "
                "rows, not to these test rows, and a nearby model can get a few more of them "
                "right. Privacy does not make a model better."
            )
    return words


def accuracy_alt(epsilon: float, lam: float) -> str:
    """The accuracy chart's description (its alt) in this state."""
    return (
        f"Test accuracy against ε from {text.number(EPSILONS[0])} to "
        f"{text.number(EPSILONS[-1])} (log scale) at λ = {text.number(lam)}, each private "
        f"method the mean of {RUNS} runs with a 95% error bar. At ε = "
        f"{text.number(epsilon)}: "
        + ", ".join(f"{line} {text.percent(point(line, epsilon, lam).mean, 3)}" for line in LINES)
        + "."
    )


def prediction_words(lam: float) -> str:
    """The prediction's explanation, from the numbers at ε = PREDICT_EPSILON."""
    objective, output = point(OBJECTIVE, PREDICT_EPSILON, lam), point(OUTPUT, PREDICT_EPSILON, lam)
    return (
        f"At ε = {text.number(PREDICT_EPSILON)}: objective perturbation "
        f"{text.percent(objective.mean, 3)} "
        f"(±\u00a0{text.number(100 * 1.959964 * objective.se, 2)} "
        f"points), output perturbation {text.percent(output.mean, 3)} (± "
        f"{text.number(100 * 1.959964 * output.se, 2)}). Output perturbation's noise, of "
        f"expected length {text.number(noise_norm(PREDICT_EPSILON, lam), 3)}, lands on "
        f"weights of length {text.number(weight_norm(lam), 3)}; objective perturbation's is "
        "divided by n inside the objective."
    )


def noise_words(epsilon: float, lam: float) -> str:
    """Output perturbation's noise against the weights it is added to."""
    noise, weights = noise_norm(epsilon, lam), weight_norm(lam)
    return (
        f"Output perturbation adds a vector of expected length 2d/(nλε) = "
        f"{text.number(noise, 3)} to weights of length {text.number(weights, 3)}: "
        + (
            "the noise is larger than the model itself."
            if noise > weights
            else f"{text.percent(noise / weights, 3)} of the model's own length."
        )
    )


PREDICT_OPTIONS = (OUTPUT, OBJECTIVE, ABOUT_THE_SAME)


def predicted(lam: float) -> str:
    """The right answer to the prediction at λ: which ERM method is more accurate at ε = 0.1."""
    return better(OUTPUT, OBJECTIVE, PREDICT_EPSILON, lam)


def dpsgd_steps() -> int:
    return dpsgd_setup.steps()
