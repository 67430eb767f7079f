"""The floor under a slider press in Chromium: what Streamlit's own round trip costs on this
machine, and what each element a press re-sends adds to it.

    python bench/bench_press_floor.py

A small app (written to a temporary folder) holds one fragment with an ε slider and, by its
link parameters: one markdown line (`?chart=0`), or Laplace's histogram drawn by
`ui.template.Template.show` (in place, as the lessons draw it), plus `md` markdown paragraphs,
`metric` metrics, `latex` formulas or `cols` rows of two columns. Each variant is pressed as
bench_browser.py presses a lesson (10 presses after a warm-up, two rounds, interleaved) and
its median and p90, and the main thread's busy time a press, are printed. Nothing is
asserted (bench/README.md, "Keypress to chart: in place").
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

import bench_browser  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from conftest import CHROMIUM, CHROMIUM_ARGS, serve_app  # noqa: E402

APP = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
import streamlit as st
from lessons.laplace import charts, model
from ui import controls, text

asked = {{name: int(st.query_params.get(name, default)) for name, default in
         (("chart", 1), ("md", 0), ("metric", 0), ("latex", 0), ("cols", 0))}}
TRUTH = 14_237


@st.fragment
def section() -> None:
    epsilon = controls.epsilon_slider(key="floor_eps")
    if not asked["chart"]:
        st.markdown(f"ε = {{text.number(epsilon)}}")
    else:
        bins, _, _, _ = model.histogram(TRUTH, epsilon, 2_000, 50, 1, False)
        charts.histogram(TRUTH, 50).show(
            title=f"2,000 noisy answers at ε = {{text.number(epsilon)}}",
            alt=f"Histogram of 2,000 noisy answers at ε = {{text.number(epsilon)}}.",
            bins=bins,
        )
    for i in range(asked["md"]):
        st.markdown(f"Paragraph {{i}}: the scale is **{{text.number(1 / epsilon)}}**, and more.")
    for i in range(asked["metric"]):
        st.metric(f"Metric {{i}}", text.number(i / epsilon))
    for _ in range(asked["latex"]):
        st.latex(r"\\Pr[K = k] = \\frac{{1 - e^{{-\\varepsilon}}}}{{1 + e^{{-\\varepsilon}}}}")
    for _ in range(asked["cols"]):
        left, right = st.columns(2)
        left.write("left")
        right.write("right")


section()
"""
VARIANTS = ("?chart=0", "?chart=1", "?md=30", "?metric=15", "?latex=5", "?cols=10")
ROUNDS = 2


class Variant:
    """What bench_browser.timed_presses reads of a lesson."""

    main_control = "Privacy loss ε"

    def __init__(self, query: str) -> None:
        self.url_path = query
        self.title = query


def main() -> None:
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: sudo apt-get install chromium")
    times: dict[str, list[float]] = {query: [] for query in VARIANTS}
    busy: dict[str, list[float]] = {query: [] for query in VARIANTS}
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "floor.py"
        script.write_text(APP, encoding="utf-8")
        with serve_app(Path(folder), script=script) as base_url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            for _ in range(ROUNDS):
                for query in VARIANTS:
                    pressed = bench_browser.timed_presses(browser, base_url, Variant(query))
                    times[query] += pressed.times
                    busy[query] += pressed.busy
            browser.close()
    print("# The floor under a slider press (Chromium)\n")
    print(
        f"{os.cpu_count()} cores; {ROUNDS} x {bench_browser.PRESSES} presses per variant, "
        "interleaved.\n"
    )
    print("| the fragment holds, beside its slider | median ms | p90 ms | main thread busy ms |")
    print("|---|---:|---:|---:|")
    words = {
        "?chart=0": "one markdown line",
        "?chart=1": "one chart, updated in place",
        "?md=30": "the chart and 30 markdown paragraphs",
        "?metric=15": "the chart and 15 metrics",
        "?latex=5": "the chart and 5 formulas",
        "?cols=10": "the chart and 10 rows of two columns",
    }
    for query, pressed in times.items():
        print(
            f"| {words[query]} | {statistics.median(pressed):,.0f} | "
            f"{bench_browser.p90(pressed):,.0f} | {statistics.median(busy[query]):,.0f} |"
        )


if __name__ == "__main__":
    main()
