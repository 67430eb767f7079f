"""What a student feels in a real browser: keypress to updated chart, bytes per rerun, page
switches (Debian Chromium through Playwright, against a live `streamlit run`).

    python bench/bench_browser.py            # every lesson; prints Markdown tables
    python bench/bench_browser.py clamping   # only lessons whose url_path contains "clamping"
    python bench/bench_browser.py --against HEAD~1   # back to back with an earlier commit
    python bench/bench_browser.py "coin:True share"  # another slider (or a button) of a lesson

With `--against REV` (as `make bench` runs it, BENCH_BASE=HEAD~1 unless told), REV is checked
out in a temporary git worktree and served beside this tree, and each lesson's presses are
timed on both, in the order before, after, after, before (this machine's speed drifts by up
to 2x within an hour; so each lesson's pair shares the same minutes). Page switches are timed
on this tree only.

Per lesson, at 1280x800: open it, focus the slider its catalogue entry names as
`main_control`, press ArrowRight once to warm up, then PRESSES more times in one direction
(ArrowRight, turning back at either end of the slider), so that almost every press asks for
a value the session has not seen. (Alternating Left/Right would flatter a page: Streamlit's
browser cache then answers every message over 10 KB with a reference to its earlier copy.)
A press is timed from just before the key goes down until the app is idle again (the run it
started has finished, no element is stale) and two animation frames have
painted, so the chart's redraw is inside the time. Bytes are every websocket frame the
server sent for that press. Page switches: from Home, a click on each lesson's link in the
navigation to the end of that page's first run.

Targets (a press at Streamlit's own floor, measured in the same run): median <= 1.25x and
p90 <= 1.5x the floor's, <= 12 elements and <= 30 KB re-sent per press; page switch <= 1 s
median. Nothing is asserted: timings depend on the machine, so they are printed.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

import streamlit as st  # noqa: E402  (after the sys.path line above)
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402

from browser_helpers import RAN_SINCE, RUN_TIMEOUT_MS, delta_of, open_page, runs_seen  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS, serve_app, serve_app_process  # noqa: E402
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
    """Bytes the server sends over the page's websocket, and the elements among them: every
    delta that draws an element or opens a block (a column, an expander, a container), which
    React renders again whether it changed or not (bench/README.md, "Why no lesson is at
    100 ms yet")."""

    def __init__(self, page: Page) -> None:
        self.received = 0
        self.elements = 0
        page.on("websocket", self._watch)

    def _watch(self, socket) -> None:
        socket.on("framereceived", self._count)

    def _count(self, payload) -> None:
        self.received += len(payload)
        self.elements += elements_in(payload)


def elements_in(payload: bytes | str) -> int:
    """How many elements and blocks one websocket frame from the server draws."""
    delta = delta_of(payload)
    return int(delta is not None and delta.WhichOneof("type") in ("new_element", "add_block"))


def idle_after(page: Page, before: list[int], timeout_ms: int = RUN_TIMEOUT_MS) -> None:
    page.wait_for_function(_IDLE_AFTER, arg=before, polling="raf", timeout=timeout_ms)
    page.evaluate(_TWO_FRAMES)


@dataclass
class Presses:
    """What PRESSES key presses on a lesson's main slider cost, one entry a press: `times`
    (ms from the key to two painted frames after the run), `sizes` (bytes the server sent),
    `drawn` (elements re-sent), `busy` (ms Chromium's main thread worked in that time:
    Performance.getMetrics' TaskDuration, which does not come in steps of a frame)."""

    times: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    busy: list[float] = field(default_factory=list)


def press_times(page: Page, wire: Wire, lesson: Lesson, main_thread_ms) -> Presses:
    """PRESSES key presses on the lesson's main slider (or, where `main_control` names a
    button, Enter on it); `main_thread_ms()` reads the page's main-thread time so far."""
    slider = page.locator('[data-testid="stSlider"]').filter(has_text=lesson.main_control)
    button = page.locator('[data-testid="stButton"] button').filter(has_text=lesson.main_control)
    is_slider = slider.count() > 0
    # a range slider: move its upper end
    thumb = slider.first.get_by_role("slider").last if is_slider else button.first
    thumb.scroll_into_view_if_needed()
    presses = Presses()
    key = "ArrowRight" if is_slider else "Enter"
    for i in range(PRESSES + 1):
        # The thumb is an <input type="range">: turn back at either end (a press there
        # would start no run; a slider of six options has both ends within ten presses).
        if is_slider:
            at_top, at_bottom = thumb.evaluate(
                "e => [Number(e.value) >= Number(e.max), Number(e.value) <= Number(e.min)]"
            )
            if at_top:
                key = "ArrowLeft"
            elif at_bottom:
                key = "ArrowRight"
        idle_after(page, [-1, -1])
        before, sent, elements = runs_seen(page), wire.received, wire.elements
        thumb.focus()
        worked = main_thread_ms()
        start = time.perf_counter()
        thumb.press(key)
        try:
            idle_after(page, before, timeout_ms=PRESS_TAKEN_MS)
        except PlaywrightTimeoutError:  # the press started no run (seen once on a busy box)
            print(f"  a press on {lesson.title} started no run; not timed", flush=True)
            continue
        if i:  # the first press warms up the page's caches
            presses.times.append((time.perf_counter() - start) * 1000)
            presses.busy.append(main_thread_ms() - worked)
            presses.sizes.append(wire.received - sent)
            presses.drawn.append(wire.elements - elements)
    return presses


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


@contextlib.contextmanager
def checkout(rev: str):
    """REV in a temporary git worktree (removed afterwards); yields (its path, its commit)."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", rev],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as parent:
        path = Path(parent) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(path), commit],
            check=True,
        )
        try:
            yield path, commit
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], check=False
            )


def this_tree() -> str:
    """This checkout's commit, and whether its files differ from it."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return f"{commit}{' with uncommitted changes' if dirty else ''}"


def timed_presses(browser, base_url: str, lesson: Lesson) -> Presses:
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    wire = Wire(page)
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")

    def main_thread_ms() -> float:
        metrics = cdp.send("Performance.getMetrics")["metrics"]
        return 1000 * next(m["value"] for m in metrics if m["name"] == "TaskDuration")

    open_page(page, base_url, lesson.url_path)
    try:
        return press_times(page, wire, lesson, main_thread_ms)
    finally:
        context.close()


class Floor:
    """The floor under a press, as bench_browser presses a lesson: bench_press_floor's app,
    one fragment with an ε slider and one chart updated in place (`?chart=1`)."""

    main_control = "Privacy loss ε"
    url_path = "?chart=1"
    title = "the floor"


def ratio(value: float, floor: float) -> str:
    return f"{value / floor:.2f}×"


def chosen_lessons(wanted: list[str]) -> list[Lesson]:
    """The lessons whose url paths hold a part of `wanted` (all of them for none); a part
    "PATH:LABEL" gives that lesson with LABEL as the slider (or button) to press."""
    if not wanted:
        return list(LESSONS)
    chosen = []
    for part in wanted:
        path, _, label = part.partition(":")
        for lesson in LESSONS:
            if path in lesson.url_path:
                chosen.append(dataclasses.replace(lesson, main_control=label) if label else lesson)
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "lessons",
        nargs="*",
        help="parts of lessons' url paths; PATH:LABEL presses the slider (or button) whose "
        "label holds LABEL instead of the lesson's main control",
    )
    parser.add_argument("--against", metavar="REV", help="an earlier commit, timed back to back")
    args = parser.parse_args()
    lessons = chosen_lessons(args.lessons)
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: sudo apt-get install chromium")
    from bench_press_floor import APP as FLOOR_APP

    rows, switches, base_commit, floor, floor_busy = [], [], None, [], []
    with contextlib.ExitStack() as stack:
        log_dir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        base_url = stack.enter_context(serve_app(log_dir))
        (log_dir / "floor").mkdir()
        floor_script = log_dir / "floor" / "floor.py"
        floor_script.write_text(FLOOR_APP, encoding="utf-8")
        floor_url = stack.enter_context(serve_app(log_dir / "floor", script=floor_script))
        old_url = None
        if args.against:
            old_root, base_commit = stack.enter_context(checkout(args.against))
            (log_dir / "base").mkdir()
            old_url, _ = stack.enter_context(serve_app_process(log_dir / "base", root=old_root))
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        for lesson in lessons:
            print(f"timing {lesson.title} ...", file=sys.stderr, flush=True)
            context = browser.new_context(viewport=VIEWPORT)
            switches.append((lesson, *switch_times(context.new_page(), base_url, lesson)))
            context.close()
            if not lesson.main_control:
                continue
            # the floor in the same minutes as the lesson (this machine drifts 2x an hour)
            floor_presses = timed_presses(browser, floor_url, Floor())
            floor += floor_presses.times
            floor_busy += floor_presses.busy
            if old_url is None:
                rows.append((lesson, timed_presses(browser, base_url, lesson), None))
                continue
            old, new = Presses(), Presses()
            for url, into in ((old_url, old), (base_url, new), (base_url, new), (old_url, old)):
                try:
                    pressed = timed_presses(browser, url, lesson)
                except PlaywrightError as error:  # e.g. the earlier commit lacks this lesson
                    if url == base_url:
                        raise
                    print(f"  {lesson.title} before: {error}"[:300], file=sys.stderr)
                    continue
                into.times += pressed.times
                into.sizes += pressed.sizes
                into.busy += pressed.busy
                into.drawn += pressed.drawn
            rows.append((lesson, new, old))
        browser.close()

    base, base_busy = statistics.median(floor), statistics.median(floor_busy)
    print("# Keypress to updated chart (Chromium)\n")
    print(
        f"Machine: {os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}, Streamlit {st.__version__}, viewport 1280x800. "
        f"{PRESSES} presses per lesson after one warm-up. The floor (a fragment with a slider "
        f"and one chart updated in place, bench_press_floor.py), pressed before each lesson: "
        f"median {base:,.0f} ms, p90 {p90(floor):,.0f} ms over {len(floor)} presses, "
        f"Chromium's main thread busy {base_busy:,.0f} ms a press (median). Targets "
        "(issue: a press at Streamlit's own floor): median <= 1.25x the floor, p90 <= 1.5x, "
        "<= 12 elements re-sent per press, <= 30 KB per rerun. A press is timed to its "
        "second painted frame, so times come in steps of a frame (16.7 ms); the main "
        "thread's busy time has no such steps (it still varies by ~10% between runs).\n"
    )
    if base_commit is None:
        print(f"This tree: {this_tree()}.\n")
        print(
            "| lesson | slider | elements per press | median ms | p90 ms | median ÷ floor "
            "| p90 ÷ floor | main thread busy ms | busy ÷ floor | KB per rerun (median) |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for lesson, new, _ in rows:
            median, busy = statistics.median(new.times), statistics.median(new.busy)
            print(
                f"| {lesson.title} | {lesson.main_control} | "
                f"{statistics.median(new.drawn):,.0f} | {median:,.0f} | {p90(new.times):,.0f} | "
                f"{ratio(median, base)} | {ratio(p90(new.times), base)} | {busy:,.0f} | "
                f"{ratio(busy, base_busy)} | {statistics.median(new.sizes) / 1000:,.1f} |"
            )
    else:
        print(
            f"Before: {base_commit}; after: {this_tree()}; {2 * PRESSES} presses each, "
            "timed before, after, after, before.\n"
        )
        print(
            "| lesson | slider | elements per press | median ms before | after | after ÷ floor "
            "| p90 ms before | after | after ÷ floor | busy ms before | after | after ÷ floor "
            "| KB per rerun before | after |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for lesson, new, old in rows:
            before = (
                (
                    f"{statistics.median(old.times):,.0f}",
                    f"{p90(old.times):,.0f}",
                    f"{statistics.median(old.busy):,.0f}",
                    f"{statistics.median(old.sizes) / 1000:,.1f}",
                )
                if old.times
                else ("–", "–", "–", "–")
            )
            median, busy = statistics.median(new.times), statistics.median(new.busy)
            print(
                f"| {lesson.title} | {lesson.main_control} | "
                f"{statistics.median(new.drawn):,.0f} | {before[0]} | {median:,.0f} | "
                f"{ratio(median, base)} | {before[1]} | {p90(new.times):,.0f} | "
                f"{ratio(p90(new.times), base)} | {before[2]} | {busy:,.0f} | "
                f"{ratio(busy, base_busy)} | {before[3]} | "
                f"{statistics.median(new.sizes) / 1000:,.1f} |"
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
