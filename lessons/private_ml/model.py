"""Cached computations of the lesson "Privatized data for machine learning".

Every census person sends some columns through a local mechanism before they leave their
device: age band × sex (12 categories, as in seed 003), and any further categorical columns
the reader picks, each by k-ary randomized response (dp.grr_perturb) or optimized unary
encoding (dp.ue_perturb with dp.oue_probabilities). The person's ε is split evenly over the
privatized columns (sequential composition: ε/c each). Education and hours worked go as
they are, as does the label (income above $50K).

Three income classifiers (scikit-learn's LogisticRegression) are trained on the same
training rows and scored on the same held-out test rows with the *true* values:
(a) the true table, (b) the privatized table as it arrives, (c) the table without the
privatized columns (the baseline: what you know without them). The DP math is in dp/; this
module only draws, fits and scores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

import dp
from ui import datasets, text
from ui.datasets import census
from ui.rr_training import (
    AGE_SEX,
    AGE_SEX_CATEGORIES,
    CLEAR_COLUMNS,
    EPSILON_CURVE,
    EXTRA_COLUMNS,
    GRR,
    LABEL,
    REPEATS,
    column_epsilon,
    columns_data,
    reports,
)

if TYPE_CHECKING:
    pass


def shrinkage(privatized_coefficients: np.ndarray, true_coefficients: np.ndarray) -> float:
    """The least-squares slope of the privatized coefficients on the true ones (through 0):
    1 means the model learned the same differences, 0 that it learned none."""
    return float(
        privatized_coefficients @ true_coefficients / (true_coefficients @ true_coefficients)
    )


# --- What the analyst receives -------------------------------------------------------------


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def marginal(columns: tuple[str, ...], mechanism: str, epsilon: float, seed: int) -> pd.DataFrame:
    """Age band × sex counts: true, as reported, and debiased (dp.grr_estimate_from_counts or
    dp.ue_estimate_from_counts) with the estimate's standard error (dp.grr_variance or
    dp.ue_variance at the true share)."""
    data = columns_data(columns)
    k, n = len(AGE_SEX_CATEGORIES), len(data["label"])
    share = column_epsilon(epsilon, columns)
    truth = np.bincount(data["codes"][0], minlength=k)
    sent = reports(columns, mechanism, epsilon, seed)[0]
    reported = np.bincount(sent, minlength=k) if mechanism == GRR else sent.sum(axis=0)
    if mechanism == GRR:
        estimate = dp.grr_estimate_from_counts(reported.astype(np.int64), share)
        variances = [dp.grr_variance(n, share, k, frequency=c / n) for c in truth]
    else:
        p, q = dp.oue_probabilities(share)
        estimate = dp.ue_estimate_from_counts(reported.astype(np.int64), n, p, q)
        variances = [dp.ue_variance(n, p, q, frequency=c / n) for c in truth]
    return pd.DataFrame(
        {
            AGE_SEX: AGE_SEX_CATEGORIES,
            "true count": truth,
            "reported": reported.astype(np.int64),
            "debiased estimate": np.round(estimate).astype(np.int64),
            "± 1 SE": np.round(np.sqrt(variances)).astype(np.int64),
        }
    )


@datasets.cached(census_only=True, max_entries=4)
def privatized_table(columns: tuple[str, ...], mechanism: str, epsilon: float, seed: int):
    """The table the analyst receives: the clear columns, the label, and each privatized
    column as reported (k-ary RR: the reported category; OUE: one 0/1 column per category).
    No name, birth date, SSN or ZIP code."""
    data = columns_data(columns)
    people = census()
    table = {column: people[column].to_numpy() for column in CLEAR_COLUMNS}
    table[LABEL] = people[LABEL].astype(str).to_numpy()
    sent = reports(columns, mechanism, epsilon, seed)
    for name, labels, block in zip(data["names"], data["categories"], sent, strict=True):
        if mechanism == GRR:
            table[f"{name} (reported)"] = np.asarray(labels, dtype=object)[block]
        else:
            for j, label in enumerate(labels):
                table[f"{name} = {label} (bit)"] = block[:, j]
    return pd.DataFrame(table)


# --- Frames for the charts -----------------------------------------------------------------


@datasets.cached()
def levels_frame(**values: float) -> pd.DataFrame:
    """Horizontal reference lines ("value", "label")."""
    return pd.DataFrame({"value": list(values.values()), "label": list(values.keys())})


def accuracy_levels(reference: dict) -> pd.DataFrame:
    """The accuracy chart's reference lines: models (a) and (c), and the majority guess."""
    true, baseline = reference["true"]["accuracy"], reference["baseline"]["accuracy"]
    return levels_frame(
        **{
            f"(a) true table: {text.percent(true)}": true,
            f"(c) without them: {text.percent(baseline)}": baseline,
            f"always '<=50K': {text.percent(reference['majority'])}": reference["majority"],
        }
    )


