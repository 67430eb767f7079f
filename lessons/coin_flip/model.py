"""Cached computations and chart builders for the two binary randomized-response lessons
(lessons/coin_flip/ and lessons/binary_rr/). The math is dp/'s; this module draws,
caches and aggregates (bins and summary rows, never raw samples to the browser)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

import dp
from ui import datasets, text
from ui.rr_survey import (
    REPEATS,
    SurveyQuestion,
    census_truth,
    repeated_count_estimates,
    repeated_yes_counts,
)

# "Heads: say yes; tails: tell the truth": a true yes is always reported yes (p = 1), a true
# no is reported no half the time (q = ½).
FORCED_RESPONSE = (1.0, 0.5)

# Population sizes for the 1/√n lesson: a log-scale select_slider from 10 to 1,000,000.
N_GRID: tuple[int, ...] = (
    10,
    20,
    50,
    100,
    200,
    500,
    1_000,
    2_000,
    5_000,
    10_000,
    20_000,
    50_000,
    100_000,
    200_000,
    500_000,
    1_000_000,
)

# ε values for the "error versus ε" curve (log-spaced, 0.01 to 10).


# --- data ---------------------------------------------------------------------------------

# Offsets added to the page seed, one per distinct draw (a counter is added to the first two,
# so that each press of their button draws anew).
SEED_COINS = 1_000
SEED_SURVEY = 2_000
SEED_REPEATED_SURVEYS = 3_000
SEED_SPREAD = 4_000
SEED_SYNTHETIC = 5_000
SEED_BIASED_COINS = 6_000


# --- draws (deterministic given the seed) -------------------------------------------------


def coin_outcomes() -> pd.DataFrame:
    """Every way the two fair coins can fall, per true answer, with its probability."""
    return pd.DataFrame(
        {
            "True answer": ["Yes", "Yes", "Yes", "No", "No", "No"],
            "Coin 1": ["Heads", "Tails", "Tails"] * 2,
            "Coin 2": ["either", "Heads", "Tails"] * 2,
            "Reported": ["Yes", "Yes", "No", "No", "Yes", "No"],
            "Probability": ["½", "½ · ½ = ¼", "½ · ½ = ¼"] * 2,
        }
    )


@datasets.cached(census_only=True, max_entries=2)
def table_arrow(name: str) -> pa.Table:
    """One of the page's fixed tables ("coin_outcomes", "local_deployments") in Arrow form,
    made once per process: st.table sends exactly the bytes it makes from the frame, but
    converting costs ~1 ms a table on every student's first render. Show it with
    `hide_index=True`, as st.table decides for these frames' plain row numbers (left to
    guess, it converts an Arrow table back to pandas)."""
    frames = {"coin_outcomes": coin_outcomes, "local_deployments": local_deployments}
    return pa.Table.from_pandas(frames[name]())


def flip_two_coins(seed: int) -> tuple[bool, bool]:
    """Two fair coins (True = heads) from a seeded generator: one respondent's secret."""
    heads = np.random.default_rng(seed).random(2) < 0.5
    return bool(heads[0]), bool(heads[1])


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def _census_responses(column: str, value: str, p: float, q: float, seed: int) -> np.ndarray:
    return dp.randomized_response(census_truth(column, value), p, q, rng=seed)


def survey_responses(survey: SurveyQuestion, p: float, q: float, seed: int) -> np.ndarray:
    """Every respondent's randomized answer to the survey's question (cached for the
    census only: an upload's answers stay in this session)."""
    if survey.on_census:
        return _census_responses(survey.column, survey.value, p, q, seed)
    return dp.randomized_response(survey.truth, p, q, rng=seed)


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def textbook_count_estimates(true_yes: int, n: int, p: float, q: float, reps: int, seed: int):
    """The same surveys estimated with the fair-coin line 2Ŷ − ½ whatever the coins (the
    "spot the bug" histogram), as counts."""
    counts = repeated_yes_counts(true_yes, n, p, q, reps, seed)
    return n * dp.fair_coin_formula_estimate(counts, n)


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def repeated_share_estimates(true_yes: int, n: int, p: float, q: float, reps: int, seed: int):
    """Debiased estimates of the share of yes, in percentage points."""
    return percent(repeated_count_estimates(true_yes, n, p, q, reps, seed) / n)


def percent(share) -> np.ndarray | float:
    """A share (0..1) as percentage points."""
    return 100.0 * share


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def spread_versus_n(rate: float, p: float, q: float, seed: int) -> pd.DataFrame:
    """SD of the share estimate (percentage points) at every n of N_GRID: exact from
    dp.rr_variance and simulated from REPEATS surveys (dp.sample_rr_counts)."""
    rows = []
    for i, n in enumerate(N_GRID):
        true_yes = round(rate * n)
        exact = percent(dp.rr_count_std(true_yes / n, n, p, q) / n)
        counts = dp.sample_rr_counts(true_yes, n, p, q, size=REPEATS, rng=seed + i)
        simulated = percent(np.std(dp.estimate_proportion_from_counts(counts, n, p, q)))
        rows.append({"n": n, "kind": "exact", "sd": exact})
        rows.append({"n": n, "kind": "simulated", "sd": simulated})
    return pd.DataFrame(rows)


SPREAD_KINDS = ("exact", "simulated")


