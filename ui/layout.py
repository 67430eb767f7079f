"""How a section lays out what a press re-sends, with as few elements as it can: every element
in a fragment is sent again and rendered again at each press, changed or not, at about 1 ms
each (bench/README.md, "Why no lesson is at 100 ms yet").

- `metrics`: a grid of metrics, two to a row, in one block (two `st.columns(2)` rows of
  metrics were six blocks around four metrics);
- `lazy_expander`: an expander whose body is built and sent only while it is open
  (Streamlit's documented lazy expander, as the code snippets and "Show the numbers")."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

import streamlit as st

METRICS_KEY = "pp-metrics-"  # its CSS class, st-key-pp-metrics-<name> (ui/style.css: 2 a row)


def metrics(key: str, items: Sequence[tuple[str, str]], *, helps: dict[str, str] | None = None):
    """`items` (label, value) as metrics, two to a row on every screen, in one container
    keyed `key` (unique on the page); `helps`: a metric's tooltip, by its label."""
    helps = helps or {}
    with st.container(horizontal=True, key=f"{METRICS_KEY}{key}", gap="small"):
        for label, value in items:
            st.metric(label, value, help=helps.get(label))


@contextlib.contextmanager
def lazy_expander(label: str, *, key: str, icon: str | None = None) -> Iterator[bool]:
    """`with lazy_expander(label, key=…) as open:` an expander; build its body only `if
    open` (a closed one sends only its header)."""
    with st.expander(label, icon=icon, key=key, on_change="rerun") as box:
        yield box.open
