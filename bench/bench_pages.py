"""Time how long each page takes to rerun after a slider moves (Streamlit AppTest, no browser).

For every page in the navigation: one warm-up run, then RERUNS reruns, each after moving
the page's main slider (the catalogue's main_control) to the other of two neighbouring
values; a page without a slider gets plain reruns. Prints a Markdown table; asserts
nothing. Run with `make bench` from the repository root.
"""

from __future__ import annotations

import contextlib
import logging
import os
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lessons.catalogue import Lesson, all_pages  # noqa: E402  (after the sys.path line above)

RERUNS = 20
TIMEOUT_S = 120


def main_slider(at: AppTest, label: str = ""):
    """The lesson's main slider (the first whose label contains `label`, the catalogue's
    main_control), else the first slider or select_slider in page order."""
    for node in (*at.main, *at.sidebar):
        if getattr(node, "type", None) in ("slider", "select_slider") and label in node.label:
            return node
    return None


def neighbour_value(widget):
    """A value one step away from the widget's current value, or None if unknown."""
    current = widget.value
    if widget.type == "slider":
        if isinstance(current, tuple | list):  # a range slider: move its upper end
            low, high = current
            step_high = high + widget.step if high + widget.step <= widget.max else low
            return (low, step_high) if step_high > low else None
        up = current + widget.step
        return up if up <= widget.max else current - widget.step
    # select_slider: options are the *formatted* labels; find a value that formats to the
    # label next to the current one (works for numbers and strings formatted plainly).
    labels = widget.options
    index = labels.index(str(widget.format_func(current)))
    target = labels[index + 1] if index + 1 < len(labels) else labels[index - 1]
    for candidate in (*_numbers(target), target):
        with contextlib.suppress(Exception):  # format_func may reject the wrong type
            if str(widget.format_func(candidate)) == target:
                return candidate
    return None


def _numbers(text: str) -> list[float | int]:
    found: list[float | int] = []
    for convert in (int, float):
        with contextlib.suppress(ValueError):
            found.append(convert(text.replace(",", "")))  # "1,000" is a thousands separator
    return found


def bench_page(lesson: Lesson) -> tuple[str, list[float]]:
    at = AppTest.from_file(str(lesson.path), default_timeout=TIMEOUT_S).run()
    if at.exception:
        return "(page raised an exception)", []
    widget = main_slider(at, lesson.main_control)
    other = neighbour_value(widget) if widget is not None else None
    if other is None:
        values, moved = None, "(no slider: plain rerun)"
    else:
        values = (other, widget.value)
        moved = f"{widget.type} “{widget.label.split('(')[0].strip()}”"
    times = []
    for i in range(RERUNS):
        if values is not None:
            main_slider(at, lesson.main_control).set_value(values[i % 2])
        start = time.perf_counter()
        at.run()
        times.append((time.perf_counter() - start) * 1000)
    return moved, times


def main() -> None:
    # AppTest runs outside `streamlit run`; its "missing ScriptRunContext" notes are noise here.
    warnings.simplefilter("ignore")
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
        lambda record: "missing ScriptRunContext" not in record.getMessage()
    )
    print("# Page reruns after a slider move (AppTest)\n")
    print(
        f"Machine: {os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}, Streamlit {st.__version__}. {RERUNS} reruns per page "
        "after one warm-up run; times in ms.\n"
    )
    print("| page | widget moved | median ms | p90 ms | max ms |")
    print("|---|---|---:|---:|---:|")
    for lesson in all_pages():
        moved, times = bench_page(lesson)
        if not times:
            print(f"| {lesson.title} | {moved} | – | – | – |")
            continue
        p90 = statistics.quantiles(times, n=10)[-1]
        print(
            f"| {lesson.title} | {moved} | {statistics.median(times):,.1f} | "
            f"{p90:,.1f} | {max(times):,.1f} |"
        )


if __name__ == "__main__":
    main()
