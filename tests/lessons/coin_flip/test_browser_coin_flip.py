"""Coin-flip page in real Chromium: load, move the true-share and n sliders with the keyboard, see
the synthetic population and the spread of its estimate change."""

import math

from playwright.sync_api import Page, expect

import dp
from browser_helpers import (
    assert_no_exception,
    link_params,
    move_slider_with_keyboard,
    open_lesson,
    wait_for_run,
)
from ui import text


def metric(page: Page, label: str):
    return page.locator('[data-testid="stMetric"]').filter(has=page.get_by_text(label, exact=True))


def share_sd_points(rate: float, n: int) -> str:
    """SD of the estimated share in % points with fair coins (p = q = 0.75), as shown."""
    return f"{text.number(100 * math.sqrt(dp.rr_variance(rate, n, 0.75, 0.75)))}"


def test_moving_the_true_share_updates_the_population(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "coin_flip/page.py")
    assert_no_exception(page)
    true_yes = metric(page, "True yes")
    spread = metric(page, "Spread of the estimate (SD)")
    expect(true_yes).to_contain_text("100 of 1,000")
    # SD of the share in % points at r = 0.10, n = 1,000, fair coins (p = q = 0.75).
    expect(spread).to_contain_text(f"{share_sd_points(0.10, 1_000)} % points")
    # share 0.10 -> 0.11 at n = 1,000: 110 true yes.
    move_slider_with_keyboard(page, "True share of yes", "ArrowRight")
    expect(true_yes).to_contain_text("110 of 1,000")
    # n 1,000 -> 2,000 (next stop of the log select_slider): 220 true yes, spread / √2.
    move_slider_with_keyboard(page, "People asked, n", "ArrowRight")
    expect(true_yes).to_contain_text("220 of 2,000")
    expect(spread).to_contain_text(f"{share_sd_points(0.11, 2_000)} % points")
    assert_no_exception(page)


def test_a_keyboard_move_writes_the_bound_parameters_into_the_url(
    page: Page, app_server: str
) -> None:
    open_lesson(page, app_server, "coin_flip/page.py")
    move_slider_with_keyboard(page, "h: coin 1 says answer honestly", "ArrowRight")  # 0.5 -> 0.55
    move_slider_with_keyboard(page, "People asked, n", "ArrowRight")  # 1,000 -> 2,000
    params = link_params(page)
    assert params.get("cf_honest") == ["0.55"], page.url
    assert params.get("cf_n") == ["2000"], page.url  # the raw number, not its label
    p, q = dp.coin_flip_probabilities(0.55, 0.5)
    expect(metric(page, "Privacy loss ε")).to_contain_text(text.number(dp.rr_epsilon(p, q)))
    # The link reopens the same view.
    link = page.url
    page.goto("about:blank")
    page.goto(link, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric(page, "True yes")).to_contain_text("200 of 2,000")
    expect(metric(page, "Privacy loss ε")).to_contain_text(text.number(dp.rr_epsilon(p, q)))
    assert_no_exception(page)