def row_words(share: float, people: int) -> str:
    """What one row of the analyst's table says about its person at a column's ε′ (each
    privatized column is ε′-LDP: a report is at most e^ε′ times as likely from one true
    category as from another), read by text.evidence. "Mostly noise" holds only at a small
    ε′: at ε = 10 with one column, e^ε′ = 22,026. (How close the `people` rows' debiased
    counts come is the table's ± SE: at ε′ = 0.01, not close.)"""
    ratio = float(np.exp(share))
    bound = f"at most {text.number(ratio)} times as likely from one age band × sex as another"
    strength = text.evidence(ratio)
    if strength == "weak":
        said = f"row by row the reports are mostly noise ({bound})"
    elif strength == "hint":
        said = f"a row's report is a hint about its person, not proof ({bound})"
    else:
        said = (
            f"a row's report all but gives its person's age band and sex away ({bound}): "
            "little privacy is left"
        )
    return (
        f"At ε′ = {text.number(share)} {said}. Over {people:,} people the analyst debiases "
        "the counts; how close they come, each count's standard error below says."
    )


def points(gap: float) -> str:
    """An accuracy gap in percentage points, e.g. "12.8 points"."""
    return f"{text.number(100 * gap, 3)} points"


def gain_words(epsilon: float, here: dict, reference: dict, curve: pd.DataFrame) -> str:
    """What the privatized columns are worth on true data, (a) − (c), how much of it model (b)
    keeps at ε, and where (b) lies at the curve's smallest ε against (c): in this state,
    since (b) can end a little above or below (c) there (columns, mechanism, seed)."""
    true, baseline = reference["true"]["accuracy"], reference["baseline"]["accuracy"]
    gained = recovered(here["accuracy"], true, baseline)
    words = (
        f"On true data the privatized columns add **{text.number(100 * (true - baseline), 3)} "
        f"percentage points** of accuracy, (a) − (c). Trained on privatized data at ε = "
        f"{text.number(epsilon)}, the model "
        + (
            f"keeps **{text.percent(gained)}** of that gain, (b − c) / (a − c). "
            if gained >= 0
            else f"keeps none of that gain: (b) is {points(baseline - here['accuracy'])} "
            "below (c). "
        )
    )
    on_curve = curve[np.isclose(curve["epsilon"], epsilon)]
    if not on_curve.empty:  # section 6 quotes the curve's means: say which this one is
        mean = float(on_curve["accuracy"].iloc[0])
        words += f"That is this page's one privatization; the mean of {REPEATS} (the curve) " + (
            f"keeps {text.percent(recovered(mean, true, baseline))}. "
            if mean >= baseline
            else f"is {points(baseline - mean)} below (c). "
        )
    left = curve.iloc[0]
    off = float(left["accuracy"]) - baseline
    side = "above" if off > 0 else "below"
    return words + (
        f"At ε = {text.number(float(left['epsilon']))} the privatized columns are almost pure "
        f"noise and (b), {text.percent(float(left['accuracy']))} on average, is back at about "
        f"the baseline (c), {text.percent(baseline)}"
        + ("" if points(off) == points(0.0) else f" ({points(abs(off))} {side} it)")
        + ": the model learns to ignore them."
    )


def fairness_words(reference: dict, columns: tuple[str, ...]) -> str:
    """Whom the privatized columns help more on true data, (a) against (c), women or men, in
    this state (the columns privatized, the seed's split): computed, as it differs between
    states (with marital status and relationship privatized at seed 2 the women gain more)."""
    true, baseline = reference["true"], reference["baseline"]
    privatized = (
        "age and sex"
        if not columns
        else "the privatized columns ("
        + ", ".join([AGE_SEX.lower(), *(EXTRA_COLUMNS[c].lower() for c in columns)])
        + ")"
    )
    men, women = true["men"] - baseline["men"], true["women"] - baseline["women"]
    words = (
        f"Without the privatized columns the model is right for {text.percent(baseline['men'])} "
        f"of the men (true table: {text.percent(true['men'])}) and "
        f"{text.percent(baseline['women'])} of the women ({text.percent(true['women'])}): "
    )
    if points(men) == points(women):
        return words + f"{privatized} help both alike, {points(men)} each."
    more, less = ("men", "women") if men > women else ("women", "men")
    gains = {"men": men, "women": women}
    return words + (
        f"{privatized} help the {more} more ({points(gains[more])}, against "
        f"{points(gains[less])} for the {less})"
        + (", whose incomes vary more." if more == "men" else ".")
    )


