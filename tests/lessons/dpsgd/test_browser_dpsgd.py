"""DP-SGD lesson in real Chromium: it loads, a keyboard move of the σ slider changes the
noise of the drawn step, σ lands in the link, and no traceback appears."""

from playwright.sync_api import Page, expect

from browser_helpers import (
    assert_no_exception,
    link_params,
    metric_value,
    move_slider_with_keyboard,
    open_lesson,
    wait_for_run,
)
from lessons.dpsgd import model
from ui import text

NOISE = "Noise per coordinate, σC"


def test_moving_sigma_updates_the_step_and_the_link(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "dpsgd/page.py")
    assert_no_exception(page)
    expect(metric_value(page, NOISE)).to_have_text(
        text.number(model.DEFAULT_SIGMA * model.DEFAULT_CLIP)
    )
    move_slider_with_keyboard(page, "Noise multiplier σ  (larger → more private)")
    following = model.SIGMAS[model.SIGMAS.index(model.DEFAULT_SIGMA) + 1]
    expect(metric_value(page, NOISE)).to_have_text(text.number(following * model.DEFAULT_CLIP))
    assert link_params(page).get("dps_step_sigma") == [text.number(following)], page.url
    page.goto(page.url, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric_value(page, NOISE)).to_have_text(text.number(following * model.DEFAULT_CLIP))
    assert_no_exception(page)
