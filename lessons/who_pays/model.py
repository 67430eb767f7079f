"""Who pays for privacy (the numbers behind the page): the same ε costs a small group's
statistics more than a large group's (Laplace noise on counts by race and sex), what a
private model's accuracy loses in each group (objective perturbation, as in "Private ERM"),
and which people's gradients DP-SGD's clipping cuts.

Counts: how many people in each race × sex group earn more than $50K, each released with
Laplace noise of scale 1/ε (add or remove one person: sensitivity 1). The typical error, as
everywhere in the course, is the noise's standard deviation: √2/ε, the same for every group;
relative to the count it is √2/(ε·count), larger the smaller the group.

Models: dp.objective_perturbation on data.features.unit_ball_features (λ = LAMBDA), RUNS
seeded models at each ε; each race group's accuracy on the test rows, and its drop from the
non-private model's (dp.logistic_erm) on the same rows. No slider changes them: make_tables.py
writes them into tables.py (about 1 s of training a first visit does not wait for).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

import dp
from data.features import SPLIT_SEED, TEST_SHARE, unit_ball_features
from lessons.who_pays import tables
from ui import datasets, text

# --- 1. counts ---------------------------------------------------------------------------------
EPSILONS: tuple[float, ...] = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
DEFAULT_EPSILON = 0.1
USELESS = 0.5  # a count whose typical error is at least half of it tells little
RELATIVE_DOMAIN = (0.00001, 100.0)
COUNT_DOMAIN = (1.0, 10_000.0)


@datasets.cached(max_entries=1, census_only=True)
def rich_counts() -> pd.DataFrame:
    """People earning more than $50K in each race × sex group (group, count), smallest
    first."""
    frame = datasets.census()
    rich = frame[frame["Income"].astype("string") == ">50K"]
    counts = rich.groupby(["Race", "Sex"], observed=True).size()
    rows = [(f"{race}, {sex}", int(n)) for (race, sex), n in counts.items()]
    return pd.DataFrame(sorted(rows, key=lambda row: row[1]), columns=["group", "count"])


def typical_error(epsilon: float) -> float:
    """The standard deviation of Lap(1/ε): √2/ε (dp.laplace_variance)."""
    return math.sqrt(dp.laplace_variance(1.0, epsilon))


@datasets.cached(max_entries=len(EPSILONS), census_only=True)
def relative_errors(epsilon: float) -> pd.DataFrame:
    """Each group's count and its relative typical error √2/(ε·count) (group, count,
    relative)."""
    counts = rich_counts()
    return counts.assign(relative=typical_error(epsilon) / counts["count"])


@datasets.cached(max_entries=len(EPSILONS))
def error_line(epsilon: float) -> pd.DataFrame:
    """√2/(ε·n) over the count axis (count, relative, line)."""
    grid = np.geomspace(*COUNT_DOMAIN, 21)
    return pd.DataFrame(
        {"count": grid, "relative": typical_error(epsilon) / grid, "line": "√2/(ε·count)"}
    )


NOTE_LABEL = "half the count"


@datasets.cached(max_entries=4)
def epsilon_note(right: bool, under: bool) -> pd.DataFrame:
    """Half the count as a line, its label written where (right, under) says
    (charts.note_place)."""
    return pd.DataFrame({"y": [USELESS], "label": [NOTE_LABEL], "right": [right], "under": [under]})


def counts_alt(epsilon: float) -> str:
    found = relative_errors(epsilon)
    return (
        f"Each of the {len(found)} race and sex groups' relative typical error against its "
        f"count of people with income > 50K (both axes log), on the line √2/(ε·count) "
        f"at ε = {text.number(epsilon)}, and half the count as a dashed line: "
        + "; ".join(
            f"{row.group} {row.count:,}, {text.percent(row.relative, 3)}"
            for row in found.itertuples()
        )
        + "."
    )


def useless_groups(epsilon: float) -> list[str]:
    found = relative_errors(epsilon)
    return found.loc[found["relative"] >= USELESS, "group"].tolist()


def counts_words(epsilon: float) -> str:
    """What the same ε does to the smallest and largest groups' counts, in this state."""
    found = relative_errors(epsilon)
    small, large = found.iloc[0], found.iloc[-1]
    lost = useless_groups(epsilon)
    words = (
        f"At ε = {text.number(epsilon)} every count gets the same noise, typical error "
        f"{text.number(typical_error(epsilon), 3)}. For {small['group']} ({small['count']} "
        f"people) that is {text.percent(small['relative'], 3)} of the count; for "
        f"{large['group']} ({large['count']:,}) {text.percent(large['relative'], 3)}. "
    )
    if lost:
        return words + (
            f"{len(lost)} of the {len(found)} counts have a typical error of at least half "
            "of themselves, too noisy to say much: " + "; ".join(lost) + "."
        )
    return words + "No count's typical error reaches half of the count at this ε."


# --- 2. models ---------------------------------------------------------------------------------
MODEL_EPSILONS: tuple[float, ...] = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
DEFAULT_MODEL_EPSILON = 0.03
LAMBDA = 1e-3
RUNS = 10
DROP_DOMAIN = (-10.0, 15.0)  # percentage points
PREDICT_EPSILON = 1.0
NONE_CLEARLY = "No group clearly loses more than the others"


