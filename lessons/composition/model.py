"""Cached computations and chart builders for the composition lesson (lessons/composition.py).

Every number comes from dp/; the frames here are small (at most 1,000 rows) and every chart
has fixed axes, so moving a slider shows change, not rescaling."""

from __future__ import annotations

import numpy as np
import pandas as pd

import dp
from ui import datasets, text
from ui.datasets import census

MAX_QUERIES = 50
SEQUENTIAL_ERROR_DOMAIN = (0.1, 10_000.0)

AVERAGING_EPSILONS = (0.05, 0.1, 0.2, 0.5, 1.0)
AVERAGING_ANSWERS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
AVERAGING_HALF_RANGE = 80.0

HISTOGRAM_DOMAIN = (-1_000.0, 5_000.0)
MAX_GROUP = 10

# Offsets added to the page seed, one per distinct draw.
SEED_AVERAGING = 1
SEED_BARS = 2
SEED_SPLIT_BARS = 1  # added to the bars' seed for the ε/k histogram


# --- data ---------------------------------------------------------------------------------


@datasets.cached(census_only=True)
def high_earners() -> int:
    """How many people earn more than 50K (the query the averaging attack repeats)."""
    return int((census()["Income"] == ">50K").sum())


@datasets.cached(census_only=True)
def occupation_counts() -> pd.DataFrame:
    """True number of people per occupation (disjoint groups; missing values left out),
    largest first."""
    counts = census()["Occupation"].value_counts(dropna=True)
    counts = counts[counts > 0].sort_values(ascending=False)
    return pd.DataFrame({"occupation": counts.index.astype(str), "true": counts.to_numpy()})


@datasets.cached(census_only=True)
def people_without_occupation() -> int:
    """How many census people have no occupation recorded (they are in no bar)."""
    return int(census()["Occupation"].isna().sum())


# --- (a) sequential composition -----------------------------------------------------------


@datasets.cached(census_only=True)
def sequential_error_frame(total_epsilon: float) -> pd.DataFrame:
    """For m = 1 … 50 queries sharing total ε: ε per query and the typical error (sd)."""
    m = np.arange(1, MAX_QUERIES + 1)
    per_query = [dp.split_budget(total_epsilon, int(k)) for k in m]
    return pd.DataFrame(
        {"m": m, "epsilon": per_query, "sd": [dp.laplace_std(1, e) for e in per_query]}
    )


# --- (b) the averaging attack ---------------------------------------------------------------


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def averaging_frame(truth: int, epsilon: float, seed: int) -> pd.DataFrame:
    """1,000 noisy answers to the same count at ε each, the running average of the first k,
    and the band ± 2 sd of that average (the page shows the first m rows)."""
    answers = dp.laplace_mechanism(truth, 1, epsilon, size=AVERAGING_ANSWERS[-1], rng=seed)
    k = np.arange(1, answers.size + 1)
    average = dp.running_average(answers)
    sd = dp.averaged_laplace_std(1, epsilon, k)
    return pd.DataFrame(
        {"k": k, "answer": answers, "average": average, "lo": truth - 2 * sd, "hi": truth + 2 * sd}
    )


@datasets.derived
def first_answers(answers: pd.DataFrame, m: int) -> pd.DataFrame:
    """The first m rows of `averaging_frame` (what the chart draws), made once per frame."""
    return answers.head(m)


# The curator's total budget in section 2's ledger (fixed: section 1's slider lives in
# its own fragment, and a ledger that followed it would go stale when it moved).
LEDGER_BUDGET = 1.0


