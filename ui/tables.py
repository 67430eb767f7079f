"""A table a page shows (st.dataframe, st.table) in Arrow form, converted once per frame.

    st.dataframe(tables.arrow(model.linkage(zip_code, size, seed)), hide_index=True)

Streamlit converts a pandas frame to Arrow on every call (~1 ms for a few hundred rows). A
cached result is the same frame object for every session, so its Arrow form is kept by the
frame's identity and dropped with the frame (issue 28: a student's first render). The
frame's index is not sent: show it with `hide_index=True`. Callers never mutate a frame they
pass here (cached results are shared)."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa

from ui import datasets


def arrow(frame: pd.DataFrame) -> pa.Table:
    """`frame`'s columns as an Arrow table (pa.Table.from_pandas without the index), made once
    per frame object (datasets.derived_from)."""
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame: expected a pandas DataFrame, got {type(frame).__name__}")
    return datasets.derived_from(frame, ("table_arrow",), lambda: _convert(frame))


def _convert(frame: pd.DataFrame) -> pa.Table:
    return pa.Table.from_pandas(frame, preserve_index=False)
