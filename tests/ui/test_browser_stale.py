"""Nothing a student sees goes stale. A press reruns only the fragment around its control, so
a number outside that fragment which depends on the control would keep its old value. Here
every slider of a lesson is pressed once and every radio moved on (each rerunning only its
fragment); then the same link is opened afresh (every control is bound to the URL), a whole
run at the same values. The two must read the same, word for word, alt text and hidden
descriptions included."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from browser_helpers import expect_rerun, open_page
from lessons.catalogue import LESSONS
from ui import progress

WITH_SLIDERS = [lesson for lesson in LESSONS if not lesson.activity and lesson.main_control]

MAIN = '[data-testid="stMain"]'
# Every text of the main area (textContent: the descriptions only a screen reader reads too).
# A chart's drawing is read as the sorted list of its texts and of the ARIA labels a screen
# reader meets (not under aria-hidden): Vega redraws a changed axis label at the end of its
# group, so the same picture can hold its labels in another order.
PAGE_TEXT = f"""() => {{
  const main = document.querySelector('{MAIN}').cloneNode(true);
  main.querySelectorAll('style, script, canvas').forEach((e) => e.remove());
  main.querySelectorAll('svg').forEach((svg) => {{
    const said = [...svg.querySelectorAll('*')].flatMap((e) => [
      e.closest('[aria-hidden="true"]') ? '' : e.getAttribute('aria-label') || '',
      e.children.length ? '' : e.textContent]);
    svg.replaceWith(said.filter((t) => t.trim()).sort().join(' · '));
  }});
  return main.textContent.replace(/\\s+/g, ' ').trim();
}}"""


def press_every_slider(page: Page) -> int:
    """Press each slider of the main area once (one step right, or left at its top), each
    press waited for; how many were pressed. A slider a press reveals is pressed too."""
    pressed, index = 0, 0
    while index < page.locator(f'{MAIN} [data-testid="stSlider"]').count():
        thumb = page.locator(f'{MAIN} [data-testid="stSlider"]').nth(index).get_by_role("slider")
        thumb = thumb.last  # a range slider: its upper end
        at_top = thumb.evaluate("e => Number(e.value) >= Number(e.max)")
        with expect_rerun(page):
            thumb.focus()
            thumb.press("ArrowLeft" if at_top else "ArrowRight")
        pressed += 1
        index += 1
    return pressed


# The radios a link keeps: not a check-yourself question's or a prediction's (a student's
# answer, which a fresh visit asks again).
RADIOS = f'{MAIN} [data-testid="stRadio"]:not([class*="st-key-{progress.QUESTION_PREFIX}"] *)'


def choose_in_every_radio(page: Page) -> int:
    """In each radio group of the main area that a link keeps, choose the option after the
    chosen one (each choice waited for); how many were chosen."""
    chosen, index = 0, 0
    while index < page.locator(RADIOS).count():
        group = page.locator(RADIOS).nth(index)
        index += 1
        if group.locator('[data-testid="stWidgetLabel"]').inner_text().startswith("Predict"):
            continue
        options = group.locator('input[type="radio"]')
        checked = [options.nth(i).is_checked() for i in range(options.count())]
        following = (checked.index(True) + 1) % len(checked) if True in checked else 0
        with expect_rerun(page):
            options.nth(following).check(force=True)  # the input is hidden under its label
        chosen += 1
    return chosen


@pytest.mark.parametrize("lesson", WITH_SLIDERS, ids=[lesson.folder for lesson in WITH_SLIDERS])
def test_after_every_slider_and_radio_moves_the_page_reads_as_a_fresh_run(
    page: Page, app_server: str, lesson
) -> None:
    open_page(page, app_server, lesson.url_path)
    assert press_every_slider(page) >= 1
    choose_in_every_radio(page)
    # the progress line says so once its script has stored the move (150 ms after the key)
    expect(page.locator(f".{progress.HERE_CLASS}")).to_contain_text("main control moved")
    pressed = page.evaluate(PAGE_TEXT)
    moved_url = page.url
    open_page(page, app_server, moved_url.removeprefix(app_server.rstrip("/")))
    assert page.url == moved_url
    fresh = page.evaluate(PAGE_TEXT)
    if pressed != fresh:  # the first words that differ, not two pages of text
        differ = (i for i, (a, b) in enumerate(zip(pressed, fresh, strict=False)) if a != b)
        at = next(differ, min(len(pressed), len(fresh)))
        raise AssertionError(
            f"after the presses: …{pressed[max(0, at - 150) : at + 150]}…\n"
            f"a fresh run:       …{fresh[max(0, at - 150) : at + 150]}…"
        )
