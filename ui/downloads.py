"""Downloads: the data behind a chart as a CSV file."""

from __future__ import annotations

import weakref

import pandas as pd
import streamlit as st

# A frame's CSV, by the frame's identity: a cached result is the same object on every rerun,
# so its CSV is written once, not on every slider move. The entry goes when the frame does.
_CSV: dict[int, tuple[weakref.ref, bytes]] = {}


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """A frame as CSV text in UTF-8, without the index."""
    key = id(frame)
    hit = _CSV.get(key)
    if hit is not None and hit[0]() is frame:
        return hit[1]
    data = frame.to_csv(index=False).encode("utf-8")
    _CSV[key] = (weakref.ref(frame, lambda _, key=key: _CSV.pop(key, None)), data)
    return data


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
