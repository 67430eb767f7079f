"""Your own data: upload a CSV in the sidebar, pick a column, run the lessons on it.

Lessons that work on a column call, in this order:

    userdata.dataset_picker()                 # sidebar: uploader, dataset in use, way back
    userdata.show_dataset_in_use()            # main area: one caption naming the dataset
    column = userdata.pick_categorical_column("kary_column", default="Occupation")
    condition = userdata.pick_condition("rr_condition", default="Occupation = Sales")
    name, frame = userdata.active_dataset()

Privacy: the uploaded frame lives only in this browser session's `st.session_state`. It is
never written to disk and never put in `st.cache_data`/`st.cache_resource` (those are
shared by every session); Streamlit keeps the uploaded bytes in memory for the session.
Only the census analysis is cached across sessions (it is public data).

Safety: nothing from a file reaches markdown or HTML unescaped. File names, column names
and values are shown with `st.text`, `st.dataframe`, or markdown through `escape_markdown`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from data.upload import (
    MAX_CATEGORIES,
    CategoricalColumns,
    Condition,
    UploadError,
    categorical_columns,
    category_counts,
    missing_values,
    read_upload,
    return_freed_memory,
    shorten,
    yes_no_conditions,
)
from ui import controls, datasets, pace, text
from ui.datasets import ActiveDataset, active

__all__ = [
    "MAX_CATEGORIES",
    "ActiveDataset",
    "CategoricalColumns",
    "Condition",
    "UploadError",
    "active_columns",
    "active_conditions",
    "active_dataset",
    "categorical_columns",
    "category_counts",
    "dataset_picker",
    "max_upload_bytes",
    "missing_values",
    "pick_categorical_column",
    "pick_condition",
    "read_upload",
    "show_dataset_in_use",
    "yes_no_conditions",
]

STATE_KEY = datasets.UPLOAD_KEY  # the uploaded dataset (_Uploaded), this session only
ERROR_KEY = "userdata_error"  # the last bad upload's message
GENERATION_KEY = "userdata_generation"  # bumped to empty the uploader ("Back to the census")
UPLOADER_KEY_PREFIX = "userdata_upload"
BACK_KEY = "userdata_back"
SHOW_UNAVAILABLE = 8
# A tab may not make the server read files over and over. Every session's script runs on one
# interpreter lock, and reading a 25 MB file holds it about 3 s (bench/bench_upload.py); a tab
# can set its uploader to the same file and back, or send another file, as often as it sends
# messages, and the upload's callback runs before app.py's pace check (ui/pace.py). So each
# session's reads are paid from a bucket of bytes: READ_BURST_FILES files of the largest size
# at once, then one such file every READ_REFILL_S; a file costs at least 1/READ_MIN_SHARE of
# the largest (a small file's read, and the collection after it, cost more than its bytes).
READ_BUDGET_KEY = "userdata_read_budget"  # a ui.pace bucket, in bytes
READ_BURST_FILES = 2
READ_REFILL_S = 30.0
READ_MIN_SHARE = 10
MAX_CONDITION_OPTIONS = 300  # beyond this, pick_condition asks for a column first


@dataclass(frozen=True)
class _Uploaded:
    file_id: str
    filename: str
    frame: pd.DataFrame
    columns: CategoricalColumns
    conditions: tuple[Condition, ...]
    missing: dict[str, int]


def max_upload_bytes() -> int:
    """The upload limit, `server.maxUploadSize` (MB) in .streamlit/config.toml, in bytes."""
    return int(st.get_option("server.maxUploadSize")) * 1024 * 1024


@datasets.cached(census_only=True, max_entries=1)
def _census_analysis() -> tuple[CategoricalColumns, tuple[Condition, ...]]:
    """Columns and conditions of the census (public data, so shared by all sessions)."""
    census = datasets.census()
    return categorical_columns(census), yes_no_conditions(census)


def _uploaded() -> _Uploaded | None:
    return datasets.upload()


def _uploader_key() -> str:
    return f"{UPLOADER_KEY_PREFIX}_{st.session_state.get(GENERATION_KEY, 0)}"


def _read_wait_s(size: int) -> float:
    """Pay this session's read budget for a file of `size` bytes: 0.0 when paid (read it),
    else the seconds until it could be (nothing is taken)."""
    largest = max_upload_bytes()
    return pace.take(
        READ_BUDGET_KEY,
        min(max(size, largest / READ_MIN_SHARE), largest),
        capacity=READ_BURST_FILES * largest,
        per_second=largest / READ_REFILL_S,
    )


def _too_soon_message(wait_s: float) -> str:
    largest = st.get_option("server.maxUploadSize")
    return (
        f"Too many files in a short time: the server reads up to "
        f"{READ_BURST_FILES * largest} MB of files at once for each student, then "
        f"{largest} MB every {READ_REFILL_S:g} seconds. Choose your file again in "
        f"{math.ceil(wait_s)} s. Using the bundled census meanwhile."
    )


def _on_upload(uploader_key: str) -> None:
    """Read the new upload once (callbacks run before the script, so every call to
    `active_dataset` in this run already sees it); a bad file falls back to the census. A
    file over this session's read budget is not read: the uploader is emptied and says when
    to choose it again. Memory is given back only when a file was read or dropped."""
    file = st.session_state.get(uploader_key)
    st.session_state.pop(ERROR_KEY, None)
    dropped = st.session_state.pop(STATE_KEY, None) is not None
    datasets.forget_upload_results()
    if file is None:
        if dropped:
            return_freed_memory()
        return
    wait_s = _read_wait_s(file.size)
    if wait_s > 0:
        st.session_state[ERROR_KEY] = _too_soon_message(wait_s)
        st.session_state[GENERATION_KEY] = st.session_state.get(GENERATION_KEY, 0) + 1
        if dropped:
            return_freed_memory()
        return
    try:
        frame = read_upload(file.getvalue(), file.name, max_bytes=max_upload_bytes())
    except UploadError as error:
        st.session_state[ERROR_KEY] = f"{error} Using the bundled census instead."
        return_freed_memory()
        return
    st.session_state[STATE_KEY] = _Uploaded(
        file_id=file.file_id,
        filename=shorten(file.name),
        frame=frame,
        columns=categorical_columns(frame),
        conditions=yes_no_conditions(frame),
        missing=missing_values(frame),
    )
    return_freed_memory()  # the reader's millions of small objects, freed by now


def _back_to_census() -> None:
    dropped = st.session_state.pop(STATE_KEY, None) is not None
    datasets.forget_upload_results()
    st.session_state.pop(ERROR_KEY, None)
    st.session_state[GENERATION_KEY] = st.session_state.get(GENERATION_KEY, 0) + 1
    if dropped:
        return_freed_memory()


def active_dataset() -> ActiveDataset:
    """The uploaded dataset of this session, else the bundled census (`datasets.active`)."""
    return active()


def active_columns() -> CategoricalColumns:
    """Columns of the active dataset that can drive a histogram lesson, and why not others."""
    uploaded = _uploaded()
    return _census_analysis()[0] if uploaded is None else uploaded.columns


def active_conditions() -> tuple[Condition, ...]:
    """'Column = value' questions about the active dataset, for randomized response."""
    uploaded = _uploaded()
    return _census_analysis()[1] if uploaded is None else uploaded.conditions


def dataset_picker() -> None:
    """Sidebar, right under the lesson menu: the dataset in use, the CSV uploader beside it,
    missing values, a way back. app.py calls it once per run, before the classroom controls,
    so every page shows the same choice in the same place."""
    with st.sidebar:
        st.subheader("Dataset")
        st.markdown("**In use:**")
        st.text(active_dataset().name)
        key = _uploader_key()
        st.file_uploader(
            "Use your own CSV file",
            type=["csv"],
            key=key,
            on_change=_on_upload,
            args=(key,),
            help=(
                f"A table with a header row, up to {st.get_option('server.maxUploadSize')} MB, "
                "with at least one column of categories (words). It stays in this browser "
                "session: never stored on the server, never seen by anyone else."
            ),
        )
        error = st.session_state.get(ERROR_KEY)
        if error:
            st.error(text.plain(error), icon=":material/error:")
        uploaded = _uploaded()
        if uploaded is not None:
            if uploaded.missing:
                parts = [f"{name}: {n:,}" for name, n in uploaded.missing.items()]
                st.caption(
                    "Missing values (kept as missing, not counted in any category): "
                    + text.plain("; ".join(parts))
                )
            st.button("Back to the census", key=BACK_KEY, on_click=_back_to_census)


def census_only_notice(reason: str, *, your_file: str | None = None) -> None:
    """For a lesson that always runs on the bundled census: when a file is uploaded, say so
    (and why), so nobody mistakes the census numbers for their own data. `your_file`, for a
    lesson with a section that does use the file, replaces the pointer to other lessons."""
    if _uploaded() is not None:
        st.info(
            f"This lesson always uses the bundled census: {reason} "
            + (
                your_file
                or "Your file is used by the lessons that count a column (Laplace, randomized "
                "response, k-ary, unary)."
            ),
            icon=":material/info:",
        )


def show_dataset_in_use() -> None:
    """Main area: one caption naming the dataset the page runs on."""
    st.caption("Dataset: " + text.plain(active_dataset().name))


def _explain_unavailable(columns: CategoricalColumns) -> None:
    """For an uploaded file only: which of its columns cannot be picked, and why. (The
    census's own are always the same, e.g. Name with 32,561 categories: noise there.)"""
    if not columns.unavailable or _uploaded() is None:
        return
    items = list(columns.unavailable.items())
    shown = "; ".join(f"{name} ({why})" for name, why in items[:SHOW_UNAVAILABLE])
    more = len(items) - SHOW_UNAVAILABLE
    st.caption(
        "Not available: " + text.plain(shown) + (f"; and {more:,} more" if more > 0 else "") + "."
    )


def pick_categorical_column(
    key: str,
    *,
    default: str = "Occupation",
    label: str = "Column to count",
    bind: bool = False,
) -> str | None:
    """A selectbox over the active dataset's columns with 2 to 50 categories (default
    `default` when the dataset has it, else the first); a caption says why the other
    columns are unavailable. None (with a warning) when no column qualifies."""
    columns = active_columns()
    if not columns.usable:
        st.warning(
            f"No column of this dataset has between 2 and {MAX_CATEGORIES} categories, "
            "so this lesson cannot run on it. Press “Back to the census” in the sidebar, "
            "or upload a file with such a column."
        )
        _explain_unavailable(columns)
        return None
    options = list(columns.usable)
    # A value left from another dataset is not among the options: Streamlit resets it to
    # the default index.
    fallback = options.index(columns.default) if columns.default in options else 0
    choice = (controls.selectbox if bind else st.selectbox)(
        label, options, index=options.index(default) if default in options else fallback, key=key
    )
    _explain_unavailable(columns)
    return choice


def pick_condition(
    key: str,
    *,
    default: str = "Occupation = Sales",
    label: str = "Yes/no question: does the person have…",
    bind: bool = False,
) -> Condition | None:
    """A selectbox over the active dataset's 'column = value' questions (default `default`,
    a Condition label, when present, else the first). None (with a warning) when there is
    no text column with two values.

    A file with many text columns has up to 200 × 50 questions; one selectbox of them all
    would be resent on every rerun (a 2,000 × 50 file sent 11 MB per slider move). Beyond
    MAX_CONDITION_OPTIONS questions the choice is made in two steps instead — a column,
    then one of its values (both selectboxes filter as you type)."""
    by_label: dict[str, Condition] = {}
    for condition in active_conditions():
        by_label.setdefault(condition.label, condition)
    if not by_label:
        st.warning(
            "This dataset has no column of words with at least two values, so there is no "
            "yes/no question to ask. Press “Back to the census” in the sidebar."
        )
        return None
    options = list(by_label)
    if len(options) > MAX_CONDITION_OPTIONS:
        options = _column_then_value(key, by_label, default)
    choice = (controls.selectbox if bind else st.selectbox)(
        label, options, index=options.index(default) if default in options else 0, key=key
    )
    return by_label[choice] if choice is not None else None


def _column_then_value(key: str, by_label: dict[str, Condition], default: str) -> list[str]:
    """The first step for many questions: pick a column; returns that column's question
    labels (at most CONDITIONS_PER_COLUMN) for the value selectbox."""
    by_column: dict[str, list[str]] = {}
    for label, condition in by_label.items():
        by_column.setdefault(condition.column, []).append(label)
    columns = list(by_column)
    chosen = st.session_state.get(key)
    wanted = by_label[chosen].column if chosen in by_label else None
    if wanted is None and default in by_label:
        wanted = by_label[default].column
    column = st.selectbox(
        f"Column ({len(columns):,} with yes/no questions; type to search)",
        columns,
        index=columns.index(wanted) if wanted in columns else 0,
        key=f"{key}_column",
    )
    st.caption(f"{len(by_label):,} possible questions: pick a column here, then one of its values.")
    return by_column[column]
