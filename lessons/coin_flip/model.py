"""Cached computations and chart builders for the two binary randomized-response lessons
(lessons/coin_flip/ and lessons/binary_rr/). The math is dp/'s; this module draws,
caches and aggregates (bins and summary rows, never raw samples to the browser)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa

import dp
from ui import datasets, text
from ui.datasets import census

SALES = "Sales"
# "Heads: say yes; tails: tell the truth": a true yes is always reported yes (p = 1), a true
# no is reported no half the time (q = ½).
FORCED_RESPONSE = (1.0, 0.5)
REPEATS = 1_000

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


@datasets.cached(max_entries=64)
def _census_truth(column: str, value: str) -> np.ndarray:
    """One bool per person of the census: is `column` equal to `value`? (missing → no)."""
    return (census()[column].astype(object) == value).to_numpy(dtype=bool, na_value=False)


@dataclass(frozen=True)
class SurveyQuestion:
    """The yes/no question a lesson asks and everybody's true answer to it, from the active
    dataset (the bundled census or this session's upload; an upload's truth is never put
    in a cross-session cache). `column` and `value` come from a file: plain text only."""

    column: str
    value: str
    truth: np.ndarray = field(repr=False, compare=False)
    on_census: bool

    @property
    def n(self) -> int:
        return int(self.truth.size)

    @property
    def true_yes(self) -> int:
        return int(self.truth.sum())

    @property
    def is_sales(self) -> bool:
        """The census's own question, "Do you work in Sales?"."""
        return self.on_census and (self.column, self.value) == ("Occupation", SALES)

    @property
    def question(self) -> str:
        """The question as plain text (escape it before any markdown)."""
        if self.column == "Occupation":
            return f"Do you work in {self.value}?"
        return f"Is your {self.column} “{self.value}”?"

    @property
    def x_title(self) -> str:
        """The axis title of a chart of count estimates."""
        return (
            "estimated number of salespeople" if self.is_sales else "estimated number of true yes"
        )

    @property
    def who(self) -> str:
        """Who answers yes truly, as a plural noun for labels (never file text)."""
        return "salespeople" if self.is_sales else "true yes"


def active_survey(condition) -> SurveyQuestion:
    """The SurveyQuestion for a `ui.userdata` Condition over the active dataset."""
    on_census = datasets.on_census()
    if on_census:
        truth = _census_truth(condition.column, condition.value)
    else:
        truth = condition.mask(datasets.active().frame).to_numpy(dtype=bool)
    return SurveyQuestion(condition.column, condition.value, truth, on_census)


def survey_question_picker(key: str) -> SurveyQuestion | None:
    """The two RR lessons' opening: say which dataset is in use, let the learner pick the
    survey's yes/no question (a selectbox under `key`, bound to the link) and return its
    SurveyQuestion — None when the dataset has no yes/no question (`pick_condition` warns)."""
    from ui import userdata

    userdata.show_dataset_in_use()
    condition = userdata.pick_condition(
        key,
        default="Occupation = Sales",
        label="The survey's yes/no question: does the person have…",
        bind=True,
    )
    return None if condition is None else active_survey(condition)


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
    return dp.randomized_response(_census_truth(column, value), p, q, rng=seed)


def survey_responses(survey: SurveyQuestion, p: float, q: float, seed: int) -> np.ndarray:
    """Every respondent's randomized answer to the survey's question (cached for the
    census only: an upload's answers stay in this session)."""
    if survey.on_census:
        return _census_responses(survey.column, survey.value, p, q, seed)
    return dp.randomized_response(survey.truth, p, q, rng=seed)


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def repeated_yes_counts(true_yes: int, n: int, p: float, q: float, reps: int, seed: int):
    """Reported-"yes" counts of `reps` independent surveys (exact aggregate sampler)."""
    return dp.sample_rr_counts(true_yes, n, p, q, size=reps, rng=seed)


# The arrays and frames below are cached, not only their inputs: a chart's bins, its Arrow
# form and its alt text are derived once per array object (ui/charts.py), so every student's
# first render at the defaults reuses them instead of rebuilding ~10 ms of chart data.
@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def repeated_count_estimates(true_yes: int, n: int, p: float, q: float, reps: int, seed: int):
    """Debiased count estimates n·r̂ of `reps` independent surveys."""
    counts = repeated_yes_counts(true_yes, n, p, q, reps, seed)
    return n * dp.estimate_proportion_from_counts(counts, n, p, q)


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


@datasets.cached(max_entries=datasets.SEED_ENTRIES)
def repeated_surveys(true_yes: int, n: int, p: float, q: float, reps: int, seed: int):
    """`surveys_frame` of `reps` independent surveys (the table behind the CSV download)."""
    return surveys_frame(repeated_yes_counts(true_yes, n, p, q, reps, seed), n, p, q, true_yes)


def surveys_frame(counts: np.ndarray, n: int, p: float, q: float, true_yes: int) -> pd.DataFrame:
    """The data behind a "repeat the survey" chart, one row per survey (the columns of the
    rr_repeated_surveys snippet): reported yes, the debiased count, its error."""
    frame = pd.DataFrame(
        {
            "reported_yes": counts,
            "estimated_count": n * dp.estimate_proportion_from_counts(counts, n, p, q),
        }
    )
    frame["error"] = frame["estimated_count"] - true_yes
    return frame


def relative_error_percent(estimate: float, truth: float) -> float:
    """(estimate − truth) / truth in percent."""
    return 100.0 * (estimate - truth) / truth


def latex_number(x: float) -> str:
    """A number rounded to a whole, with thousands separators that LaTeX keeps tight."""
    return f"{x:,.0f}".replace(",", "{,}")


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
