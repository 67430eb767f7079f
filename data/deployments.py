"""Published deployments of differential privacy (data/deployments.csv), loaded and checked;
no Streamlit.

One row per published budget: organisation, release, year, the unit of privacy (what one
"neighbour" differs in: a person, a user, a device…), ε, δ and zCDP's ρ as the source states
them (empty where it states none; at least one of ε and ρ), the period the budget covers
(per day, per month, one release…) and the source a reader can open. A deployment with
several budgets is several rows. The lesson "What ε means in practice" charts them; "Approximate
DP" lists them; both convert a ρ with dp.zcdp_to_approx_dp.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd

DEPLOYMENTS_PATH = Path(__file__).resolve().parent / "deployments.csv"
COLUMNS = (
    "organisation",
    "release",
    "year",
    "unit_of_privacy",
    "epsilon",
    "delta",
    "rho",
    "period",
    "source",
)
NUMBER_COLUMNS = ("epsilon", "delta", "rho")
TEXT_COLUMNS = ("organisation", "release", "unit_of_privacy", "period", "source")
_PLAIN_NUMBER = re.compile(r"^(\d+(\.\d+)?|\d+(\.\d+)?e-?\d+)$")
_OPENABLE = re.compile(r"https?://\S+")


def _number(text: str, column: str, row: int) -> float:
    if text == "":
        return math.nan
    if not _PLAIN_NUMBER.match(text):
        raise ValueError(f"deployments.csv row {row}: {column} {text!r} is not a plain number")
    value = float(text)
    if not value > 0 or (column == "delta" and value >= 1):
        raise ValueError(f"deployments.csv row {row}: {column} {text!r} is out of range")
    return value


def load_deployments(path: Path = DEPLOYMENTS_PATH) -> pd.DataFrame:
    """The table, checked: the exact header, whole four-digit years, ε, δ, ρ plain decimal
    numbers (1e-10 allowed; δ < 1) or empty, at least one of ε and ρ, every text filled and
    every source holding an address a reader can open. Raises ValueError naming the row."""
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    if tuple(raw.columns) != COLUMNS:
        raise ValueError(f"deployments.csv header must be {','.join(COLUMNS)}")
    rows = []
    for number, row in enumerate(raw.to_dict("records"), start=2):  # line 1 is the header
        for column in TEXT_COLUMNS:
            if not row[column].strip():
                raise ValueError(f"deployments.csv row {number}: {column} is empty")
        if not re.fullmatch(r"\d{4}", row["year"]):
            raise ValueError(f"deployments.csv row {number}: year {row['year']!r}")
        values = {column: _number(row[column], column, number) for column in NUMBER_COLUMNS}
        if math.isnan(values["epsilon"]) and math.isnan(values["rho"]):
            raise ValueError(f"deployments.csv row {number}: neither epsilon nor rho")
        if not _OPENABLE.search(row["source"]):
            raise ValueError(f"deployments.csv row {number}: the source has no address")
        rows.append({**row, "year": int(row["year"]), **values})
    return pd.DataFrame(rows, columns=list(COLUMNS))