@datasets.cached(max_entries=1, census_only=True)
def test_groups() -> np.ndarray:
    """Each test row's race (the rows data.features holds out)."""
    frame = datasets.census()
    held = np.random.default_rng(SPLIT_SEED).random(len(frame)) < TEST_SHARE
    return frame["Race"].astype("string").to_numpy()[held]


@datasets.cached(max_entries=1, census_only=True)
def test_sizes() -> dict[str, int]:
    """Each race group's test rows, largest first."""
    races, sizes = np.unique(test_groups(), return_counts=True)
    ranked = sorted(zip(sizes, races, strict=True), reverse=True)
    return {str(race): int(size) for size, race in ranked}


def groups_by_size() -> list[str]:
    """The race groups, largest on the test rows first."""
    return list(test_sizes())


@datasets.cached(max_entries=1, census_only=True)
def data():
    """The private ERM lesson's rows (data.features.unit_ball_features)."""
    return unit_ball_features(datasets.census())


def right_by_group(weights: np.ndarray) -> dict[str, int]:
    """Each race group's test rows the linear classifier sign(wᵀx) gets right."""
    found = data()
    right = np.where(found.x_test @ weights > 0, 1.0, -1.0) == found.y_test
    races = test_groups()
    return {race: int(np.sum(right[races == race])) for race in groups_by_size()}


class Drops(NamedTuple):
    plain: dict[str, float]  # the non-private model's accuracy in each group
    runs: dict[tuple[float, str], tuple[float, ...]]  # (ε, group): each run's drop, points


@datasets.cached(max_entries=1, census_only=True)
def drops() -> Drops:
    """Every group's accuracy drop, in percentage points, for RUNS objective-perturbation
    models at each ε, from the counts make_tables.py wrote (tables.py)."""
    sizes = test_sizes()
    plain = {race: tables.PLAIN[race] / sizes[race] for race in sizes}
    runs = {
        (epsilon, race): tuple(100 * (tables.PLAIN[race] - right) / sizes[race] for right in rights)
        for (epsilon, race), rights in tables.RIGHT.items()
    }
    return Drops(plain, runs)


class Drop(NamedTuple):
    mean: float
    se: float


@datasets.cached(max_entries=len(MODEL_EPSILONS) * 8, census_only=True)
def drop(epsilon: float, race: str) -> Drop:
    values = np.asarray(drops().runs[(epsilon, race)])
    return Drop(float(values.mean()), float(values.std(ddof=1) / math.sqrt(values.size)))


@datasets.cached(max_entries=1, census_only=True)
def drop_curves() -> pd.DataFrame:
    """Each group's mean drop against ε with a 95% error bar (epsilon, drop, low, high,
    group)."""
    rows = []
    for race in groups_by_size():
        for epsilon in MODEL_EPSILONS:
            found = drop(epsilon, race)
            half = 1.959964 * found.se
            rows.append((epsilon, found.mean, found.mean - half, found.mean + half, race))
    return pd.DataFrame(rows, columns=["epsilon", "drop", "low", "high", "group"])


@datasets.cached(max_entries=len(MODEL_EPSILONS))
def model_rule(epsilon: float) -> pd.DataFrame:
    return pd.DataFrame({"x": [epsilon], "label": [f"ε = {text.number(epsilon)}"]})


def points(d: Drop) -> str:
    """A drop or gap in points with its 95% half-width: the reader sees whether it is noise.
    No-break spaces keep the number and its half-width on one line of a phone."""
    return f"{text.number(d.mean, 2)}\u00a0±\u00a0{text.number(1.959964 * d.se, 2)}"


def _differ(a: Drop, b: Drop) -> bool:
    return abs(a.mean - b.mean) > 1.959964 * math.hypot(a.se, b.se)


@datasets.cached(max_entries=len(MODEL_EPSILONS), census_only=True)
def most_lost(epsilon: float) -> str:
    """The group whose accuracy drops most at ε, or NONE_CLEARLY when the runner-up is
    within the error bars of the difference."""
    ranked = sorted(groups_by_size(), key=lambda race: drop(epsilon, race).mean, reverse=True)
    first, second = drop(epsilon, ranked[0]), drop(epsilon, ranked[1])
    return ranked[0] if _differ(first, second) else NONE_CLEARLY


def gap(epsilon: float) -> Drop:
    """The smallest group's drop minus the largest group's (points), with its SE."""
    groups = groups_by_size()
    small, large = drop(epsilon, groups[-1]), drop(epsilon, groups[0])
    return Drop(small.mean - large.mean, math.hypot(small.se, large.se))


@datasets.cached(max_entries=len(MODEL_EPSILONS), census_only=True)
def drops_alt(epsilon: float) -> str:
    return (
        f"Each race group's accuracy lost to privacy, in percentage points, against ε from "
        f"{text.number(MODEL_EPSILONS[0])} to {text.number(MODEL_EPSILONS[-1])} (log scale), "
        f"means of {RUNS} models with 95% error bars. At ε = {text.number(epsilon)}: "
        + ", ".join(
            f"{race} {text.number(drop(epsilon, race).mean, 2)}" for race in groups_by_size()
        )
        + "."
    )


