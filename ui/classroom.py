"""Classroom features shared by every lesson: the seed lock, presenter mode, the guard that
explains ignored link settings, and CSV downloads.

app.py calls, once per run and in this order:

    classroom.url_guard_start()   # first thing: remember the URL the run started with
    classroom.sidebar()           # the seed, re-roll and presenter controls
    ...  pg.run()                 # the lesson (its widgets are bound to the URL)
    classroom.url_guard_end()     # last thing: say which link settings were ignored

Shareable links. Widgets created with `bind="query-params"` keep their value in the URL
(the key is the parameter name; a value equal to the default is left out). Streamlit 1.67
silently drops a bound parameter whose value is invalid (`?seed=abc`, an ε that is not on
the slider, an unknown option) and uses the widget's default. `url_guard_end` finds those
parameters and shows a small notice instead of leaving the student puzzled.

How an ignored parameter is detected. `url_guard_start` snapshots `st.query_params`
before any widget exists. `url_guard_end` runs after the lesson's widgets have rendered
and looks at each parameter of the snapshot that has since disappeared from (or changed
in) the URL. It counts as ignored when

1. a widget of this run is bound to it (unknown parameters are left alone),
2. that widget was seeded from the URL in this run (it did not exist in the previous run,
   which is exactly when Streamlit reads a bound widget's value from the URL; later
   changes, such as "Re-roll" or a preset button, are the app's own and never reported),
3. and the URL's text does not parse, with the widget's own parser, to the value the
   widget now has (a valid value equal to the default is dropped from the URL too, and is
   not reported).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from ui import widgets

PRESENTER_CSS = Path(__file__).with_name("presenter.css")

SEED_KEY = "seed"
PRESENT_KEY = "present"
REROLL_KEY = "seed_reroll"
SEED_MAX = 999_999  # six digits: easy to read off a projector or to print on a handout
_SNAPSHOT_KEY = "_classroom_url_snapshot"


# --- The sidebar -------------------------------------------------------------------------------


def next_seed(current: int) -> int:
    """The seed "Re-roll" moves to from `current`: drawn from a generator seeded with
    `current`, so the same presses give the same seeds on every machine; never `current`."""
    drawn = int(np.random.default_rng(current).integers(0, SEED_MAX + 1))
    return drawn if drawn != current else (drawn + 1) % (SEED_MAX + 1)


def _reroll() -> None:
    st.session_state[SEED_KEY] = next_seed(widgets.seed())


def sidebar() -> None:
    """The classroom controls in the sidebar: random seed, re-roll, presenter mode.

    The seed lives in `st.session_state["seed"]` (read it with `ui.widgets.seed()`, the one
    reader) and in the URL as `?seed=`; presenter mode is `?present=true`."""
    with st.sidebar:
        st.markdown("**Classroom**")
        st.number_input(
            "Random seed",
            min_value=0,
            max_value=SEED_MAX,
            value=widgets.DEFAULT_SEED,
            step=1,
            key=SEED_KEY,
            bind="query-params",
            help="Every chart draws its randomness from this seed, so the same seed shows "
            "the same charts on every screen (a projector matches a printed handout). "
            "It is part of the page's link.",
        )
        st.button(
            "Re-roll",
            key=REROLL_KEY,
            on_click=_reroll,
            icon=":material/casino:",
            help="Draw a new seed: every chart redraws its random samples.",
        )
        present = st.toggle(
            "Presenter mode",
            key=PRESENT_KEY,
            bind="query-params",
            help="Larger text, numbers and charts for a projector; hides the toolbar. "
            "Add ?present=true to a link to open it this way.",
        )
    if present:
        st.html(PRESENTER_CSS)


def presenting() -> bool:
    """Whether presenter mode is on (for a page that wants to adapt, e.g. hide an aside)."""
    return bool(st.session_state.get(PRESENT_KEY, False))


# --- Invalid or tampered link settings ----------------------------------------------------------


def url_guard_start() -> None:
    """Remember the query parameters this run starts with (call before any widget)."""
    st.session_state[_SNAPSHOT_KEY] = st.query_params.to_dict()


def _internal_state() -> Any:
    """Streamlit's SessionState behind st.session_state (None if unavailable)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    safe = getattr(ctx, "session_state", None)
    return getattr(safe, "_state", None)


def _means(raw: str, metadata: Any, value: Any) -> bool:
    """Whether the URL text `raw` is how the widget itself writes `value` into the URL
    (parsed with the widget's own parser and compared with its own serializer, so that an
    out-of-range or unknown value, which the widget replaced by its default, does not
    count)."""
    from streamlit.runtime.state.query_params import parse_url_param

    try:
        parsed = parse_url_param(raw, metadata.value_type)
        return bool(metadata.serializer(value) == parsed)
    except (ValueError, TypeError, IndexError, KeyError):
        return False


def _shown(value: Any) -> str:
    """A widget value as a student would type it: 1 not 1.0, a range as 1–5."""
    if isinstance(value, (list, tuple)):
        return "–".join(_shown(item) for item in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def ignored_params(before: dict[str, str], after: dict[str, str]) -> list[tuple[str, str, str]]:
    """(name, the URL's value, what the page uses instead) for every link setting of
    `before` that this run ignored; "the default" when the widget fell back to its default.
    See the module docstring for the rule. Empty when nothing was dropped or changed."""
    suspects = [key for key, raw in before.items() if after.get(key) != raw]
    if not suspects:
        return []
    state = _internal_state()
    query_params = getattr(state, "query_params", None)
    if query_params is None:  # a Streamlit without bound widgets: nothing to report
        return []
    ignored = []
    for key in suspects:
        binding = query_params.get_binding_for_param(key)
        if binding is None or binding.widget_id in state._old_state:
            continue
        metadata = state._new_widget_state.widget_metadata.get(binding.widget_id)
        if metadata is None or key not in st.session_state:
            continue
        value = st.session_state[key]
        if not _means(before[key], metadata, value):
            default = metadata.deserializer(None)
            instead = "the default" if value == default else _shown(value)
            ignored.append((key, before[key], instead))
    return ignored


def notice(ignored: list[tuple[str, str, str]]) -> str:
    """The sentence shown for ignored link settings."""
    if len(ignored) == 1:
        key, raw, instead = ignored[0]
        return f"Ignored an invalid link setting: {key}={raw} — using {instead}."
    parts = "; ".join(f"{key}={raw} (using {instead})" for key, raw, instead in ignored)
    return f"Ignored invalid link settings: {parts}."


def url_guard_end() -> list[tuple[str, str, str]]:
    """Show a small notice (a toast, and a caption in the sidebar) for every link setting
    this run ignored — never an error — and return them. Call after the page has run."""
    before = st.session_state.pop(_SNAPSHOT_KEY, None)
    if not before:
        return []
    try:
        ignored = ignored_params(before, st.query_params.to_dict())
    except Exception:  # noqa: BLE001 — a notice must never break a lesson
        return []
    if ignored:
        message = notice(ignored)
        st.toast(message, icon=":material/link_off:")
        st.sidebar.caption(message)
    return ignored


# --- Downloads ---------------------------------------------------------------------------------


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
