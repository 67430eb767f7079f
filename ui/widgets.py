"""Widgets every lesson shares: the ε slider, the random seed, the page header."""

from __future__ import annotations

import streamlit as st

DEFAULT_SEED = 2026

# Log-spaced, rounded ε values from 0.01 to 10: a select_slider over them behaves like a
# log-scale slider (equal steps multiply ε by roughly the same factor).
EPSILON_GRID: tuple[float, ...] = (
    0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7,
    1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 7.0, 10.0,
)  # fmt: skip

MORE_PRIVATE_LEFT = "← more private · less private →"
MORE_PRIVATE_RIGHT = "← less private · more private →"


def format_epsilon(epsilon: float) -> str:
    """ε as a short string: 0.01, 0.5, 1, 10."""
    return f"{epsilon:g}"


def epsilon_slider(
    key: str,
    *,
    default: float = 1.0,
    options: tuple[float, ...] = EPSILON_GRID,
    label: str = "Privacy loss ε",
    explanation: str | None = None,
    bind: str | None = "query-params",
) -> float:
    """A log-scale ε slider whose label says that smaller ε is more private. Bound to the
    URL under its key by default, so a copied link reopens the same ε."""
    return float(
        st.select_slider(
            f"{label}  ({MORE_PRIVATE_LEFT})",
            options=options,
            value=default,
            format_func=format_epsilon,
            key=key,
            bind=bind,
            help=explanation
            or "ε bounds how much one person's data can change what anyone sees. "
            "Smaller ε: more noise, more privacy.",
        )
    )


def seed() -> int:
    """The random seed that every chart on a page draws from (fixed, so a projector
    matches a handout).

    The one reader of the seed: the sidebar's "Random seed" input (ui/classroom.py, key
    "seed", also in the URL as ?seed=) and its "Re-roll" button write
    st.session_state["seed"]; without them (a page run on its own) it is DEFAULT_SEED."""
    return int(st.session_state.get("seed", DEFAULT_SEED))


def lesson_header(title: str, what_you_will_see: str) -> None:
    """The title and the one-paragraph 'what you will see' that opens every lesson."""
    st.title(title)
    st.markdown(f"**What you will see.** {what_you_will_see}")
