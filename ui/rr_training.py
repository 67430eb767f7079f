"""Income classifiers trained on census data that left each person's device through a local
mechanism: age band × sex (12 categories) and any further categorical columns a reader picks,
each by k-ary randomized response (dp.grr_perturb) or optimized unary encoding (dp.ue_perturb
with dp.oue_probabilities), the person's ε split evenly over them (sequential composition).
Education and hours worked go as they are, as does the label (income above $50K).
scikit-learn's LogisticRegression is trained on the privatized rows and scored on held-out
rows with their true values; accuracy_curve averages it over ε. Privatized data for ML
shows it; Private training with DP-SGD compares its own models with that curve. The DP math
is dp/'s; this module draws, fits and scores."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

import dp
from data.census import AGE_BAND_EDGES as AGE_EDGES
from data.census import AGE_BANDS
from ui import datasets
from ui.datasets import census

if TYPE_CHECKING:
    from sklearn.linear_model import LogisticRegression

AGE_SEX = "Age band × sex"
SEXES: tuple[str, ...] = ("Female", "Male")
AGE_SEX_CATEGORIES: tuple[str, ...] = tuple(f"{band} {sex}" for band in AGE_BANDS for sex in SEXES)
# Further columns a reader may privatize (census column -> its label on the page).
EXTRA_COLUMNS: dict[str, str] = {
    "MaritalStatus": "Marital status",
    "Relationship": "Relationship",
    "Race": "Race",
    "Occupation": "Occupation",
    "Workclass": "Workclass",
}
MISSING = "(missing)"
CLEAR_COLUMNS: tuple[str, ...] = ("EducationNum", "HoursPerWeek")  # sent as they are
LABEL = "Income"
POSITIVE = ">50K"

GRR = "k-ary randomized response"
OUE = "Unary encoding (OUE)"
MECHANISMS: tuple[str, ...] = (GRR, OUE)

TEST_SHARE = 0.25  # held-out rows, scored with their true values
EPSILON_CURVE: tuple[float, ...] = (0.01, 0.03, 0.1, 0.3, 1.0, 2.0, 4.0, 10.0)
REPEATS = 3  # privatizations averaged per ε on the curve
MAX_ITER = 1_000
SOLVER = "newton-cholesky"

# Offsets added to the page seed, one per distinct draw.
SEED_SPLIT = 61
SEED_PRIVATIZE = 62
SEED_CURVE = 63  # the curve's repeat r draws at seed + SEED_CURVE + 10 * r


# --- The data ------------------------------------------------------------------------------


def age_sex_codes(ages: np.ndarray, sexes: np.ndarray) -> np.ndarray:
    """Code 2·band + sex (0 Female, 1 Male) for bands 17–24, 25–34, …, 65+: 12 categories."""
    band = np.searchsorted(AGE_EDGES, ages, side="right") - 1
    return 2 * band + (sexes == "Male").astype(np.int64)


@datasets.cached(census_only=True, max_entries=8)
def columns_data(columns: tuple[str, ...]) -> dict:
    """The census as this lesson uses it: for each privatized column (age band × sex first,
    then `columns`) its codes and category names; the clear features; the label; sex."""
    people = census()
    names = [AGE_SEX, *(EXTRA_COLUMNS[column] for column in columns)]
    codes = [age_sex_codes(people["Age"].to_numpy(), people["Sex"].astype(str).to_numpy())]
    categories = [AGE_SEX_CATEGORIES]
    for column in columns:
        values = people[column].astype(str).where(people[column].notna(), MISSING)
        labels = tuple(sorted(values.unique()))
        codes.append(pd.Categorical(values, categories=labels).codes.astype(np.int64))
        categories.append(labels)
    return {
        "names": tuple(names),
        "codes": tuple(codes),
        "categories": tuple(categories),
        "clear": people[list(CLEAR_COLUMNS)].to_numpy(dtype=np.float64),
        "label": (people[LABEL] == POSITIVE).to_numpy(),
        "female": (people["Sex"] == "Female").to_numpy(),
    }


def split(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Training and test rows: a random TEST_SHARE of the people is held out."""
    order = np.random.default_rng(seed + SEED_SPLIT).permutation(n)
    cut = round(n * TEST_SHARE)
    return np.sort(order[cut:]), np.sort(order[:cut])