def ledger_words(epsilon: float, m: int, average_sd: float) -> str:
    """The ledger's paragraph after m answers at ε each; one answer is no "together" ("1
    answers … cost", "the average" of one)."""
    spent = dp.sequential_composition([epsilon] * m)
    cap = (
        "A curator must therefore cap the *total*: with a total budget ε = "
        f"{text.number(LEDGER_BUDGET)} it answers only "
        f"{dp.queries_within_budget(LEDGER_BUDGET, epsilon):,} of these questions, then refuses."
    )
    if m == 1:
        return (
            f"**The ledger.** One answer at ε = {text.number(epsilon)} costs ε = "
            f"{text.number(spent)} and misses the truth by about ±\u00a0{text.number(average_sd)}. "
            "Each repeat costs as much again, and their average closes in on the truth: move "
            f"the number of answers. {cap}"
        )
    return (
        f"**The ledger.** Each answer looks private. Together they are not: {m:,} answers at "
        f"ε = {text.number(epsilon)} cost ε = {text.number(spent)}, and the average pins the "
        f"truth down to about ±\u00a0{text.number(average_sd)}. {cap}"
    )


@datasets.cached(census_only=True)
def ledger(epsilon: float, m: int, budget: float) -> pd.DataFrame:
    """The privacy ledger after 1, 10, 100, 1,000 and m answers (up to m)."""
    steps = sorted({k for k in (1, 10, 100, 1000) if k <= m} | {m})
    rows = []
    for k in steps:
        spent = dp.sequential_composition([epsilon] * k)
        rows.append(
            {
                "answers": f"{k:,}",
                "ε spent": f"{text.number(spent)}",
                "error of the average": (
                    f"±\u00a0{text.number(dp.averaged_laplace_std(1, epsilon, k))}"
                ),
                "in budget?": "yes" if spent <= budget + 1e-9 else "no",
            }
        )
    return pd.DataFrame(rows)


# --- (c) parallel composition ---------------------------------------------------------------


@datasets.cached(census_only=True, max_entries=datasets.SEED_ENTRIES)
def histogram_frames(epsilon: float, seed: int) -> pd.DataFrame:
    """True occupation counts, one noisy histogram at ε per bar (parallel composition: total
    ε) and one at ε/k per bar (what a total ε buys if every bar were a separate query)."""
    frame = occupation_counts()
    true = frame["true"].to_numpy()
    split = dp.split_budget(epsilon, true.size)
    return frame.assign(
        parallel=dp.laplace_mechanism(true, 1, epsilon, rng=seed),
        split=dp.laplace_mechanism(true, 1, split, rng=seed + SEED_SPLIT_BARS),
    )


# --- (d) group privacy ----------------------------------------------------------------------


def group_frame(epsilon: float, prior: float) -> pd.DataFrame:
    """For groups of g = 1 … 10 people: g·ε and the attacker's worst-case posterior."""
    g = np.arange(1, MAX_GROUP + 1)
    group_eps = [dp.group_privacy(epsilon, int(k)) for k in g]
    return pd.DataFrame(
        {
            "g": g,
            "epsilon": group_eps,
            "posterior": [dp.posterior_bound(prior, e) for e in group_eps],
        }
    )


# --- cached specs (one per slider setting) -------------------------------------------------


# --- chart data (the templates are in charts.py) --------------------------------------------


@datasets.cached(census_only=True)
def sequential_current(frame: pd.DataFrame, m: int) -> pd.DataFrame:
    """The row of `sequential_error_frame` for m queries, labelled with its error."""
    return frame[frame["m"] == m].assign(label=lambda f: f["sd"].map(lambda v: f"{text.number(v)}"))


def prior_label(prior: float) -> str:
    """The words on the prior's line in the group chart."""
    return f"prior {text.percent(prior, 2)}"


@datasets.cached(census_only=True)
def group_data(
    epsilon: float, g: int, prior: float, right: bool, under: bool
) -> dict[str, pd.DataFrame]:
    """The data of `charts.group`: the curve, the chosen g and the prior (its label where
    (right, under) says: charts.prior_place), and the title that says the chosen g's
    value."""
    frame = group_frame(epsilon, prior)
    current = frame[frame["g"] == g]
    prior_frame = pd.DataFrame(
        {"y": [prior], "label": [prior_label(prior)], "right": [right], "under": [under]}
    )
    title = [
        "What an attacker can believe",
        f"◆ a group of {g}: {text.percent(float(current['posterior'].iloc[0]), 2)}",
    ]
    return {"curve": frame, "current": current, "prior": prior_frame, "title": title}
