"""Cached computations of the lesson "Beyond global sensitivity": numbers and DataFrames.

The median age of census people, clamped to [0, 100], under replace-one neighbours (n
fixed), as in Nissim, Raskhodnikova & Smith 2007. Every number comes from dp/
(dp/local_sensitivity.py, dp/choosing.py, dp/laplace.py); the lesson always uses the bundled
census. "Typical error" is the root-mean-square error, as everywhere in the app."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

import dp
from ui import datasets, text

LOW, HIGH = 0.0, 100.0  # ages clamped to [0, 100]: the median's global sensitivity is 100
GLOBAL = HIGH - LOW
SIZES: tuple[int, ...] = (11, 101, 1_001, 0)  # 0: everyone
DEFAULT_SIZE = 101
SAMPLE_SEED = 29  # which census people form each group: fixed
EPSILONS: tuple[float, ...] = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
DEFAULT_EPSILON = 1.0
DELTA = 1e-6
WINDOW = 8  # sorted ages drawn on each side of the median
MAX_K_DRAWN = 60  # k on the smooth-sensitivity chart

SEED_PTR = 10  # offsets added to controls.seed(): one per distinct random draw
SEED_SPLIT = 20


def years(value: float) -> str:
    """ "1 year", "2.5 years": a number of years through the one formatter."""
    return f"{text.number(value)} {'year' if value == 1 else 'years'}"


def people(size: int) -> str:
    return "everyone (32,561)" if size == 0 else f"{text.number(size)} people"


@datasets.cached(census_only=True, max_entries=len(SIZES))
def ages(size: int) -> np.ndarray:
    """The sorted ages of a fixed random group of `size` census people (0: everyone)."""
    everyone = datasets.census()["Age"].to_numpy(dtype=float)
    if size == 0 or size >= everyone.size:
        return np.sort(everyone)
    rng = np.random.default_rng(SAMPLE_SEED)
    return np.sort(rng.choice(everyone, size=size, replace=False))


# --- 1. global versus local ----------------------------------------------------------------------


@dataclass(frozen=True)
class Sensitivities:
    n: int
    median: float
    local: float
    global_: float


@datasets.cached(census_only=True, max_entries=len(SIZES))
def sensitivities(size: int) -> Sensitivities:
    x = ages(size)
    return Sensitivities(
        x.size,
        dp.clamped_median(x, LOW, HIGH),
        dp.median_local_sensitivity(x, LOW, HIGH),
        GLOBAL,
    )


@datasets.cached(census_only=True, max_entries=len(SIZES))
def around_median(size: int) -> pd.DataFrame:
    """The sorted ages at ranks m − WINDOW … m + WINDOW, x_m flagged."""
    x = ages(size)
    m = (x.size + 1) // 2
    ranks = np.arange(max(1, m - WINDOW), min(x.size, m + WINDOW) + 1)
    return pd.DataFrame(
        {
            "offset": ranks - m,
            "age": x[ranks - 1],
            "which": np.where(ranks == m, "the median xₘ", "other people"),
        }
    )


@datasets.cached(census_only=True, max_entries=len(SIZES))
def median_rule(size: int) -> pd.DataFrame:
    s = sensitivities(size)
    return pd.DataFrame({"y": [s.median], "label": [f"median {text.number(s.median)}"]})


# --- 2. why local sensitivity alone leaks --------------------------------------------------------
PAIR_X = (20.0, 30.0, 30.0, 30.0, 80.0, 80.0, 90.0)
PAIR_Y = (20.0, 30.0, 30.0, 30.0, 30.0, 80.0, 90.0)  # one 80 replaced by 30
LEAK_EPSILON = 1.0
LEAK_RUNS = 50_000


@dataclass(frozen=True)
class Leak:
    local_x: float
    local_y: float
    median: float
    measured: float  # the audit's lower bound on ε
    exact_on_x: float  # share of x's releases that equal the median exactly


@datasets.cached(census_only=True, max_entries=1)
def leak() -> Leak:
    """median + Lap(LS/ε) on the pair, LEAK_RUNS times each; the event "the release is
    exactly the median" audited with dp.audit_epsilon."""
    rng = np.random.default_rng(SAMPLE_SEED)
    outputs = []
    for values in (PAIR_X, PAIR_Y):
        ls = dp.median_local_sensitivity(values, LOW, HIGH)
        median = dp.clamped_median(values, LOW, HIGH)
        noise = rng.laplace(0.0, ls / LEAK_EPSILON, LEAK_RUNS) if ls > 0 else np.zeros(LEAK_RUNS)
        outputs.append(median + noise)
    median = dp.clamped_median(PAIR_X, LOW, HIGH)
    exact = [(o == median).astype(np.int64) for o in outputs]
    return Leak(
        dp.median_local_sensitivity(PAIR_X, LOW, HIGH),
        dp.median_local_sensitivity(PAIR_Y, LOW, HIGH),
        median,
        dp.audit_epsilon(*exact),
        float(exact[0].mean()),
    )


