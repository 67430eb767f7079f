"""The tracing attack's pool (Homer et al.; "Membership inference"): a fixed sample of census
people, their one-hot answers and QUESTIONS yes/no questions built from them, and who is a
possible study member, a non-member scored beside them, or in the attacker's reference
sample. ui/tracing.py runs the attack; the lesson's code behind the chart reads the pool
from here. No Streamlit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from data.census import CATEGORY_COLUMNS

CATEGORICAL = CATEGORY_COLUMNS  # every categorical column of the census
AGE_EDGES = tuple(range(15, 95, 5))  # 15–19, …, 85–89, 90
HOURS_EDGES = (0, 20, 30, 35, 40, 41, 50, 60, 100)  # bands of hours per week
STUDY_MAX = 500  # the largest study: its possible members are the pool's first rows
QUESTIONS = 1_000  # the yes/no questions a study may publish the averages of
NON_MEMBERS = 2_000  # scored beside the members: the false positives come from them
REFERENCE = 2_000  # the attacker's reference sample (people not in the study)
SAMPLE_SEED = 31  # who is in the pool: fixed, so every student sees the same study
QUESTION_SEED = 32  # which random half of the one-hot answers each question reads


def _bands(values: np.ndarray, edges: tuple[int, ...], unit: str) -> list[tuple[str, np.ndarray]]:
    out = []
    for low, high in zip(edges[:-1], edges[1:], strict=True):
        out.append((f"{unit} {low}–{high - 1}", (values >= low) & (values < high)))
    out.append((f"{unit} {edges[-1]}+", values >= edges[-1]))
    return out


@dataclass(frozen=True)
class Attributes:
    """The pool's yes/no attributes, 0/1 (uint8), one row per person: `one_hot` (each census
    column's categories, with age and hours bands) and `questions` (QUESTIONS yes/no
    questions built from them, see `attributes`); and who is who: the first
    STUDY_MAX rows are the study's possible members, then NON_MEMBERS people scored
    beside them, then the REFERENCE sample."""

    one_hot_names: tuple[str, ...]
    one_hot: np.ndarray
    questions: np.ndarray

    def rows(self, matrix: np.ndarray, who: str) -> np.ndarray:
        n = STUDY_MAX
        cut = {"members": (0, n), "non-members": (n, n + NON_MEMBERS)}
        low, high = cut.get(who, (n + NON_MEMBERS, matrix.shape[0]))
        return matrix[low:high]


def tracing_pool(frame: pd.DataFrame) -> Attributes:
    """The pool (a fixed sample of the people of `frame`, the census) and their attributes.

    One-hot columns are few (126) and strongly correlated (a person is in exactly one
    education, one age band, …), and the tracing attack's power grows with the number of
    *independent* attributes, as with the hundreds of thousands of genetic markers (SNPs)
    of Homer et al. So each published attribute is a yes/no question about the person's
    one-hot answers: "is the number of yes answers among this random half of them odd?"
    (a parity of a fixed random subset: close to a fair coin per person, and close to
    independent across questions). A published mean is the share of the study answering
    yes, as a genomics study publishes the share carrying each marker."""
    rng = np.random.default_rng(SAMPLE_SEED)
    pool = rng.permutation(len(frame))[: STUDY_MAX + NON_MEMBERS + REFERENCE]
    people = frame.iloc[pool]
    columns: list[tuple[str, np.ndarray]] = []
    for column in CATEGORICAL:
        values = people[column].astype("string").fillna("(missing)").to_numpy()
        for category in sorted(set(values)):
            columns.append((f"{column} = {category}", values == category))
    columns += _bands(people["Age"].to_numpy(), AGE_EDGES, "age")
    columns += _bands(people["HoursPerWeek"].to_numpy(), HOURS_EDGES, "hours")
    one_hot = np.column_stack([c for _, c in columns]).astype(np.int64)
    subsets = np.random.default_rng(QUESTION_SEED).random((one_hot.shape[1], QUESTIONS))
    questions = ((one_hot @ (subsets < 0.5).astype(np.int64)) % 2).astype(np.uint8)
    # 0/1 as bytes: 4.5 MB shared by every session, where float64 took 36 MB (over half the
    # cache budget, pushing other lessons' defaults out); dp.tracing_score reads floats.
    return Attributes(tuple(n for n, _ in columns), one_hot.astype(np.uint8), questions)
