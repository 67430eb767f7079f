"""Downloads: the data behind a chart as a CSV file."""

from __future__ import annotations

import weakref

import pandas as pd
import streamlit as st

# A frame's CSV, by the frame's identity: a cached result is the same object on every rerun,
# so its CSV is written once, not on every slider move. The entry goes when the frame does.
_CSV: dict[int, tuple[weakref.ref, bytes]] = {}


# A spreadsheet runs a cell that starts with one of these as a formula (OWASP, "CSV
# Injection"): such text cells and column names get a leading apostrophe, which spreadsheets
# show as text. Numbers (numeric columns) are left alone, so −0.5 stays a number.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: object) -> object:
    """A text value that a spreadsheet would run as a formula, made inert: "'" + value."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def _inert(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with every text cell and column name passed through `neutralise`."""
    text_columns = [
        name
        for name in frame.columns
        if not pd.api.types.is_numeric_dtype(frame[name])
        and not pd.api.types.is_bool_dtype(frame[name])
    ]
    renamed = [neutralise(str(name)) for name in frame.columns]
    if not text_columns and renamed == [str(name) for name in frame.columns]:
        return frame
    safe = frame.copy()
    for name in text_columns:
        safe[name] = safe[name].astype(object).map(neutralise)
    safe.columns = renamed
    return safe


def _whole_numbers_as_integers(frame: pd.DataFrame) -> pd.DataFrame:
    """Float columns whose every value is a whole number (counts, bin edges at whole
    numbers) written as integers: 14187, not 14187.0. Missing values stay empty."""
    whole = [
        name
        for name in frame.columns
        if pd.api.types.is_float_dtype(frame[name])
        and frame[name].notna().any()
        and bool(((frame[name].dropna() % 1) == 0).all())
        and bool((frame[name].dropna().abs() < 2**53).all())
    ]
    if not whole:
        return frame
    return frame.astype({name: "Int64" for name in whole})


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """A frame as CSV text in UTF-8, without the index; whole numbers without ".0"; text
    that a spreadsheet would run as a formula is made inert (`neutralise`)."""
    key = id(frame)
    hit = _CSV.get(key)
    if hit is not None and hit[0]() is frame:
        return hit[1]
    data = _whole_numbers_as_integers(_inert(frame)).to_csv(index=False).encode("utf-8")
    _CSV[key] = (weakref.ref(frame, lambda _, key=key: _CSV.pop(key, None)), data)
    return data


def download_csv(
    frame: pd.DataFrame,
    *,
    filename: str,
    label: str = "Download the data (CSV)",
    key: str,
) -> None:
    """A download button for the data behind a chart (UTF-8 CSV, no index column).

    The CSV is written when the button is clicked, not on every run (a callable `data`,
    Streamlit's deferred download): a slider move no longer serialises every download on
    the page (the coin-flip lesson's 1,000 surveys took ~3 ms of each ~50 ms rerun)."""
    st.download_button(
        label,
        data=lambda: csv_bytes(frame),
        file_name=filename if filename.endswith(".csv") else f"{filename}.csv",
        mime="text/csv",
        key=key,
        icon=":material/download:",
        on_click="ignore",
    )
