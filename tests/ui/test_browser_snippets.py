"""The code behind a chart is sent only when a student opens its expander (Streamlit's lazy
expander, `on_change="rerun"`): a first visit highlights no code, and opening one shows its
code with the values on screen, after a slider moved too."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from browser_helpers import (
    assert_no_exception,
    expect_rerun,
    move_slider_with_keyboard,
    open_lesson,
)
from ui.snippets import EXPANDER_LABEL

CODE = '[data-testid="stCode"]'


def test_a_closed_snippet_sends_no_code_and_an_open_one_shows_it(
    page: Page, app_server: str
) -> None:
    open_lesson(page, app_server, "laplace/page.py")
    assert_no_exception(page)
    expanders = page.locator('[data-testid="stExpander"]').filter(has_text=EXPANDER_LABEL)
    expect(expanders).to_have_count(2)
    expect(page.locator(CODE)).to_have_count(0)  # nothing to highlight on a first visit
    with expect_rerun(page):
        move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight", times=2)
    with expect_rerun(page):
        expanders.first.locator("summary").click()
    code = expanders.first.locator(CODE)
    expect(code).to_have_count(1)
    expect(code).to_contain_text(", 2.0, 2000, ")  # the values on screen now: ε = 2
    expect(page.locator(CODE)).to_have_count(1)  # the other snippet stays closed
    with expect_rerun(page):
        expanders.first.locator("summary").click()  # closed again: its code goes
    expect(page.locator(CODE)).to_have_count(0)
    assert_no_exception(page)
