"""One session may not flood the server: a token bucket per session, checked first thing in
app.py, so that one phone cannot stall a room (one process runs every session's script on
one interpreter lock).

Every full run of the app takes a token; tokens come back at RUNS_PER_SECOND, up to BURST.
An honest student never runs out: dragging a slider or holding an arrow key sends a few
reruns a second, and the bucket starts full. A tab that sends reruns faster (a modified
client, a script) gets a run that stops at once with a request to slow down: it costs the
server a fraction of a page's run (bench/bench_flood.py measures both). What it does not
cover: a fragment's own reruns do not run app.py (each costs only its section)."""

from __future__ import annotations

import time

import streamlit as st

RUNS_PER_SECOND = 10.0
BURST = 60.0
WARNED_KEY = "pace_warned"  # this burst has been told to slow down
KEY = "pace_bucket"  # (tokens, monotonic time of the last refill)


def take(
    key: str, cost: float, *, capacity: float, per_second: float, now: float | None = None
) -> float:
    """A token bucket of this session's, kept in its state under `key` as (tokens, monotonic
    time of the last refill): full at the start, `per_second` tokens back, at most
    `capacity`. Takes `cost` and returns 0.0, or takes nothing and returns the seconds until
    `cost` is there. (ui/userdata.py pays for reading uploads from one, in bytes.)"""
    now = time.monotonic() if now is None else now
    tokens, last = st.session_state.get(key, (capacity, now))
    tokens = min(capacity, tokens + max(now - last, 0.0) * per_second)
    paid = tokens >= cost
    st.session_state[key] = (tokens - cost if paid else tokens, now)
    return 0.0 if paid else (cost - tokens) / per_second


def allow_run(now: float | None = None) -> bool:
    """Take one token for this run: False when this session has none left."""
    allowed = take(KEY, 1.0, capacity=BURST, per_second=RUNS_PER_SECOND, now=now) == 0.0
    if allowed:
        st.session_state.pop(WARNED_KEY, None)
    return allowed


def slow_down() -> None:
    """The over-budget run: it stops at once. The first of a burst says why (one line);
    the rest send nothing, which is what keeps a flood cheap: Streamlit still starts a run
    for each rerun message (~0.7 ms of the interpreter each, bench/bench_flood.py), but the
    run does nothing more."""
    if not st.session_state.get(WARNED_KEY):
        st.session_state[WARNED_KEY] = True
        st.warning(
            "This tab asked for more updates than the server gives one student. Wait a "
            "second, then move the control again.",
            icon=":material/hourglass_top:",
        )
    st.stop()