# --- chart data (the templates are in charts.py) --------------------------------------------


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def spread_data(
    rate: float, p: float, q: float, seed: int, current_n: int, current_sd: float
) -> dict[str, pd.DataFrame]:
    """The data of `charts.spread` (`spread_versus_n` at these arguments): exact line,
    simulated points, the current n."""
    frame = spread_versus_n(rate, p, q, seed)
    return {
        "exact": frame[frame["kind"] == SPREAD_KINDS[0]].reset_index(drop=True),
        "simulated": frame[frame["kind"] == SPREAD_KINDS[1]].reset_index(drop=True),
        "here": pd.DataFrame(
            {"n": [current_n], "sd": [current_sd], "label": [f"your n = {current_n:,}"]}
        ),
    }


def naive_words(true_yes: int, n: int) -> str:
    """Which way the naive count of "yes" goes with fair coins, for this question's true share
    r: the coins turn a quarter of the true no's into yes and a quarter of the true yes's into
    no, so the share of yes moves to ¼ + r/2, towards ½: up when r < ½ (the census's
    salespeople), down when r > ½ (its men)."""
    r = true_yes / n
    expected = 0.25 + r / 2
    if text.percent(expected) == text.percent(r):
        return (
            "The naive count is about right here, by luck: the coins turn a quarter of the "
            "true *no*s into *yes* and a quarter of the true *yes*es into *no*, and with about "
            "as many of each the two cancel."
        )
    way, more, fewer = ("too high", "*no*", "*yes*") if r < 0.5 else ("too low", "*yes*", "*no*")
    return (
        f"The naive count is {way}: the coins turn a quarter of the true *no*s into *yes* and "
        f"a quarter of the true *yes*es into *no*, and with more true {more} than {fewer} "
        f"answers here the share of *yes* moves towards ½, from {text.percent(r)} to "
        f"{text.percent(expected)} on average."
    )


def bug_words(bias_people: float, honest: float, random_yes: float) -> str:
    """What follows the textbook formula's expected error in "Show the bug": its value here,
    and, where it rounds to 0, why (fair coins; or, for other coins, the two mistakes
    cancelling at this question's true share only), instead of "+0 people … more respondents
    do not fix a bias. Set h = y = 0.5" shown at h = y = 0.5."""
    if abs(bias_people) >= 0.5:
        return (
            f"here {bias_people:+,.0f} people, the same in every survey: more respondents do "
            "not fix a bias. Set h = y = 0.5 and both histograms agree."
        )
    if honest == 0.5 and random_yes == 0.5:
        return (
            "here 0: with two fair coins (h = y = ½) the textbook line is exactly the right "
            "one. Bias either coin and, for almost any question, the error above is no longer 0, "
            "the same in every "
            "survey: more respondents do not fix a bias."
        )
    return (
        "here 0 people, but only by luck: at these h and y the two mistakes cancel for this "
        "question's true share r alone. Ask about another r and the error is back, the same "
        "in every survey."
    )


def textbook_right_words(n: int, share: float, honest: float, random_yes: float) -> str:
    """The note where the textbook line is right with these coins (its bias rounds to 0
    people), and a move that shows it fail: y to the first of 0.30, 0.70, 0 and 1 (other
    than y itself) where it is off by a person or more, else h to the first such of 0.50,
    0.25, 0.75 and 0. "Move y to 0.30" was said at every such state, at h = 1 too (coin 2
    is then never tossed: y changes nothing) and at y = 0.30 itself."""

    def off(h: float, y: float) -> float:
        return n * dp.fair_coin_formula_bias(share, h, y)

    note = (
        "With these coins the textbook line happens to be right, so both histograms sit on "
        "the truth."
    )
    for y in (0.3, 0.7, 0.0, 1.0):
        if abs(y - random_yes) > 1e-9 and abs(off(honest, y)) >= 1:
            return (
                f"{note} Move **y** in section 4 to {y:.2f} and watch the left one leave it "
                f"(by {text.signed(round(off(honest, y)))} people)."
            )
    for h in (0.5, 0.25, 0.75, 0.0):
        if abs(h - honest) > 1e-9 and abs(off(h, random_yes)) >= 1:
            return (
                f"{note} Move **h** in section 4 to {h:.2f} and watch the left one leave it "
                f"(by {text.signed(round(off(h, random_yes)))} people)."
            )
    return note


def fair_coin_arithmetic(yes_count: int, n: int) -> tuple[str, str]:
    """The textbook line 2·Ŷ − ½ as shown: Ŷ rounded to 4 decimals, and the result computed
    from that shown value, so the arithmetic on screen adds up (2·0.3052 − 0.5 = 0.1104)."""
    shown = round(yes_count / n, 4)
    return f"{text.number(shown)}", f"{text.number(2 * shown - 0.5)}"


def local_deployments() -> pd.DataFrame:
    """Local-model deployments with their published budgets (per user, per period)."""
    return pd.DataFrame(
        {
            "Deployment": [
                "Google RAPPOR (Chrome)",
                "Apple count-mean sketch (QuickType)",
                "Microsoft Windows telemetry",
            ],
            "Published ε": [
                "set per report and per value (Erlingsson, Pihur & Korolova 2014)",
                "16 per day",
                "1.672 per 6 hours",
            ],
            "Source": [
                "Erlingsson, Pihur & Korolova, CCS 2014",
                "Apple Differential Privacy Team, Learning with Privacy at Scale, 2017",
                "Ding, Kulkarni & Yekhanin, NeurIPS 2017",
            ],
        }
    )