def column_epsilon(epsilon: float, columns: tuple[str, ...]) -> float:
    """Each privatized column's share of the person's ε: ε / c (sequential composition)."""
    return dp.split_budget(epsilon, 1 + len(columns))


def keep_gap(mechanism: str, epsilon: float, k: int) -> float:
    """p − q of the mechanism at a column's ε: how much of a true category survives in the
    expected report (dp.grr_probabilities, dp.oue_probabilities)."""
    p, q = dp.grr_probabilities(epsilon, k) if mechanism == GRR else dp.oue_probabilities(epsilon)
    return p - q


def one_hot(codes: np.ndarray, k: int) -> np.ndarray:
    """(n, k) float matrix with a 1 in each row's category."""
    matrix = np.zeros((len(codes), k))
    matrix[np.arange(len(codes)), codes] = 1.0
    return matrix


def draw_reports(columns: tuple[str, ...], mechanism: str, epsilon: float, seed: int) -> tuple:
    """What every person sends for each privatized column, drawn with `seed` (one generator,
    columns in order), in compact form: the k-ary RR report's code (n,), or the OUE bits
    (n, k) as 0/1 bytes (at most 1.8 MB for all six columns)."""
    data = columns_data(columns)
    rng = np.random.default_rng(seed)
    share = column_epsilon(epsilon, columns)
    sent = []
    for codes, names in zip(data["codes"], data["categories"], strict=True):
        k = len(names)
        if mechanism == GRR:
            sent.append(dp.grr_perturb(codes, k, share, rng=rng).astype(np.int16))
        else:
            p, q = dp.oue_probabilities(share)
            sent.append(dp.ue_perturb(dp.ue_encode(codes, k), p, q, rng=rng).astype(np.uint8))
    return tuple(sent)


@datasets.cached(census_only=True, max_entries=4)
def reports(columns: tuple[str, ...], mechanism: str, epsilon: float, seed: int) -> tuple:
    """`draw_reports`, cached for the page's own draw: its model, its counts and its
    download share one draw. (The curve's many draws use `draw_reports` uncached.)"""
    return draw_reports(columns, mechanism, epsilon, seed)


def features(sent: tuple, mechanism: str, categories: tuple) -> list[np.ndarray]:
    """Reports as model features, one (n, k) float block per column: the one-hot of the
    k-ary RR report, or the OUE bits themselves."""
    return [
        one_hot(block, len(names)) if mechanism == GRR else block.astype(np.float64)
        for block, names in zip(sent, categories, strict=True)
    ]


def privatized(columns: tuple[str, ...], mechanism: str, epsilon: float, seed: int) -> list:
    """The page's draw (`reports`) as model features."""
    sent = reports(columns, mechanism, epsilon, seed)
    return features(sent, mechanism, columns_data(columns)["categories"])


def true_design(columns: tuple[str, ...], seed: int) -> tuple:
    """Training rows, test rows, the standardised clear features and the true table's
    features (clear + one-hot of every privatized column), for the split drawn by `seed`."""
    data = columns_data(columns)
    train, test = split(len(data["label"]), seed)
    clear = standardised(data["clear"], train)
    blocks = (one_hot(c, len(n)) for c, n in zip(data["codes"], data["categories"], strict=True))
    return train, test, clear, np.hstack([clear, *blocks])


# --- The models ----------------------------------------------------------------------------


def fit(features: np.ndarray, labels: np.ndarray) -> LogisticRegression:
    """The income classifier: logistic regression (L2, C = 1). Newton–Cholesky suits many
    rows and few features: 4 times faster than lbfgs here, the same model to its tolerance.
    scikit-learn is imported here, on the first fit: only this lesson needs its 0.4 s and
    ~37 MB, so a server whose classes never open it does not pay them (lessons/preload.py)."""
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(solver=SOLVER, max_iter=MAX_ITER).fit(features, labels)


def standardised(clear: np.ndarray, train: np.ndarray) -> np.ndarray:
    """The clear features centred and scaled by the training rows' mean and sd."""
    mean, sd = clear[train].mean(axis=0), clear[train].std(axis=0)
    return (clear - mean) / sd