@datasets.cached(census_only=True, max_entries=1)
def leak_densities() -> pd.DataFrame:
    """x's release density (Laplace around the median, scale LS(x)/ε) over ages 0..100."""
    result = leak()
    grid = np.linspace(LOW, HIGH, 201)
    b = result.local_x / LEAK_EPSILON
    return pd.DataFrame(
        {"age": grid, "density": np.exp(-np.abs(grid - result.median) / b) / (2 * b)}
    )


@datasets.cached(census_only=True, max_entries=1)
def leak_spike() -> pd.DataFrame:
    result = leak()
    return pd.DataFrame(
        {"x": [result.median], "label": [f"y: always exactly {text.number(result.median)}"]}
    )


# --- 3. smooth sensitivity -----------------------------------------------------------------------


@dataclass(frozen=True)
class Smooth:
    beta: float
    smooth: float
    scale: float  # 2S/ε
    argmax: int
    curves: pd.DataFrame  # k, curve, value


@datasets.cached(census_only=True, max_entries=len(SIZES) * len(EPSILONS))
def smooth(size: int, epsilon: float) -> Smooth:
    x = ages(size)
    beta = dp.smooth_beta(epsilon, DELTA)
    a = dp.median_sensitivity_curve(x, LOW, HIGH, MAX_K_DRAWN)
    weighted = np.exp(-beta * np.arange(a.size)) * a
    s = dp.median_smooth_sensitivity(x, LOW, HIGH, beta)
    k = np.arange(a.size)
    curves = pd.concat(
        [
            pd.DataFrame({"k": k, "curve": "A⁽ᵏ⁾(x): local sensitivity k steps away", "value": a}),
            pd.DataFrame({"k": k, "curve": CURVES[1], "value": weighted}),
        ],
        ignore_index=True,
    )
    return Smooth(beta, s, 2 * s / epsilon, int(np.argmax(weighted)), curves)


CURVES = ("A⁽ᵏ⁾(x): local sensitivity k steps away", "exp(−kβ)·A⁽ᵏ⁾(x)")  # chart text
METHODS = ("Laplace, global sensitivity", "exponential mechanism", "smooth sensitivity")


def _em_rmse(x: np.ndarray, epsilon: float) -> float:
    """Root-mean-square error of the exponential-mechanism median (Choosing privately) on
    the candidates 0, 1, …, 100; its utility moves by at most 1 under replace-one."""
    grid = np.arange(LOW, HIGH + 1.0)
    scores = dp.quantile_scores(x, grid, 0.5)
    p = dp.exponential_mechanism_probabilities(scores, 1.0, epsilon)
    truth = dp.clamped_median(x, LOW, HIGH)
    return float(math.sqrt(np.sum(p * (grid - truth) ** 2)))


