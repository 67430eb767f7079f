"""Shareable links, and the notice for a link setting the page could not use.

Widgets created through `ui.controls` are bound to the URL (`bind="query-params"`): the key
is the parameter name, and a value equal to the default is left out. Streamlit silently drops
a bound parameter whose value is invalid (`?seed=abc`, an ε that is not on the slider, an
unknown option) and uses the widget's default. The guard finds those and says so.

app.py calls, once per run and in this order:

    links.guard_start()   # first thing: the URL this run starts with
    ...                   # the page; ui.controls registers every bound widget it creates
    links.guard_end()     # last thing: a notice for every link setting that was ignored

Only Streamlit's documented API is used. A parameter of the starting URL counts as ignored
when

1. a widget of this run, created through ui.controls, is bound to it (unknown parameters
   are left alone);
2. that widget was read from the URL in this run: its key was not in `st.session_state`
   when the run started (a widget that existed in the previous run keeps its own value, and
   a later change, such as "Re-roll" or a preset button, is the app's own);
3. the parameter is no longer in the URL as it was (Streamlit rewrote or removed it);
4. and the URL's text does not mean the value the widget now has (the widget's `means`
   rule, recorded by ui.controls: a valid value equal to the default is dropped from the URL
   too, and is not reported).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from data.upload import shorten
from ui import text

SNAPSHOT_KEY = "links_snapshot"  # {param: [values]} of the URL this run started with
EXISTING_KEY = "links_existing"  # keys already in session state when the run started
REGISTRY_KEY = "links_bound"  # {key: Binding} of the bound widgets this run created
# A link's text the notice repeats is cut to this (a value of a link can be kilobytes long).
SHOWN_CHARS = 100


@dataclass(frozen=True)
class Binding:
    """A bound widget: whether URL text means a value (`means(texts, value)`), its default."""

    means: Callable[[list[str], Any], bool]
    default: Any


def register(key: str, binding: Binding) -> None:
    """Record a bound widget of this run (ui.controls calls it for every widget it makes)."""
    st.session_state.setdefault(REGISTRY_KEY, {})[key] = binding


def last_bound() -> dict[str, Any]:
    """In a callback (before the next run): the bound widgets the last run created, the
    page's and the sidebar's, each key with its default."""
    return {key: b.default for key, b in st.session_state.get(REGISTRY_KEY, {}).items()}


def bound_this_run() -> set[str]:
    """Keys of the URL-bound widgets this run has created so far (e.g. the sidebar's seed)."""
    return set(st.session_state.get(REGISTRY_KEY, {}))


def unbound_params() -> dict[str, list[str]]:
    """The URL's parameters that no widget of this run is bound to yet, every value kept
    (a range is two values): what a page switch may carry to the next page. Streamlit
    refuses to set a parameter bound to a widget, and such a widget keeps its own."""
    bound = bound_this_run()
    return {key: values for key, values in _query_params().items() if key not in bound}


def _query_params() -> dict[str, list[str]]:
    return {key: st.query_params.get_all(key) for key in st.query_params}


def guard_start() -> None:
    """Remember the query parameters this run starts with (call before any widget)."""
    before = _query_params()
    st.session_state[SNAPSHOT_KEY] = before
    st.session_state[EXISTING_KEY] = {key for key in before if key in st.session_state}
    st.session_state[REGISTRY_KEY] = {}


def rename_params(renamed: dict[str, str]) -> None:
    """First thing on a page: a link made before a widget key was renamed opens the same
    view. Each old parameter (`renamed`: old name → new name) moves to its new name, every
    value kept, unless the link has the new name already; then the page runs again, so that
    its widgets read the link under the new names (a widget reads the link as a run starts)
    and the guard judges it there (an invalid value is reported as `new=value`)."""
    moved = False
    for old, new in renamed.items():
        if old not in st.query_params:
            continue
        values = st.query_params.get_all(old)
        del st.query_params[old]
        if new not in st.query_params:
            st.query_params[new] = values if len(values) > 1 else values[0]
        moved = True
    if moved:
        st.rerun()


def shown(value: Any) -> str:
    """A widget value as a student would type it: 1 not 1.0, a range as 1–5."""
    if isinstance(value, (list, tuple)):
        return "–".join(shown(item) for item in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def ignored_params(
    before: dict[str, list[str]],
    after: dict[str, list[str]],
    existing: set[str],
    bound: dict[str, Binding],
    values: dict[str, Any],
) -> list[tuple[str, str, str]]:
    """(name, the URL's value, what the page uses instead) for every link setting of
    `before` that this run ignored; "the default" when the widget fell back to its default.
    See the module docstring for the rule. Pure: the caller passes the widgets' values."""
    ignored = []
    for key, raw in before.items():
        binding = bound.get(key)
        if binding is None or key in existing or after.get(key) == raw or key not in values:
            continue
        value = values[key]
        try:
            meant = binding.means(raw, value)
        except (ValueError, TypeError, OverflowError):
            meant = False
        if not meant:
            instead = "the default" if value == binding.default else shown(value)
            ignored.append((key, ",".join(raw), instead))
    return ignored


def notice(ignored: list[tuple[str, str, str]]) -> str:
    """The sentence shown for ignored link settings (markdown: the URL's text in it is made
    plain with `text.plain`, so a link value can never bold, link or load anything, and cut
    to SHOWN_CHARS, so a long one cannot fill the screen)."""
    shown = [
        (text.plain(key), text.plain(shorten(raw, SHOWN_CHARS)), text.plain(instead))
        for key, raw, instead in ignored
    ]
    if len(shown) == 1:
        key, raw, instead = shown[0]
        return f"Ignored an invalid link setting: {key}={raw} — using {instead}."
    parts = "; ".join(f"{key}={raw} (using {instead})" for key, raw, instead in shown)
    return f"Ignored invalid link settings: {parts}."


def guard_end() -> list[tuple[str, str, str]]:
    """Show a small notice (a toast, and a caption in the sidebar) for every link setting
    this run ignored — never an error — and return them. Call after the page has run."""
    before = st.session_state.pop(SNAPSHOT_KEY, None)
    if not before:
        return []
    bound: dict[str, Binding] = st.session_state.get(REGISTRY_KEY, {})
    values = {key: st.session_state[key] for key in bound if key in st.session_state}
    ignored = ignored_params(
        before, _query_params(), st.session_state.get(EXISTING_KEY, set()), bound, values
    )
    if ignored:
        message = notice(ignored)
        st.toast(message, icon=":material/link_off:")
        st.sidebar.caption(message)
    return ignored
