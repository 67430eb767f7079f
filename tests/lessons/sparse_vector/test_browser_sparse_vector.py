"""Sparse-vector lesson in real Chromium, what is its own: the curves ε moves sit right under
its slider, and the audit runs from its button. (Its main control, ε, with the exact chances
and the link: tests/ui/test_browser_sweeps.py and tests/keypress_probes.py.)"""

from playwright.sync_api import Page, expect

from browser_helpers import (
    assert_no_exception,
    expect_rerun,
    metric_value,
    open_lesson,
)

SCORE = "Your guesses that the audit and the theory agree with"


def test_the_curves_sit_under_epsilon_and_the_audit_runs_from_its_button(
    page: Page, app_server: str
) -> None:
    open_lesson(page, app_server, "sparse_vector/page.py")
    # the curves whose rule ε moves sit right under the slider (not 395 px below, after the
    # three numbers)
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
    button = page.get_by_role("button", name="Run the audit")
    button.scroll_into_view_if_needed()
    expect(button).to_be_disabled()  # predict first
    picker = page.get_by_role("combobox", name="Predict first")
    picker.click()
    with expect_rerun(page):
        page.get_by_role("option", name="B", exact=True).click()
    page.keyboard.press("Escape")
    expect(button).to_be_enabled()
    with expect_rerun(page, timeout_ms=120_000):
        button.click()
    # B guessed broken (right), A judged private (right), C to F left private (wrong)
    expect(metric_value(page, SCORE)).to_have_text("2 of 6", timeout=120_000)
    expect(page.get_by_text("What an audit cannot do.")).to_be_visible()
    assert_no_exception(page)
