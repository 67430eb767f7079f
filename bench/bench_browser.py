"""What a student feels in a real browser: keypress to updated chart, bytes per rerun, page
switches (Debian Chromium through Playwright, against a live `streamlit run`).

    python bench/bench_browser.py            # every lesson; prints Markdown tables
    python bench/bench_browser.py clamping   # only lessons whose url_path contains "clamping"

Per lesson, at 1280x800: open it, focus the slider its catalogue entry names as
`main_control`, press ArrowRight once to warm up, then PRESSES more times in one direction
(ArrowRight, turning to ArrowLeft at the slider's end), so that almost every press asks for
a value the session has not seen. (Alternating Left/Right would flatter a page: Streamlit's
browser cache then answers every message over 10 KB with a reference to its earlier copy.)
A press is timed from just before the key goes down until the app is idle again (the run it
started has finished, no element is stale) and two animation frames have
painted, so the chart's redraw is inside the time. Bytes are every websocket frame the
server sent for that press. Page switches: from Home, a click on each lesson's link in the
navigation to the end of that page's first run.

Targets: keypress median <= 250 ms and p90 <= 400 ms, <= 30 KB per rerun, page
switch <= 1 s median. Nothing is asserted: timings depend on the machine, so they are printed.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import streamlit as st  # noqa: E402  (after the sys.path line above)
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402

from browser_helpers import RAN_SINCE, RUN_TIMEOUT_MS, open_page, runs_seen  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS, serve_app  # noqa: E402
from lessons.catalogue import LESSONS, Lesson  # noqa: E402

PRESSES = 10
PRESS_TAKEN_MS = 15_000  # a press that starts no run by then is reported, not timed
SWITCHES = 3
CLICK_TAKEN_MS = 15_000
VIEWPORT = {"width": 1280, "height": 800}

# One JS check for "a run has started or finished since the counts [s, f] were read, and
# the app is idle": polled every animation frame, so the time is exact to a frame (no
# 100 ms poll steps). The counts are browser_helpers' (a fast run may never show "running").
_IDLE_AFTER = f"""
(seen) => ({RAN_SINCE})(seen)
  && document.querySelector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]'
       + '[data-test-script-state="notRunning"]') !== null
  && document.querySelector('[data-testid="stMain"]') !== null
  && document.querySelector('[data-stale="true"]') === null
"""
_TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


class Wire:
    """Bytes the server sends over the page's websocket."""

    def __init__(self, page: Page) -> None:
        self.received = 0
        page.on("websocket", self._watch)

    def _watch(self, socket) -> None:
        socket.on("framereceived", self._count)

    def _count(self, payload) -> None:
        self.received += len(payload)


def idle_after(page: Page, before: list[int], timeout_ms: int = RUN_TIMEOUT_MS) -> None:
    page.wait_for_function(_IDLE_AFTER, arg=before, polling="raf", timeout=timeout_ms)
    page.evaluate(_TWO_FRAMES)


def press_times(page: Page, wire: Wire, lesson: Lesson) -> tuple[list[float], list[int]]:
    """Milliseconds and bytes for PRESSES key presses on the lesson's main slider."""
    slider = page.locator('[data-testid="stSlider"]').filter(has_text=lesson.main_control)
    thumb = slider.first.get_by_role("slider").last  # a range slider: move its upper end
    thumb.scroll_into_view_if_needed()
    times, sizes = [], []
    key = "ArrowRight"
    for i in range(PRESSES + 1):
        # The thumb is an <input type="range">: turn back at its end (a press there would
        # start no run).
        if thumb.evaluate("e => Number(e.value) >= Number(e.max)"):
            key = "ArrowLeft"
        idle_after(page, [-1, -1])
        before, sent = runs_seen(page), wire.received
        thumb.focus()
        start = time.perf_counter()
        thumb.press(key)
        try:
            idle_after(page, before, timeout_ms=PRESS_TAKEN_MS)
        except PlaywrightTimeoutError:  # the press started no run (seen once on a busy box)
            print(f"  a press on {lesson.title} started no run; not timed", flush=True)
            continue
        if i:  # the first press warms up the page's caches
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(wire.received - sent)
    return times, sizes


def switch_times(page: Page, base_url: str, lesson: Lesson) -> tuple[list[float], int]:
    """Milliseconds from a click on the lesson's navigation link (on Home) to its first run's
    end, SWITCHES times; and how many clicks started no run within CLICK_TAKEN_MS (seen now
    and then on a busy machine: such a click is counted, not timed, and tried again)."""
    times, missed = [], 0
    while len(times) < SWITCHES and missed < SWITCHES:
        open_page(page, base_url, "")
        link = page.locator('[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]').filter(
            has_text=lesson.title
        )
        before = runs_seen(page)
        start = time.perf_counter()
        link.first.click()
        try:
            idle_after(page, before, timeout_ms=CLICK_TAKEN_MS)
        except PlaywrightTimeoutError:
            missed += 1
            continue
        times.append((time.perf_counter() - start) * 1000)
    return times, missed


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


def main() -> None:
    chosen = [lesson for lesson in LESSONS if any(a in lesson.url_path for a in sys.argv[1:])]
    lessons = chosen or list(LESSONS)
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: sudo apt-get install chromium")
    rows, switches = [], []
    with (
        tempfile.TemporaryDirectory() as log_dir,
        serve_app(Path(log_dir)) as base_url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        for lesson in lessons:
            print(f"timing {lesson.title} ...", file=sys.stderr, flush=True)
            context = browser.new_context(viewport=VIEWPORT)
            page = context.new_page()
            wire = Wire(page)
            switches.append((lesson, *switch_times(page, base_url, lesson)))
            if lesson.main_control:
                open_page(page, base_url, lesson.url_path)
                rows.append((lesson, *press_times(page, wire, lesson)))
            context.close()
        browser.close()

    print("# Keypress to updated chart (Chromium)\n")
    print(
        f"Machine: {os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}, Streamlit {st.__version__}, viewport 1280x800. "
        f"{PRESSES} presses per lesson after one warm-up; targets: median <= 250 ms, "
        "p90 <= 400 ms, <= 30 KB per rerun.\n"
    )
    print("| lesson | slider | median ms | p90 ms | max ms | KB per rerun (median) |")
    print("|---|---|---:|---:|---:|---:|")
    for lesson, times, sizes in rows:
        print(
            f"| {lesson.title} | {lesson.main_control} | {statistics.median(times):,.0f} | "
            f"{p90(times):,.0f} | {max(times):,.0f} | {statistics.median(sizes) / 1000:,.1f} |"
        )
    print("\n# Page switch from Home (Chromium)\n")
    print(f"{SWITCHES} clicks per lesson on its navigation link; target: median <= 1 s.\n")
    print("| lesson | median ms | max ms | clicks not taken |")
    print("|---|---:|---:|---:|")
    for lesson, times, missed in switches:
        if not times:
            print(f"| {lesson.title} | – | – | {missed} |")
            continue
        print(
            f"| {lesson.title} | {statistics.median(times):,.0f} | {max(times):,.0f} | {missed} |"
        )


if __name__ == "__main__":
    main()
