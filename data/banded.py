"""A few census columns in bands (age band, sex, education, …) and their contingency table:
the data "Synthetic data" releases, and what its code behind the chart reads. No Streamlit."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Column:
    name: str
    labels: tuple[str, ...]


def _bands(values: np.ndarray, edges: tuple[float, ...]) -> np.ndarray:
    return np.searchsorted(np.asarray(edges), values, side="right")


def codes(frame: pd.DataFrame, name: str) -> np.ndarray:
    """Each person's category code in the banded column `name` (COLUMNS[name].labels)."""
    if name == "age band":
        return _bands(frame["Age"].to_numpy(), (30, 45, 60))
    if name == "sex":
        return (frame["Sex"].astype("string") == "Male").to_numpy().astype(int)
    if name == "education":
        return _bands(frame["EducationNum"].to_numpy(), (10, 13))
    if name == "marital status":
        status = frame["MaritalStatus"].astype("string").fillna("")
        married = status.str.startswith("Married-civ") | status.str.startswith("Married-AF")
        return np.where(married, 0, np.where(status == "Never-married", 1, 2))
    if name == "hours band":
        return _bands(frame["HoursPerWeek"].to_numpy(), (35, 46))
    if name == "income":
        return (frame["Income"].astype("string") == ">50K").to_numpy().astype(int)
    if name == "race":
        race = frame["Race"].astype("string").fillna("")
        order = ("White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other")
        return np.array([order.index(r) if r in order else 4 for r in race])
    if name == "occupation":
        occupation = frame["Occupation"].astype("string").fillna("(missing)").to_numpy()
        return np.searchsorted(OCCUPATIONS, occupation)
    raise ValueError(f"unknown column {name!r}")


OCCUPATIONS = np.array(
    sorted(
        [
            "(missing)",
            "Adm-clerical",
            "Armed-Forces",
            "Craft-repair",
            "Exec-managerial",
            "Farming-fishing",
            "Handlers-cleaners",
            "Machine-op-inspct",
            "Other-service",
            "Priv-house-serv",
            "Prof-specialty",
            "Protective-serv",
            "Sales",
            "Tech-support",
            "Transport-moving",
        ]
    )
)

COLUMNS: dict[str, Column] = {
    "age band": Column("age band", ("17–29", "30–44", "45–59", "60+")),
    "sex": Column("sex", ("Female", "Male")),
    "education": Column("education", ("high school or less", "some college", "bachelor's+")),
    "marital status": Column("marital status", ("married", "never married", "other")),
    "hours band": Column("hours band", ("under 35 h", "35–45 h", "over 45 h")),
    "income": Column("income", ("≤50K", ">50K")),
    "race": Column("race", ("White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other")),
    "occupation": Column("occupation", tuple(OCCUPATIONS)),
}


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    shape: tuple[int, ...]
    counts: np.ndarray  # flattened in C order

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    @property
    def cells(self) -> int:
        return self.counts.size

    @property
    def empty(self) -> int:
        return int(np.sum(self.counts == 0))


def contingency_table(frame: pd.DataFrame, columns: tuple[str, ...]) -> Table:
    """The people of `frame` counted in every cell of the banded `columns` (C order)."""
    found = [codes(frame, c) for c in columns]
    shape = tuple(len(COLUMNS[c].labels) for c in columns)
    flat = np.ravel_multi_index(tuple(found), shape)
    return Table(columns, shape, np.bincount(flat, minlength=math.prod(shape)).astype(float))
