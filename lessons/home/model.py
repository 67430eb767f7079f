"""Home's tables (no Streamlit): what each census column means."""

from __future__ import annotations

import pandas as pd

from data.census import COLUMNS_DESCRIPTION
from ui.datasets import census


def column_meanings() -> pd.DataFrame:
    """One row per census column: its name and what it means."""
    return pd.DataFrame(
        [(name, COLUMNS_DESCRIPTION.get(name, "")) for name in census().columns],
        columns=["Column", "Meaning"],
    )
