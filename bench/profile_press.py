"""Where a slider press goes in Chromium: the main thread's time per press of a lesson's main
slider, split by what spends it.

    python bench/profile_press.py                       # Laplace, coin-flip, approximate DP
    python bench/profile_press.py laplace clamping      # lessons whose URL contains these

Against a live server (started here, as bench_browser.py does), at 1280x800: the lesson is
opened, its main slider (the catalogue's `main_control`) pressed once to warm up, then
PRESSES presses (four right, four left, ...) twice: once under V8's sampling profiler (the
JavaScript by the bundle it comes from: React, emotion's CSS-in-JS, Vega, Markdown and
KaTeX, Streamlit's other code; the DOM calls that force a layout, by caller) and once under
a Chromium trace (the main thread's busy time, style, layout and paint, and the press's
wall time from the key to two painted frames after the run ended). Prints a Markdown table
and the DOM calls; asserts nothing (bench/README.md, "Where a slider press goes").
"""

from __future__ import annotations

import collections
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from browser_helpers import FINISHED, open_page  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS, serve_app  # noqa: E402
from lessons.catalogue import LESSONS  # noqa: E402

PRESSES = int(os.environ.get("PRESSES", 8))
DEFAULT = ("laplace", "coin-flip", "approximate-dp")
# Which area a sampled JavaScript frame belongs to, by its bundle's file name.
AREAS = (
    ("React", ("react-dom", "react.", "scheduler", "jsx-runtime")),
    ("emotion (CSS-in-JS)", ("emotion",)),
    ("Vega (embed, parse, render)", ("embed", "vega", "loadVegaEmbed", "ArrowVegaLiteChart")),
    ("Markdown and KaTeX", ("StreamlitMarkdown", "katex", "rehype", "remark", "micromark")),
)
NATIVE = {"(program)": "native (style, layout, paint, messages)", "(garbage collector)": "GC"}


def _area(url: str, function: str) -> str:
    name = url.rsplit("/", 1)[-1]
    if not name:
        if function in NATIVE:
            return NATIVE[function]
        return "idle" if function in ("(idle)", "(root)") else "DOM calls (forced layout)"
    for area, keys in AREAS:
        if any(key in name for key in keys):
            return area
    return "Streamlit's other code"


def _press(page: Page, thumb, count: int) -> list[float]:
    times = []
    for i in range(count):
        start = time.perf_counter()
        thumb.press("ArrowRight" if (i // 4) % 2 == 0 else "ArrowLeft")
        page.wait_for_timeout(60)
        page.wait_for_selector(FINISHED)
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        times.append((time.perf_counter() - start) * 1000)
        page.wait_for_timeout(500)
    return times


def profile(browser, page: Page, label: str) -> dict:
    thumb = page.locator('[data-testid="stSlider"]').filter(has_text=label).first
    thumb = thumb.get_by_role("slider").first
    thumb.focus()
    _press(page, thumb, 1)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    cdp.send("Profiler.start")
    _press(page, thumb, PRESSES)
    sampled = cdp.send("Profiler.stop")["profile"]
    nodes = {node["id"]: node for node in sampled["nodes"]}
    parent = {child: node["id"] for node in sampled["nodes"] for child in node.get("children", [])}
    areas: collections.Counter = collections.Counter()
    dom_calls: collections.Counter = collections.Counter()
    for sample, delta in zip(sampled["samples"], sampled["timeDeltas"], strict=True):
        frame = nodes[sample]["callFrame"]
        area = _area(frame["url"], frame["functionName"])
        areas[area] += delta
        if area == "DOM calls (forced layout)":
            caller = parent.get(sample)
            while caller is not None and not nodes[caller]["callFrame"]["url"]:
                caller = parent.get(caller)
            where = (
                "an inline <script>"
                if caller is None
                else (nodes[caller]["callFrame"]["url"].rsplit("/", 1)[-1])
            )
            dom_calls[f"{frame['functionName']} from {where}"] += delta
    browser.start_tracing(
        page=page, categories=["devtools.timeline", "disabled-by-default-devtools.timeline"]
    )
    times = _press(page, thumb, PRESSES)
    events = json.loads(browser.stop_tracing())["traceEvents"]
    threads = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M"
        and e.get("name") == "thread_name"
        and e["args"]["name"] == "CrRendererMain"
    }
    busy: dict = collections.defaultdict(collections.Counter)
    for e in events:
        if (e.get("pid"), e.get("tid")) in threads and e.get("ph") == "X":
            busy[(e["pid"], e["tid"])][e["name"]] += e.get("dur", 0)
    main = max(busy.values(), key=lambda kinds: kinds["RunTask"])
    per = 1000 * PRESSES
    times.sort()
    return {
        "median": statistics.median(times),
        "p90": times[int(0.9 * (len(times) - 1))],
        "busy": main["RunTask"] / per,
        "style": main["UpdateLayoutTree"] / per,
        "layout": main["Layout"] / per,
        "paint": (main["Paint"] + main["PrePaint"] + main["Layerize"]) / per,
        "areas": {area: us / per for area, us in areas.items() if area != "idle"},
        "dom_calls": {call: us / per for call, us in dom_calls.most_common(4)},
    }


def main() -> None:
    wanted = sys.argv[1:] or list(DEFAULT)
    lessons = [
        lesson
        for lesson in LESSONS
        if lesson.main_control and any(w in lesson.url_path for w in wanted)
    ]
    rows = []
    with (
        tempfile.TemporaryDirectory() as scratch,
        serve_app(Path(scratch)) as base_url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lesson in lessons:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            open_page(page, base_url, lesson.url_path)
            page.wait_for_timeout(1_500)
            rows.append((lesson, profile(browser, page, lesson.main_control)))
            page.close()
        browser.close()
    areas = sorted({area for _, row in rows for area in row["areas"]})
    print(f"\n# Where a slider press goes (Chromium, {os.cpu_count()} cores, {PRESSES} presses)\n")
    print(
        "| lesson | press median ms | p90 | main thread busy | style | layout | paint | "
        + " | ".join(areas)
        + " |"
    )
    print("|---|" + "---:|" * (6 + len(areas)))
    for lesson, row in rows:
        cells = [row["median"], row["p90"], row["busy"], row["style"], row["layout"], row["paint"]]
        cells += [row["areas"].get(area, 0.0) for area in areas]
        print(f"| {lesson.title} | " + " | ".join(f"{cell:.0f}" for cell in cells) + " |")
    print("\nDOM calls that force a layout, by caller (ms a press):")
    for lesson, row in rows:
        calls = ", ".join(f"{call} {ms:.1f}" for call, ms in row["dom_calls"].items())
        print(f"- {lesson.title}: {calls}")


if __name__ == "__main__":
    main()