def gap_levels(reference: dict) -> pd.DataFrame:
    """The fairness chart's reference lines, in percentage points: models (a) and (c)."""
    true, baseline = reference["true"]["gap"], reference["baseline"]["gap"]
    return levels_frame(
        **{
            f"(a) true table: {points(true)}": 100 * true,
            f"(c) without them: {points(baseline)}": 100 * baseline,
        }
    )


@datasets.cached()
def mark_frame(epsilon: float, value: float) -> pd.DataFrame:
    """Your ε's point (its words are the chart's title's)."""
    return pd.DataFrame({"epsilon": [epsilon], "value": [value]})


@datasets.cached()
def coefficients_frame(true: np.ndarray, private: np.ndarray) -> pd.DataFrame:
    """Both models' centred age band × sex coefficients, long ("category", "model", "value")."""
    return pd.DataFrame(
        {
            "category": list(AGE_SEX_CATEGORIES) * 2,
            "model": ["true table"] * len(true) + ["privatized table"] * len(private),
            "value": np.concatenate([true, private]),
        }
    )


def describe_accuracy(curve: pd.DataFrame, reference: dict, epsilon: float, here: dict) -> str:
    """Alt text of the accuracy curve, with the current numbers."""
    low, high = curve.iloc[0], curve.iloc[-1]
    return (
        f"Test accuracy of the model trained on the privatized table against ε from "
        f"{text.number(low['epsilon'])} to {text.number(high['epsilon'])} (log scale): "
        f"{text.percent(low['accuracy'])} at the left, {text.percent(high['accuracy'])} at the "
        f"right. Reference lines: true table {text.percent(reference['true']['accuracy'])}, "
        f"without the privatized columns {text.percent(reference['baseline']['accuracy'])}, "
        f"always '<=50K' {text.percent(reference['majority'])}. At your ε = "
        f"{text.number(epsilon)} this privatization gives {text.percent(here['accuracy'])}."
    )


def describe_gap(curve: pd.DataFrame, reference: dict, epsilon: float, here: dict) -> str:
    """Alt text of the fairness chart, with the current numbers."""
    return (
        f"Accuracy for women minus accuracy for men, in percentage points, against ε: "
        f"{text.number(100 * curve['gap'].iloc[0])} at ε = {text.number(EPSILON_CURVE[0])}, "
        f"{text.number(100 * curve['gap'].iloc[-1])} at ε = {text.number(EPSILON_CURVE[-1])}. "
        f"True table {text.number(100 * reference['true']['gap'])}, without the privatized "
        f"columns {text.number(100 * reference['baseline']['gap'])}. At your ε = "
        f"{text.number(epsilon)}: {text.number(100 * here['gap'])} points."
    )


def describe_coefficients(true: np.ndarray, private: np.ndarray, slope: float) -> str:
    """Alt text of the coefficient chart."""
    top = int(np.argmax(true))
    return (
        f"Centred coefficients of the 12 age band × sex categories. True table: from "
        f"{text.number(true.min(), 3)} to {text.number(true.max(), 3)} (highest: "
        f"{AGE_SEX_CATEGORIES[top]}). Privatized table: from {text.number(private.min(), 3)} "
        f"to {text.number(private.max(), 3)}, about {text.number(slope, 2)} times the true "
        "ones."
    )


@datasets.derived
def accuracy_frame(curve: pd.DataFrame) -> pd.DataFrame:
    """The accuracy curve as the chart reads it ("epsilon", "value", "low", "high")."""
    return curve[["epsilon", "accuracy", "low", "high"]].rename(columns={"accuracy": "value"})


@datasets.derived
def gap_frame(curve: pd.DataFrame) -> pd.DataFrame:
    """The fairness curve as the chart reads it, in percentage points ("epsilon", "value",
    "gap_low", "gap_high")."""
    points_frame = curve[["epsilon", "gap", "gap_low", "gap_high"]].rename(columns={"gap": "value"})
    points_frame[["value", "gap_low", "gap_high"]] *= 100
    return points_frame


def recovered(private: float, true: float, baseline: float) -> float:
    """The share of what the privatized columns add on true data that the privatized model
    keeps: (b − c) / (a − c)."""
    return (private - baseline) / (true - baseline)


def kept_along_curve(curve: pd.DataFrame, reference: dict) -> dict[float, float]:
    """`recovered` at each ε of the curve (its mean accuracy), floored at 0."""
    true, baseline = reference["true"]["accuracy"], reference["baseline"]["accuracy"]
    return {
        float(e): max(recovered(a, true, baseline), 0.0)
        for e, a in zip(curve["epsilon"], curve["accuracy"], strict=True)
    }
