"""Every table a page shows, in one of two kinds, each in Arrow form made once per frame:

    tables.show(model.linkage(zip_code, size, seed), key="linkage")  # rows of data
    tables.written(model.ledger(epsilon, m, budget))  # the page's own words and numbers

`show` is for rows of data (the census, a student's file, nicknames): every cell plain text,
on one line. `written` is for a small table the page writes itself, whose cells may be
Markdown and formulas. A page calls neither st.table nor st.dataframe itself
(tests/lesson_rules.py).

Streamlit converts a pandas frame to Arrow on every call (~1 ms for a few hundred rows). A
cached result is the same frame object for every session, so its Arrow form is kept by the
frame's identity and dropped with the frame (a student's first render). The
frame's index is not sent: show it with `hide_index=True`. Callers never mutate a frame they
pass here (cached results are shared)."""

from __future__ import annotations

import math
import numbers

import pandas as pd
import pyarrow as pa
import streamlit as st

from ui import datasets, text


def arrow(frame: pd.DataFrame) -> pa.Table:
    """`frame`'s columns as an Arrow table (pa.Table.from_pandas without the index), made once
    per frame object (datasets.derived_from)."""
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame: expected a pandas DataFrame, got {type(frame).__name__}")
    return datasets.derived_from(frame, ("table_arrow",), lambda: _convert(frame))


def _convert(frame: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(frame, preserve_index=False)


def static(frame: pd.DataFrame) -> pa.Table:
    """`frame` as st.table should show it, as an Arrow table of strings (the index is not
    sent: show it with `hide_index=True`), made once per frame object.

    st.table reads every cell and column label as Markdown (">50K" draws as a block quote,
    "Married-civ-spouse" could turn into a list item), so every label and text cell goes
    through text.plain; numbers go through the one formatter (counts with thousands
    separators, "14,187", never "14187.0"); a missing value shows as "–". Why st.table at all:
    the data grid's component costs ~0.35 s of a Chromium first visit;
    a few rows that need no sorting or search are a static table."""
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame: expected a pandas DataFrame, got {type(frame).__name__}")
    return datasets.derived_from(frame, ("table_static",), lambda: _static(frame))


def _cell(value: object) -> str:
    missing = value is None or value is pd.NaT or value is pd.NA
    if missing or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}".replace("-", "−")
    if isinstance(value, numbers.Real):
        return text.number(float(value))
    return text.plain(value)


def _static(frame: pd.DataFrame) -> pa.Table:
    columns = {}
    for position, label in enumerate(frame.columns):
        name = text.plain(label)
        while name in columns:  # two labels that escape alike stay two columns
            name += "\u2060"
        columns[name] = [_cell(value) for value in frame.iloc[:, position].tolist()]
    return pa.table({name: pa.array(cells, pa.string()) for name, cells in columns.items()})


def written(table: pd.DataFrame | pa.Table, *, index: bool = False) -> None:
    """A small table the page writes itself (words, formulas, numbers it has formatted), with
    horizontal rules. Its cells are read as Markdown, so a row from a file or a student is
    never one of them (that is `show`). `index`: the frame's named index is shown as row
    labels. A frame is converted to Arrow once per object; an Arrow table (a model's, made
    once per process) is sent as it is."""
    if isinstance(table, pd.DataFrame):
        frame = table
        table = datasets.derived_from(
            frame,
            ("table_written", index),
            lambda: pa.Table.from_pandas(frame, preserve_index=index),
        )
    elif not isinstance(table, pa.Table):
        raise TypeError(
            f"table: expected a pandas DataFrame or an Arrow table, got {type(table).__name__}"
        )
    st.table(table, hide_index=not index, border="horizontal")


# The class (st.container's documented `key`: "st-key-" + key) that ui/style.css keeps on one
# line per cell.
ROWS_KEY_PREFIX = "pp-rows-"


def show(frame: pd.DataFrame, *, key: str, height: int | None = None) -> None:
    """Rows of data (a release, a voter roll, reconstructed records) as a static table:
    `static(frame)`, every cell on one line (a date or "Married-civ-spouse" does not wrap at
    its hyphens), scrolled sideways in its own box when wider than the column (a phone), and
    scrolled down with a sticky header when taller than `height` pixels. `key` names the
    table, unique on its page."""
    if not isinstance(key, str) or not key:
        raise ValueError(f"key: expected a non-empty string, got {key!r}")
    if height is not None and (not isinstance(height, int) or height <= 0):
        raise ValueError(f"height: expected a positive number of pixels, got {height!r}")
    with st.container(key=ROWS_KEY_PREFIX + key):
        st.table(static(frame), hide_index=True, height=height or "content")
