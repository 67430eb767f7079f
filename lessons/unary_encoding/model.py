"""Cached computations and chart templates for the unary encoding lesson.

The survey of everyone uses the aggregate sampler `dp.sample_ue_counts` (two binomials per
bit), never a 30,718 × 14 bit matrix, so a rerun stays fast. Charts are data-free Vega-Lite
templates built once (charts.py). Like the k-ary lesson, it runs on a census attribute or
on a column of the student's file (`ui.datasets.cached` keeps a file's results in its
session only).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import dp
from ui import categories, charts, controls, datasets, text
from ui.categories import Attribute
from ui.datasets import census

MODES = {"custom": "Custom p and q", "sue": "SUE (symmetric)", "oue": "OUE (optimized)"}
COMPARE_EPSILONS: tuple[float, ...] = tuple(e for e in controls.EPSILON_GRID if 0.1 <= e <= 5)
COMPARE_KS: tuple[int, ...] = tuple(int(k) for k in np.unique(np.round(np.geomspace(2, 1024, 90))))

# Offsets added to the page seed, one per distinct draw.
SEED_JOURNEY = 31
SEED_SURVEY = 37

STEP_ROWS = ("1 · your bits", "2 · P[report 1]", "3 · reported")


def occupations() -> Attribute:
    """The occupation histogram (14 categories; people with none recorded left out)."""
    return categories.attribute("occupation")


@datasets.cached()
def _census_example(key: str, label: str) -> tuple[int, str]:
    """The row number and name of the first person in the census with this value."""
    people = census()
    if key == "age_sex":
        band = np.where(people["Age"] >= 40, "≥40", "<40")
        values = pd.Series(band, index=people.index) + " " + people["Sex"].str.lower()
    else:
        values = people[{"race": "Race", "occupation": "Occupation", "education": "Education"}[key]]
    position = int(np.flatnonzero((values.astype(str) == label) & values.notna())[0])
    return position, str(people["Name"].iloc[position])


def example_row(attr: Attribute, frame: pd.DataFrame, label: str) -> tuple[int, str | None]:
    """The first row of the data holding `label` (0-based position) and, in the census, the
    person's name (a file has no names: None)."""
    if attr.from_census:
        return _census_example(attr.key, label)
    column = frame[attr.title]
    matches = np.flatnonzero(column.notna().to_numpy() & (column.astype(str) == label).to_numpy())
    return int(matches[0]), None


@datasets.cached()
def journey_frames(
    attr: Attribute, value: int, p: float, q: float, reported: np.ndarray
) -> dict[str, pd.DataFrame]:
    """Three rows of k cells: the one-hot bits, each bit's probability of being reported 1
    (p for the set bit, q for the others), and this roll's reported bits."""
    bits = dp.ue_encode([value], attr.k)[0]
    chance = np.where(bits, p, q)
    rows = []
    for i, label in enumerate(attr.labels):
        rows.append(
            {"bit": label, "step": STEP_ROWS[0], "shade": float(bits[i]), "text": str(int(bits[i]))}
        )
        rows.append(
            {
                "bit": label,
                "step": STEP_ROWS[1],
                "shade": float(chance[i]),
                "text": f"{text.number(chance[i])}".removeprefix("0"),
            }
        )
        rows.append(
            {
                "bit": label,
                "step": STEP_ROWS[2],
                "shade": float(reported[i]),
                "text": str(int(reported[i])),
            }
        )
    frame = pd.DataFrame(rows)
    # written in the cell to two decimals (".3775" overran its neighbours in a phone's
    # 14 cells of ~20 px); the tooltip keeps "text"
    frame["short"] = [
        f"{text.number(share, 2)}".removeprefix("0") if row == STEP_ROWS[1] else shown
        for share, row, shown in zip(frame["shade"], frame["step"], frame["text"], strict=True)
    ]
    return {"cells": frame, "cell_labels": frame}


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def ue_survey(attr: Attribute, p: float, q: float, seed: int) -> dict[str, np.ndarray]:
    """One survey of everyone: per-bit report counts, the unbiased estimates and the
    standard deviation of each (from `ue_variance` at the category's true share)."""
    bit_counts = dp.sample_ue_counts(attr.counts, p, q, rng=seed + SEED_SURVEY)
    estimates = dp.ue_estimate_from_counts(bit_counts, attr.n, p, q)
    sd = np.sqrt([dp.ue_variance(attr.n, p, q, frequency=c / attr.n) for c in attr.counts])
    return {"bit_counts": bit_counts, "estimates": estimates, "sd": sd}


@datasets.cached()
def estimate_frames(
    attr: Attribute, estimates: np.ndarray, sd: np.ndarray
) -> dict[str, pd.DataFrame]:
    """Rows for `estimate_spec`: estimate with its ±2 SD interval, all pinned to the fixed
    axis (an end beyond it is marked: "beyond_low", "beyond_high"), and the true counts."""
    lo, hi = categories.count_domain(attr)
    low, high = estimates - 2 * sd, estimates + 2 * sd
    frame = pd.DataFrame(
        {
            "category": attr.labels,
            "estimate": estimates,
            "low": low,
            "high": high,
            "shown": np.clip(estimates, lo, hi),
            "shown_low": np.clip(low, lo, hi),
            "shown_high": np.clip(high, lo, hi),
            "beyond_low": low < lo,
            "beyond_high": high > hi,
        }
    )
    truth = pd.DataFrame({"category": attr.labels, "true count": attr.counts})
    return {"bars": frame, "truth": truth}


