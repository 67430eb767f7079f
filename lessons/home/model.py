"""Home's tables (no Streamlit): five people from the census, and what each column means."""

from __future__ import annotations

import pandas as pd

from data.census import COLUMNS_DESCRIPTION, SYNTHETIC_COLUMNS
from ui import datasets
from ui.datasets import census


def column_meanings() -> pd.DataFrame:
    """One row per census column: its name and what it means."""
    return pd.DataFrame(
        [(name, COLUMNS_DESCRIPTION.get(name, "")) for name in census().columns],
        columns=["Column", "Meaning"],
    )


@datasets.cached(census_only=True)
def five_people() -> pd.DataFrame:
    """The census's first five rows as Home shows them: the invented identifiers first, the
    date of birth as a plain date (YYYY-MM-DD)."""
    people = census().head(5)
    order = [*SYNTHETIC_COLUMNS, *(c for c in people.columns if c not in SYNTHETIC_COLUMNS)]
    return people[order].assign(DOB=people["DOB"].dt.strftime("%Y-%m-%d"))
