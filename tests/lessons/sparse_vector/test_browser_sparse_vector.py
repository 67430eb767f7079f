"""Sparse-vector lesson in real Chromium: it loads, a keyboard move of the ε slider changes
the exact chances, ε lands in the link, the audit runs from its button, and no traceback
appears."""

from playwright.sync_api import Page, expect

import dp
from browser_helpers import (
    assert_no_exception,
    expect_rerun,
    link_params,
    metric_value,
    move_slider_with_keyboard,
    open_lesson,
    wait_for_run,
)
from lessons.sparse_vector import model
from ui import text

NEVER = "Never stops"
SCORE = "Your guesses that the audit and the theory agree with"


def _never(epsilon: float) -> str:
    answers = model.queries().answers
    return text.percent(dp.above_threshold_probabilities(answers, 1000.0, epsilon)[-1])


def test_moving_epsilon_updates_the_chances_and_the_link(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "sparse_vector/page.py")
    assert_no_exception(page)
    expect(metric_value(page, NEVER)).to_have_text(_never(model.DEFAULT_EPSILON))
    # the curves whose rule ε moves sit right under the slider (not 395 px below, after the
    # three numbers: issue 48, item 16)
    slider = page.locator('[data-testid="stSlider"]').filter(has_text="Privacy loss ε").first
    gap = slider.evaluate(
        """(slider) => {
            const s = slider.getBoundingClientRect();
            const under = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
                .map((c) => c.getBoundingClientRect())
                .filter((r) => r.left < s.right && r.right > s.left && r.top >= s.bottom - 1);
            return under.length ? Math.min(...under.map((r) => r.top)) - s.bottom : null;
        }"""
    )
    assert gap is not None and gap < 60, gap
    move_slider_with_keyboard(page, "Privacy loss ε")  # one step: 0.01 -> 0.02
    following = model.EPSILONS[model.EPSILONS.index(model.DEFAULT_EPSILON) + 1]
    expect(metric_value(page, NEVER)).to_have_text(_never(following))
    assert link_params(page).get("svt_eps") == [text.number(following)], page.url
    page.goto(page.url, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric_value(page, NEVER)).to_have_text(_never(following))
    assert_no_exception(page)


def test_the_audit_runs_from_its_button(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "sparse_vector/page.py")
    button = page.get_by_role("button", name="Run the audit")
    button.scroll_into_view_if_needed()
    with expect_rerun(page, timeout_ms=120_000):
        button.click()
    # no guess made: only A ("private") is judged right
    expect(metric_value(page, SCORE)).to_have_text("1 of 6", timeout=120_000)
    expect(page.get_by_text("What an audit cannot do.")).to_be_visible()
    assert_no_exception(page)