@datasets.cached(census_only=True, max_entries=len(EPSILONS))
def errors(epsilon: float) -> pd.DataFrame:
    """Typical error (RMSE) of each private median at every group size, at ε (and δ)."""
    rows = []
    for size in SIZES:
        x = ages(size)
        rows += [
            (x.size, METHODS[0], dp.laplace_std(GLOBAL, epsilon)),
            (x.size, METHODS[1], _em_rmse(x, epsilon)),
            (x.size, METHODS[2], math.sqrt(2) * smooth(size, epsilon).scale),
        ]
    return pd.DataFrame(rows, columns=["n", "method", "error"])


@datasets.derived
def errors_at(frame: pd.DataFrame, n: int) -> dict[str, float]:
    """Each method's typical error at group size n (a row of `errors`)."""
    at = frame[frame["n"] == n]
    return dict(zip(at["method"], map(float, at["error"]), strict=True))


@datasets.derived
def winner(frame: pd.DataFrame, n: int) -> tuple[str, float]:
    at = frame[frame["n"] == n]
    best = at.loc[at["error"].idxmin()]
    return str(best["method"]), float(best["error"])


def smooth_against_global(size: int, epsilon: float) -> str:
    """Why the smooth median is noisier or less noisy than the global bound here, from S: its
    noise scale is 2S/ε against the global bound's GLOBAL/ε, so it loses exactly when S is
    over half the range (at n = 101 that happens at ε = 0.1, not at 0.2: it is not the
    group's size alone)."""
    found = smooth(size, epsilon)
    said = (
        f"its smooth sensitivity S = {text.number(found.smooth)} years (β = "
        f"{text.number(found.beta)})"
    )
    if 2 * found.smooth > GLOBAL:
        return (
            f"Here the smooth median is noisier than even the global bound: {said} is over "
            f"half the range, {text.number(GLOBAL / 2)}, because with β this small datasets "
            f"many replacements away still count; its noise scale 2S/ε is then above the "
            f"global bound's {text.number(GLOBAL)}/ε."
        )
    return (
        f"Here the smooth median beats the global bound: {said} is under half the range, "
        f"{text.number(GLOBAL / 2)}, so its noise scale 2S/ε is below the global bound's "
        f"{text.number(GLOBAL)}/ε."
    )


def n_label(n: int) -> str:
    return f"n = {text.number(n)}"


@datasets.cached(census_only=True)
def n_rule(n: int, bottom: bool = False) -> pd.DataFrame:
    """The group's size as the chart's rule, its label at the plot's bottom with `bottom`
    (charts.n_label_at_bottom)."""
    return pd.DataFrame({"x": [float(n)], "label": [n_label(n)], "bottom": [bottom]})


# --- 4. propose-test-release ---------------------------------------------------------------------
BOUNDS: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0)
DEFAULT_BOUND = 2.0


@dataclass(frozen=True)
class Ptr:
    distance: float
    threshold: float  # ln(1/δ)/ε
    refusal: float
    release: float | None
    curve: pd.DataFrame  # bound, refusal


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def ptr(size: int, bound: float, epsilon: float, seed: int) -> Ptr:
    x = ages(size)
    rows = [
        (
            b,
            dp.ptr_refusal_probability(
                dp.median_distance_to_instability(x, LOW, HIGH, b), epsilon, DELTA
            ),
        )
        for b in BOUNDS
    ]
    d = dp.median_distance_to_instability(x, LOW, HIGH, bound)
    release = dp.propose_test_release(
        dp.clamped_median(x, LOW, HIGH), d, bound, epsilon, DELTA, rng=seed
    )
    return Ptr(
        d,
        math.log(1 / DELTA) / epsilon,
        dp.ptr_refusal_probability(d, epsilon, DELTA),
        release,
        pd.DataFrame(rows, columns=["bound", "refusal"]),
    )


@datasets.cached(census_only=True)
def bound_label(bound: float) -> str:
    return f"b = {text.number(bound)}"


@datasets.cached(census_only=True)
def bound_rule(bound: float, bottom: bool = False) -> pd.DataFrame:
    """The proposed bound as the chart's rule, its label at the plot's bottom with `bottom`
    (charts.bound_label_at_bottom)."""
    return pd.DataFrame({"x": [bound], "label": [bound_label(bound)], "bottom": [bottom]})


