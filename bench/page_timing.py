"""Shared by the lesson benches: a page's first run, warm reruns and slider moves under
AppTest, in milliseconds (nothing asserted)."""

from __future__ import annotations

import logging
import statistics
import time

MOVES = (0.5, 2.0, 0.5, 2.0, 1.0, 0.5, 2.0)  # ε values a select slider moves between


def page_timings(page_file: str, slider_key: str, reruns: int = 15) -> dict:
    """Run lessons/`page_file` cold (shared caches cleared first), then `reruns` plain
    reruns, then move the select slider `slider_key` through MOVES once to fill its caches
    and once more timed. Returns the AppTest and the three timings (first, median rerun,
    median move) in ms."""
    from apptest_helpers import hosted_lesson
    from ui import datasets

    datasets.clear_shared()
    start = time.perf_counter()
    at = hosted_lesson(page_file, timeout_s=120)
    first = 1000 * (time.perf_counter() - start)
    times = []
    for _ in range(reruns):
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
    slider = at.select_slider(key=slider_key)
    for value in MOVES:
        slider.set_value(value).run()
    moves = []
    for value in MOVES:
        start = time.perf_counter()
        slider.set_value(value).run()
        moves.append(time.perf_counter() - start)
    return {
        "at": at,
        "first": first,
        "rerun": 1000 * statistics.median(times),
        "move": 1000 * statistics.median(moves),
    }


def median_ms(function, repeats: int = 5) -> float:
    """The median of `repeats` timed calls of `function`, in ms."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def once_ms(function) -> float:
    """One timed call of `function`, in ms."""
    start = time.perf_counter()
    function()
    return 1000 * (time.perf_counter() - start)


def row(what: str, ms: float, target: str = "") -> None:
    """A row of a bench's Markdown table: what, ms, the target."""
    print(f"| {what} | {ms:,.1f} | {target} |", flush=True)


def quiet_script_context() -> None:
    """Outside `streamlit run`, cached functions log "missing ScriptRunContext": noise in a
    bench's output."""
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
        lambda record: "missing ScriptRunContext" not in record.getMessage()
    )
