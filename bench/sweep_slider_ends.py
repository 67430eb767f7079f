"""Every slider of every lesson pressed to its ends, on the screens the course is used on, and
each state read with the sweeps' chart checks: a chart text over another, cut at the chart's
edge or crossed by a line, a legend or title out of its chart, a number cut with "…", a
number in e-notation, a traceback. A finder, not a test (7 minutes a screen on 2 cores): what
it finds becomes a case in tests/ui/test_browser_chart_texts.py, which fails until it is
mended. It found the 1080p projector's four (2026-12-03).

In one tab a screen, each lesson is opened from the menu and each of its sliders pressed
with the keyboard to End, Home, then PageUp twice, the lesson's other sliders where the
earlier presses left them (so some pairs of ends are read too); a failing state is printed
with its link, which reopens it.

    .venv/bin/python bench/sweep_slider_ends.py                       # every screen
    .venv/bin/python bench/sweep_slider_ends.py --screen presenter-1080 --lessons clamping
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "ui")]

import test_browser_sweeps as sweeps  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402

from browser_helpers import (  # noqa: E402
    CHART_TEXT_CLASHES,
    CHART_TEXT_CROSSED,
    PHONE,
    PROJECTOR,
    expect_rerun,
    navigate,
    open_page,
)
from conftest import CHROMIUM, CHROMIUM_ARGS, serve_app  # noqa: E402
from lessons.catalogue import LESSONS  # noqa: E402

# (viewport, presenter mode, a phone's context)
SCREENS = {
    "phone": (PHONE, False, True),
    "laptop": ({"width": 1280, "height": 800}, False, False),
    "presenter": (PROJECTOR, True, False),
    "presenter-1080": ({"width": 1920, "height": 1080}, True, False),
}
KEYS = ("End", "Home", "PageUp", "PageUp")
PRESENTER_FONT = "() => getComputedStyle(document.documentElement).fontSize === '21px'"


def problems(page: Page) -> dict[str, object]:
    """What the sweeps' checks find in the page as it is drawn now."""
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(sweeps.CHARTS_DRAWN, timeout=10_000)
    sweeps._settle(page)
    found = {
        "texts over texts or cut": page.evaluate(CHART_TEXT_CLASHES),
        "texts crossed by a line": page.evaluate(CHART_TEXT_CROSSED),
        "legends or titles out of their chart": page.evaluate(sweeps.OUT_OF_CHART, sweeps.SLACK_PX),
        "axis numbers cut": page.evaluate(sweeps.CUT_NUMBERS),
        "metrics cut": page.evaluate(sweeps.CUT_METRICS),
        "e-notation": page.evaluate(sweeps.E_NOTATION),
        "tracebacks": page.locator('[data-testid="stException"]').count(),
    }
    return {what: seen for what, seen in found.items() if seen}


def sweep(browser, base_url: str, screen: str, folders: set[str]) -> tuple[int, list[str]]:
    """(states read, a line for each failing state) on `screen`."""
    viewport, presenting, phone = SCREENS[screen]
    context = browser.new_context(viewport=viewport, is_mobile=phone)
    page = context.new_page()
    read, failures = 0, []
    try:
        open_page(page, base_url, "?present=true" if presenting else "")
        for lesson in LESSONS:
            if lesson.activity or (folders and lesson.folder not in folders):
                continue
            navigate(page, lesson.url_path)
            if presenting:
                page.wait_for_function(PRESENTER_FONT)
            sliders = page.locator(sweeps.SLIDERS)
            for index in range(sliders.count()):
                slider = sliders.nth(index)
                label = slider.locator('[data-testid="stWidgetLabel"]').inner_text()[:50]
                for key in KEYS:
                    thumb = sliders.nth(index).get_by_role("slider").last
                    try:
                        with expect_rerun(page):
                            thumb.focus()
                            thumb.press(key)
                    except (AssertionError, PlaywrightError):
                        continue  # already there (a slider at its end, a few-step one)
                    read += 1
                    found = problems(page)
                    if found:
                        value = thumb.get_attribute("aria-valuetext") or ""
                        failures.append(
                            f"{lesson.folder}: {label!r} {key} → {value}: {found}\n    {page.url}"
                        )
    finally:
        context.close()
    return read, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--screen", choices=[*SCREENS, "all"], default="all")
    parser.add_argument("--lessons", nargs="*", default=[], help="folders (default: every one)")
    args = parser.parse_args()
    screens = list(SCREENS) if args.screen == "all" else [args.screen]
    with sync_playwright() as playwright, contextlib.ExitStack() as stack:
        log_dir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        base_url = stack.enter_context(serve_app(log_dir))
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        stack.callback(browser.close)
        for screen in screens:
            started = time.monotonic()
            read, failures = sweep(browser, base_url, screen, set(args.lessons))
            print(
                f"{screen}: {read} states read, {len(failures)} failing "
                f"({time.monotonic() - started:.0f} s)"
            )
            for failure in failures:
                print(f"  {failure}")


if __name__ == "__main__":
    main()
