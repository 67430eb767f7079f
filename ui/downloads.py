"""Downloads: the data behind a chart as a CSV file."""

from __future__ import annotations

import pandas as pd
import streamlit as st


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """A frame as CSV text in UTF-8, without the index."""
    return frame.to_csv(index=False).encode("utf-8")


def download_csv(
    frame: pd.DataFrame,
    *,
    filename: str,
    label: str = "Download the data (CSV)",
    key: str,
) -> None:
    """A download button for the data behind a chart (UTF-8 CSV, no index column)."""
    st.download_button(
        label,
        data=csv_bytes(frame),
        file_name=filename if filename.endswith(".csv") else f"{filename}.csv",
        mime="text/csv",
        key=key,
        icon=":material/download:",
        on_click="ignore",
    )
