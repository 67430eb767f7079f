"""Time how long each page takes to rerun after a slider moves (Streamlit AppTest, no browser).

For every page in the navigation: one warm-up run, then RERUNS reruns, each after moving
the page's main slider (the catalogue's main_control) to the other of two neighbouring
values — next to its default, and at both of its ends ("at the widget
extremes"); a page without a slider gets plain reruns. Prints a Markdown table; asserts
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


def _as_value(widget, label: str):
    """The value a select_slider shows as `label` (its options are the formatted labels)."""
    for candidate in (*_numbers(label), label):
        with contextlib.suppress(Exception):  # format_func may reject the wrong type
            if str(widget.format_func(candidate)) == label:
                return candidate
    return None


def value_pairs(widget) -> dict[str, tuple]:
    """Two neighbouring values of the widget near its default, at its low end and at its
    high end (a range slider moves its upper end; at the low end, its lower end)."""
    current = widget.value
    if widget.type == "slider":
        step, low, high = widget.step, widget.min, widget.max
        if isinstance(current, tuple | list):
            lower, upper = current
            up = upper + step if upper + step <= high else upper - step
            return {
                "default": ((lower, up), tuple(current)),
                "lowest": ((low, low + step), (low, low + 2 * step)),
                "highest": ((high - 2 * step, high), (high - 2 * step, high - step)),
            }
        up = current + step if current + step <= high else current - step
        return {
            "default": (up, current),
            "lowest": (low, low + step),
            "highest": (high, high - step),
        }
    labels = widget.options
    index = labels.index(str(widget.format_func(current)))
    nearby = labels[index + 1] if index + 1 < len(labels) else labels[index - 1]
    pairs = {
        "default": (nearby, labels[index]),
        "lowest": (labels[0], labels[1]),
        "highest": (labels[-1], labels[-2]),
    }
    values = {
        name: tuple(_as_value(widget, label) for label in pair) for name, pair in pairs.items()
    }
    return {name: pair for name, pair in values.items() if None not in pair}


def _numbers(text: str) -> list[float | int]:
    found: list[float | int] = []
    for convert in (int, float):
        with contextlib.suppress(ValueError):
            found.append(convert(text.replace(",", "")))  # "1,000" is a thousands separator
    return found


def bench_page(lesson: Lesson) -> list[tuple[str, list[float]]]:
    """(what moved, rerun times in ms) for each position of the main slider."""
    at = AppTest.from_file(str(lesson.path), default_timeout=TIMEOUT_S).run()
    if at.exception:
        return [("(page raised an exception)", [])]
    widget = main_slider(at, lesson.main_control)
    if widget is None:
        return [("(no slider: plain rerun)", _reruns(at, lesson, None))]
    name = f"{widget.type} “{widget.label.split('(')[0].strip()}”"
    return [
        (f"{name}, {where}", _reruns(at, lesson, pair))
        for where, pair in value_pairs(widget).items()
    ]


def _reruns(at: AppTest, lesson: Lesson, values: tuple | None) -> list[float]:
    if values is not None:  # one warm-up at this position
        main_slider(at, lesson.main_control).set_value(values[1])
        at.run()
    times = []
    for i in range(RERUNS):
        if values is not None:
            main_slider(at, lesson.main_control).set_value(values[i % 2])
        start = time.perf_counter()
        at.run()
        times.append((time.perf_counter() - start) * 1000)
    return times


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
        for moved, times in bench_page(lesson):
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
