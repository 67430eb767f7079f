"""Issue 27, item 8: Vega logged "Conflicting legend property" warnings on 7 lessons (and a
"Dropping fit-y" and a fillOpacity warning). Every lesson now loads with no Vega warning or
error in the browser console."""

from __future__ import annotations

from playwright.sync_api import Browser

from browser_helpers import FINISHED, assert_no_exception
from lessons.catalogue import LESSONS


def test_no_lesson_logs_a_vega_warning(browser: Browser, app_server: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    logged: list[tuple[str, str, str]] = []
    current = {"lesson": ""}
    page.on(
        "console",
        lambda message: (
            logged.append((current["lesson"], message.type, message.text))
            if message.type in ("warning", "error")
            else None
        ),
    )
    for lesson in LESSONS:
        current["lesson"] = lesson.url_path
        page.goto(f"{app_server}/{lesson.url_path}")
        page.wait_for_selector(FINISHED, timeout=90_000)
        page.wait_for_timeout(1_000)  # Vega compiles and logs after the run
        assert_no_exception(page)  # a chart that failed to build logs nothing either
    vega = [entry for entry in logged if entry[2].startswith(("WARN", "ERROR", "[Vega"))]
    assert not vega, vega
    context.close()