@datasets.cached()
def comparison_frame(n: int, epsilon: float) -> pd.DataFrame:
    """Variance of one count versus k for GRR and for OUE (at OUE's p, q) at ε."""
    p, q = dp.oue_probabilities(epsilon)
    oue = dp.ue_variance(n, p, q)
    rows = [
        {"k": k, "protocol": "GRR", "variance": dp.grr_variance(n, epsilon, k)} for k in COMPARE_KS
    ]
    rows += [{"k": k, "protocol": "OUE", "variance": oue} for k in COMPARE_KS]
    return pd.DataFrame(rows)


def comparison_domain(n: int) -> tuple[float, float]:
    """Fixed log y axis over every ε the comparison slider offers (powers of ten)."""
    high = dp.grr_variance(n, min(COMPARE_EPSILONS), COMPARE_KS[-1])
    low = dp.grr_variance(n, max(COMPARE_EPSILONS), COMPARE_KS[0])
    return 10 ** np.floor(np.log10(low)), 10 ** np.ceil(np.log10(high))


# The comparison chart (charts.comparison): k from 2 to 1,024 on a log axis, 340 px tall, its
# two rules' labels in rows of their own at the top (their tops this many px under it)
COMPARE_K_DOMAIN = (2.0, 1024.0)
COMPARE_HEIGHT = 340
COMPARE_LABEL_TOPS = (2, 24)  # the crossover's, the attribute's: a projector's line apart


@datasets.cached()
def comparison_marks(attr: Attribute, epsilon: float, text_scale: float = 1.0) -> pd.DataFrame:
    """The crossover rule (k* = 3e^ε + 2, from dp) and the attribute's rule, each labelled
    on the side of its rule ("left" or not) where neither curve nor the other rule crosses
    it and it stays in the plot, for text `text_scale` times the page's, in full or else in
    short (ui.charts.rule_label_choice; "said" is what the label leaves to the subtitle,
    `comparison_subtitle`); "shown" False where neither fits. Found on a phone: "k* = 10.15"
    written rightwards over occupation's k = 14; "k* = 5.316" (ε = 0.1) over it too, with
    no room on its left."""
    crossover = dp.grr_oue_crossover_k(epsilon)
    k = attr.k
    ks = [crossover, k]
    value = f"k* = {text.number(crossover)}"
    words = [(value, "k*"), (f"{attr.title}: k = {k}", f"k = {k}")]
    curves = comparison_frame(attr.n, epsilon)
    lines = tuple(
        (part["k"].to_numpy(), part["variance"].to_numpy())
        for _, part in curves.groupby("protocol", sort=False)
    )
    chosen = [
        charts.rule_label_choice(
            here,
            labels,
            top=top,
            x_domain=COMPARE_K_DOMAIN,
            y_domain=comparison_domain(attr.n),
            x_log=True,
            y_log=True,
            lines=lines,
            rules=(other,),
            height=COMPARE_HEIGHT,
            text_scale=text_scale,
        )
        for here, other, labels, top in zip(ks, ks[::-1], words, COMPARE_LABEL_TOPS, strict=True)
    ]
    return pd.DataFrame(
        {
            "k": ks,
            "label": [label for label, _ in chosen],
            "colour": [charts.BLACK, charts.GREY],
            "row": [0, 1],
            "left": [side == charts.LEFT for _, side in chosen],
            "shown": [bool(side) for _, side in chosen],
            "said": [
                "" if side and label == full else said
                for (label, side), (full, _), said in zip(
                    chosen, words, (value, f"{attr.title}, k = {k}"), strict=True
                )
            ],
        }
    )


def comparison_subtitle(marks: pd.DataFrame, n: int) -> list[str]:
    """The comparison chart's subtitle: what its lines and rules are, with the words a
    rule's label had no room for beside it."""
    crossover, attribute = marks.itertuples()
    return [
        f"n = {n:,} · GRR: solid blue · OUE: dashed orange",
        "black dashed rule: crossover "
        + (crossover.said or "k*")
        + (f" · grey: {attribute.said}" if attribute.said else ""),
    ]


def estimates_table(attr: Attribute, survey: dict[str, np.ndarray]) -> pd.DataFrame:
    """The data behind the estimate chart, one row per category (the CSV download; the
    "ue_estimates" snippet rebuilds all but the SD)."""
    return pd.DataFrame(
        {
            "value": attr.labels,
            "true": attr.counts,
            "bits_set": survey["bit_counts"],
            "estimate": survey["estimates"],
            "sd": survey["sd"],
        }
    )


def comparison_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The comparison curves as one row per k (k, GRR, OUE): the CSV download."""
    wide = frame.pivot(index="k", columns="protocol", values="variance").reset_index()
    wide.columns.name = None
    return wide


def values_above_share(attr: Attribute, share: float) -> int:
    """How many of the attribute's values have a true share above `share`."""
    return int(np.count_nonzero(attr.counts / attr.n > share))