# --- 5. sample-and-aggregate ---------------------------------------------------------------------
BLOCKS: tuple[int, ...] = (5, 10, 20, 50, 100, 200, 500, 1_000)
DEFAULT_BLOCKS = 100
SLOPE_LOW, SLOPE_HIGH = -1.0, 1.0  # clamp each block's slope (hours a week per year of age)
SPLITS = 20  # random partitions averaged for the blocks' own error


def _slope(block: np.ndarray) -> float:
    """Least-squares slope of hours on age in one block (nan when every age is equal)."""
    age, hours = block[:, 0], block[:, 1]
    spread = np.sum((age - age.mean()) ** 2)
    return (
        float(np.sum((age - age.mean()) * (hours - hours.mean())) / spread) if spread else math.nan
    )


@datasets.cached(census_only=True, max_entries=1)
def hours_on_age() -> tuple[np.ndarray, float]:
    frame = datasets.census()
    data = frame[["Age", "HoursPerWeek"]].to_numpy(dtype=float)
    return data, _slope(data)


@datasets.cached(census_only=True, max_entries=1)
def block_error() -> dict[int, float]:
    """For each k: the root-mean-square gap between the mean of the k clamped block slopes
    and the slope on everyone, over SPLITS random partitions (the part of the error that
    no ε removes: each block's estimate is worse than everyone's)."""
    data, truth = hours_on_age()
    out = {}
    for k in BLOCKS:
        gaps = []
        for split in range(SPLITS):
            _, blocks = dp.sample_and_aggregate(
                data, _slope, k, SLOPE_LOW, SLOPE_HIGH, 1.0, rng=SAMPLE_SEED + split
            )
            gaps.append(blocks.mean() - truth)
        out[k] = float(np.sqrt(np.mean(np.square(gaps))))
    return out


@datasets.cached(census_only=True, max_entries=len(EPSILONS))
def aggregate_errors(epsilon: float) -> pd.DataFrame:
    """Typical error of the release against k: √(block error² + noise variance), the noise
    Lap((U − L)/(kε)) having variance 2·((U − L)/(kε))²."""
    blocks = block_error()
    rows = []
    for k in BLOCKS:
        noise = dp.laplace_std((SLOPE_HIGH - SLOPE_LOW) / k, epsilon)
        rows += [
            (k, "noise", noise),
            (k, "the blocks' own error", blocks[k]),
            (k, "total", math.sqrt(noise**2 + blocks[k] ** 2)),
        ]
    return pd.DataFrame(rows, columns=["k", "part", "error"])


@datasets.cached(census_only=True, max_entries=len(EPSILONS) * len(BLOCKS))
def aggregate_at(epsilon: float, k: int) -> tuple[dict[str, float], int]:
    """At k blocks: each part's typical error ("noise", "the blocks' own error", "total"),
    and the k with the smallest total at this ε."""
    frame = aggregate_errors(epsilon)
    at_k = frame[frame["k"] == k]
    totals = frame[frame["part"] == "total"]
    best_k = int(totals.loc[totals["error"].idxmin(), "k"])
    return dict(zip(at_k["part"], map(float, at_k["error"]), strict=True)), best_k


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def one_release(k: int, epsilon: float, seed: int) -> float:
    data, _ = hours_on_age()
    release, _ = dp.sample_and_aggregate(data, _slope, k, SLOPE_LOW, SLOPE_HIGH, epsilon, rng=seed)
    return release


@datasets.cached(census_only=True)
def k_rule(k: int) -> pd.DataFrame:
    return pd.DataFrame({"x": [float(k)], "label": [f"k = {text.number(k)}"]})


@datasets.derived
def peak_frame(result: Smooth) -> pd.DataFrame:
    """The maximum of e^(−kβ)·A^(k) within the drawn k, marked on the chart."""
    weighted = result.curves[result.curves["curve"] == CURVES[1]]
    row = weighted.iloc[int(weighted["value"].to_numpy().argmax())]
    return pd.DataFrame({"k": [row["k"]], "value": [row["value"]]})
