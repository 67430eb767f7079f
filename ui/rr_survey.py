"""A yes/no survey of the active dataset with randomized response: the question and
everybody's true answer (the census's "Do you work in Sales?" or a question on the
student's file), and surveys repeated many times with the exact aggregate sampler. The two
binary randomized-response lessons (coin flips, any p and q) ask and repeat it; the math is
dp/'s."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

import dp
from ui import datasets
from ui.datasets import census

SALES = "Sales"


REPEATS = 1_000


@datasets.cached(max_entries=64)
def census_truth(column: str, value: str) -> np.ndarray:
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
        truth = census_truth(condition.column, condition.value)
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