@datasets.cached(max_entries=1, census_only=True)
def prediction_words() -> str:
    """The check-yourself's explanation at PREDICT_EPSILON, from the numbers."""
    found = {race: drop(PREDICT_EPSILON, race) for race in groups_by_size()}
    answer = most_lost(PREDICT_EPSILON)
    listed = ", ".join(f"{race} {points(d)}" for race, d in found.items())
    if answer == NONE_CLEARLY:
        return (
            f"Points lost at ε = {text.number(PREDICT_EPSILON)}: {listed}. The two largest "
            "losses are within each other's error bars: no group clearly loses more."
        )
    return f"Points lost at ε = {text.number(PREDICT_EPSILON)}: {listed}. {answer} loses most."


def test_size_half_width(race: str) -> float:
    """95% half-width, in points, of a group's test accuracy from its rows alone (the
    binomial's normal approximation at the non-private accuracy)."""
    p = drops().plain[race]
    n = test_sizes()[race]
    return 100 * 1.959964 * math.sqrt(p * (1 - p) / n)


@datasets.cached(max_entries=len(MODEL_EPSILONS), census_only=True)
def models_words(epsilon: float) -> str:
    """Whether the smallest group pays more here, and whether that grows as ε shrinks, from
    the numbers."""
    groups = groups_by_size()
    small, large = groups[-1], groups[0]
    here, low, high = gap(epsilon), gap(MODEL_EPSILONS[0]), gap(MODEL_EPSILONS[-1])
    n_small = test_sizes()[small]
    words = (
        f"At ε = {text.number(epsilon)} the smallest group ({small}, {n_small} test rows) "
        f"loses {points(drop(epsilon, small))} points and the largest ({large}) "
        f"{points(drop(epsilon, large))}: "
    )
    if _differ(Drop(here.mean, here.se), Drop(0.0, 0.0)):
        words += (
            f"the smallest group loses {'more' if here.mean > 0 else 'less'}, beyond the "
            "error bars. "
        )
    else:
        words += "the difference is within the error bars. "
    grows = low.mean - high.mean > 1.959964 * math.hypot(low.se, high.se)
    words += (
        "Measured here, the gap between them "
        + ("grows" if grows else "does not clearly grow")
        + f" as ε shrinks ({points(high)} points at ε = {text.number(MODEL_EPSILONS[-1])}, "
        f"{points(low)} at ε = {text.number(MODEL_EPSILONS[0])}, 95%). A group of {n_small} "
        "test rows measures its own accuracy only to about "
        f"±\u00a0{text.number(test_size_half_width(small), 2)} points, privacy or not."
    )
    return words


# --- 3. clipping -------------------------------------------------------------------------------
CLIPS: tuple[float, ...] = (0.05, 0.1, 0.2, 0.3, 0.5)
DEFAULT_CLIP = 0.1


@datasets.cached(max_entries=1, census_only=True)
def gradient_norms() -> pd.DataFrame:
    """Each training row's gradient length at the non-private model (race, norm): the
    logistic loss's slope σ(−y·wᵀx) times ‖x‖."""
    frame = datasets.census()
    found = data()
    w = dp.logistic_erm(found.x_train, found.y_train, LAMBDA)
    margins = found.y_train * (found.x_train @ w)
    norms = np.linalg.norm(found.x_train, axis=1) / (1.0 + np.exp(margins))
    held = np.random.default_rng(SPLIT_SEED).random(len(frame)) < TEST_SHARE
    race = frame["Race"].astype("string").to_numpy()[~held]
    return pd.DataFrame({"race": race, "norm": norms})


@datasets.cached(max_entries=len(CLIPS), census_only=True)
def clipped_shares(clip: float) -> pd.DataFrame:
    """Each group's share of gradients longer than C, which clipping shortens (group,
    share), largest group first."""
    found = gradient_norms()
    rows = [
        (race, float((found.loc[found["race"] == race, "norm"] > clip).mean()))
        for race in groups_by_size()
    ]
    return pd.DataFrame(rows, columns=["group", "share"])


def clipping_alt(clip: float) -> str:
    found = clipped_shares(clip)
    return (
        f"Bars: the share of each race group's gradients longer than C = {text.number(clip)}, "
        "which clipping shortens: "
        + ", ".join(f"{row.group} {text.percent(row.share, 3)}" for row in found.itertuples())
        + "."
    )


def clipping_words(clip: float) -> str:
    found = clipped_shares(clip)
    most, least = found.loc[found["share"].idxmax()], found.loc[found["share"].idxmin()]
    return (
        f"At C = {text.number(clip)} clipping shortens {text.percent(most['share'], 3)} of "
        f"the gradients of {most['group']} and {text.percent(least['share'], 3)} of "
        f"{least['group']}'s. A long gradient is a person the model gets wrong or is unsure "
        "of; a group with many of them has more of its signal cut, and what is left drowns "
        "in the same noise. On these rows the groups' shares are what the chart shows, not "
        "an ordering by size."
    )
