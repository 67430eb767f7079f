"""The active dataset, and the one dataset-aware cache.

Every lesson computes on the *active* dataset: the bundled census, or the CSV file this
browser session uploaded (ui/userdata.py keeps it in `st.session_state[UPLOAD_KEY]`).

    @datasets.cached()
    def histogram(column: str, epsilon: float, seed: int) -> pd.DataFrame: ...

The rule (DESIGN §1, rule 3): a result computed while the census is active may be shared
by every session (a bounded, process-wide map here: the census is public). A result computed
while a file is active — whatever its arguments, since they may be counts or labels derived
from the file — is kept in this session's state only, in a small bounded memo, and never
enters a cache shared between sessions (neither this one nor st.cache_data /
st.cache_resource). The memo goes with the session.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import pandas as pd
import streamlit as st

from data.census import load_census

UPLOAD_KEY = "userdata_dataset"  # this session's parsed upload (ui/userdata.py writes it)
MEMO_KEY = "datasets_memo"  # this session's results computed on its upload
MEMO_ENTRIES = 64  # per session; the oldest result is dropped first
CENSUS_LABEL = "Bundled census"

F = TypeVar("F", bound=Callable[..., Any])


@st.cache_resource(show_spinner=False)
def census() -> pd.DataFrame:
    """The census DataFrame, loaded once per process and shared by all sessions.

    Never mutate it: it is the same object for every caller (derive new frames instead)."""
    return load_census()


class ActiveDataset(NamedTuple):
    """The dataset the lessons run on: a display name (plain text: escape it before any
    markdown) and the frame (never mutate it)."""

    name: str
    frame: pd.DataFrame


def upload() -> Any | None:
    """This session's parsed upload (ui/userdata.py's record of it), or None."""
    return st.session_state.get(UPLOAD_KEY)


def on_census() -> bool:
    """Whether the lessons run on the bundled census now (the one way to ask)."""
    return upload() is None


def active() -> ActiveDataset:
    """The uploaded dataset of this session, else the bundled census."""
    uploaded = upload()
    if uploaded is None:
        people = census()
        return ActiveDataset(f"{CENSUS_LABEL} ({len(people):,} people)", people)
    return ActiveDataset(
        f"Your file: {uploaded.filename} ({len(uploaded.frame):,} rows)", uploaded.frame
    )


def _session_memo() -> dict:
    return st.session_state.setdefault(MEMO_KEY, {})


def forget_upload_results() -> None:
    """Drop this session's results computed on an upload (a new file, or back to the census)."""
    st.session_state.pop(MEMO_KEY, None)


class _SharedResults:
    """Results computed on the census, shared by every session: a bounded LRU map per
    function, guarded by a lock (two sessions may compute the same result once each)."""

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._results: OrderedDict[Any, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, token: Any, compute: Callable[[], Any]) -> Any:
        with self._lock:
            if token in self._results:
                self._results.move_to_end(token)
                return self._results[token]
        value = compute()
        with self._lock:
            self._results[token] = value
            while len(self._results) > self.max_entries:
                self._results.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._results)

    def clear(self) -> None:
        with self._lock:
            self._results.clear()


_SHARED: dict[str, _SharedResults] = {}


def shared_entries() -> dict[str, int]:
    """How many census results each cached function shares now (for tests and benches)."""
    return {name: len(results) for name, results in _SHARED.items() if len(results)}


def clear_shared() -> None:
    """Forget every shared census result (tests; a deploy never needs it)."""
    for results in _SHARED.values():
        results.clear()


def cached(*, max_entries: int = 256) -> Callable[[F], F]:
    """Decorator: cache `fn` by its arguments, per the dataset rule above.

    On the census: one result per argument set, shared by every session as the same object
    (callers never mutate a result: derive new frames), at most `max_entries` per function,
    least recently used dropped first. On an upload: this session's memo (MEMO_ENTRIES
    results for all functions together), gone with the session."""

    def decorate(fn: F) -> F:
        name = f"{fn.__module__}.{fn.__qualname__}"
        shared = _SHARED.setdefault(name, _SharedResults(max_entries))

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            token = (_token(args), _token(tuple(sorted(kwargs.items()))))
            if on_census():
                return shared.get(token, lambda: fn(*args, **kwargs))
            memo = _session_memo()
            key = (name, token)
            if key in memo:
                memo[key] = memo.pop(key)  # most recently used last
            else:
                while len(memo) >= MEMO_ENTRIES:
                    memo.pop(next(iter(memo)))
                memo[key] = fn(*args, **kwargs)
            return memo[key]

        return wrapper  # type: ignore[return-value]

    return decorate


def _token(value: Any) -> Any:
    """A hashable stand-in for an argument (numpy arrays, DataFrames, dicts and dataclasses
    by content)."""
    if isinstance(value, pd.DataFrame):
        hashed = pd.util.hash_pandas_object(value, index=True).to_numpy()
        return ("DataFrame", tuple(map(str, value.columns)), hashed.tobytes())
    if isinstance(value, dict):
        return ("dict", tuple((_token(k), _token(v)) for k, v in value.items()))
    if isinstance(value, (tuple, list)):
        return tuple(_token(item) for item in value)
    if hasattr(value, "tobytes") and hasattr(value, "dtype"):
        return (str(value.dtype), value.shape, value.tobytes())
    if hasattr(value, "__dataclass_fields__"):
        return (
            type(value).__name__,
            *(_token(getattr(value, f)) for f in value.__dataclass_fields__),
        )
    return value
