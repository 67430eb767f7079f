"""Approximate-DP lesson in real Chromium, what is its own: the δ slider recalibrates σ and
puts its raw number in the link, which a reload keeps; an axis of powers of ten writes them
one way. (Its main control, ε, moved with the keyboard: tests/ui/test_browser_sweeps.py.)"""

from playwright.sync_api import Page, expect

import dp
from browser_helpers import (
    assert_no_exception,
    link_params,
    metric_value,
    move_slider_with_keyboard,
    open_lesson,
    wait_for_run,
)
from lessons.approximate_dp import model
from ui import text

SIGMA = "Gaussian σ"


def _sigma(epsilon: float, delta: float) -> str:
    return text.number(dp.analytic_gaussian_sigma(1, epsilon, delta))


def test_moving_delta_recalibrates_sigma_and_puts_its_raw_number_in_the_link(
    page: Page, app_server: str
) -> None:
    """(A keyboard move of ε, its σ and its link: tests/keypress_probes.py.)"""
    open_lesson(page, app_server, "approximate_dp/page.py")
    expect(metric_value(page, SIGMA)).to_have_text(_sigma(model.DEFAULT_EPSILON, 1e-5))
    move_slider_with_keyboard(page, "δ for the Gaussian")  # one step: 10⁻⁵ -> 10⁻⁶
    expect(metric_value(page, SIGMA)).to_have_text(_sigma(model.DEFAULT_EPSILON, 1e-6))
    assert link_params(page).get("ad_delta") == ["0.000001"], page.url  # not "10⁻⁶"
    page.goto(page.url, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric_value(page, SIGMA)).to_have_text(_sigma(model.DEFAULT_EPSILON, 1e-6))
    assert_no_exception(page)


AXIS_LABELS = """() => [...document.querySelectorAll(
    '[data-testid="stVegaLiteChart"] svg g.role-axis-label')].map(
    (g) => [...g.querySelectorAll('text')].map((t) => t.textContent).filter((t) => t))"""


def test_an_axis_of_powers_of_ten_uses_one_notation(page: Page, app_server: str) -> None:
    """A δ axis read "10⁻⁴, 10⁻³, 0.01, 0.1" (powers of ten only below
    0.01). Every axis that writes one power as 10⁻ⁿ writes every power below 1 that way."""
    open_lesson(page, app_server, "approximate_dp/page.py")
    expect(page.locator('[data-testid="stVegaLiteChart"] svg').first).to_be_visible()
    axes = page.evaluate(AXIS_LABELS)
    powers = [labels for labels in axes if any(label.startswith("10⁻") for label in labels)]
    assert len(powers) >= 3, axes  # the δ, density and conversion axes
    for labels in powers:
        assert not [label for label in labels if label.startswith("0.")], labels
    assert_no_exception(page)