def score(model: LogisticRegression, features: np.ndarray, labels, female) -> dict:
    """Accuracy on the test rows: overall, women, men, and the gap women − men."""
    right = model.predict(features) == labels
    women, men = float(right[female].mean()), float(right[~female].mean())
    return {"accuracy": float(right.mean()), "women": women, "men": men, "gap": women - men}


def centred(coefficients: np.ndarray) -> np.ndarray:
    """A one-hot block's coefficients minus their mean: with an intercept only differences
    between categories mean anything."""
    return coefficients - coefficients.mean()


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def reference_models(columns: tuple[str, ...], seed: int) -> dict:
    """Models (a) on the true table and (c) without the privatized columns, scored on the
    test rows; (a)'s age band × sex coefficients (centred); the majority-class accuracy."""
    data = columns_data(columns)
    train, test, clear, truth = true_design(columns, seed)
    labels, female = data["label"], data["female"]
    true_model = fit(truth[train], labels[train])
    base_model = fit(clear[train], labels[train])
    k = len(AGE_SEX_CATEGORIES)
    return {
        "true": score(true_model, truth[test], labels[test], female[test]),
        "baseline": score(base_model, clear[test], labels[test], female[test]),
        "majority": float(max(labels[test].mean(), 1 - labels[test].mean())),
        "coefficients": centred(true_model.coef_[0][len(CLEAR_COLUMNS) : len(CLEAR_COLUMNS) + k]),
        "train": int(train.size),
        "test": int(test.size),
    }


def trained_on(columns: tuple[str, ...], mechanism: str, seed: int, sent: tuple) -> dict:
    """Model (b), trained on the reports `sent`, scored on the true test rows split by
    `seed`: accuracy (overall, women, men, gap) and its age band × sex coefficients."""
    data = columns_data(columns)
    train, test, clear, truth = true_design(columns, seed)
    design = np.hstack([clear, *features(sent, mechanism, data["categories"])])
    labels, female = data["label"], data["female"]
    model = fit(design[train], labels[train])
    k = len(AGE_SEX_CATEGORIES)
    return {
        **score(model, truth[test], labels[test], female[test]),
        "coefficients": centred(model.coef_[0][len(CLEAR_COLUMNS) : len(CLEAR_COLUMNS) + k]),
    }


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def privatized_model(
    columns: tuple[str, ...], mechanism: str, epsilon: float, seed: int, draw: int
) -> dict:
    """Model (b) trained on the page's draw `draw` of the privatized table (`trained_on`)."""
    return trained_on(columns, mechanism, seed, reports(columns, mechanism, epsilon, draw))


def curve_draws(seed: int) -> tuple[int, ...]:
    """The privatization seeds averaged at each ε of the curve."""
    return tuple(seed + SEED_CURVE + 10 * r for r in range(REPEATS))


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def accuracy_curve(columns: tuple[str, ...], mechanism: str, seed: int) -> pd.DataFrame:
    """Model (b) at every ε of EPSILON_CURVE, REPEATS privatizations each: the mean test
    accuracy and gap women − men, each ± 1 standard error ("epsilon", "accuracy", "low",
    "high", "gap", "gap_low", "gap_high")."""
    rows = []
    for epsilon in EPSILON_CURVE:
        runs = [
            trained_on(columns, mechanism, seed, draw_reports(columns, mechanism, epsilon, d))
            for d in curve_draws(seed)
        ]
        accuracy = np.array([run["accuracy"] for run in runs])
        gap = np.array([run["gap"] for run in runs])
        se, gap_se = accuracy.std(ddof=1) / math.sqrt(REPEATS), gap.std(ddof=1) / math.sqrt(REPEATS)
        row = {
            "epsilon": epsilon,
            "accuracy": accuracy.mean(),
            "low": accuracy.mean() - se,
            "high": accuracy.mean() + se,
            "gap": gap.mean(),
            "gap_low": gap.mean() - gap_se,
            "gap_high": gap.mean() + gap_se,
        }
        rows.append(row)
    return pd.DataFrame(rows)
