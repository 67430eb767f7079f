"""Sensitivity-and-clamping lesson in real Chromium: it loads, a keyboard move of the clamp
window's upper thumb changes the bias and the noise scale, the window lands in the link, and
no traceback appears."""

import re

import numpy as np
from playwright.sync_api import Page, expect

import dp
from browser_helpers import (
    assert_no_exception,
    expect_rerun,
    link_params,
    metric_value,
    open_lesson,
    wait_for_run,
)
from data.census import load_census
from ui import columns, text

WINDOW_LABEL = "Clamp window [L, U]"


def _sample() -> np.ndarray:
    gains = load_census()["CapitalGain"].to_numpy(dtype=float)
    return np.random.default_rng(columns.SAMPLE_SEED).choice(gains, size=100, replace=False)


def test_moving_the_upper_bound_updates_bias_noise_and_link(page: Page, app_server: str) -> None:
    open_lesson(page, app_server, "clamping/page.py")
    assert_no_exception(page)
    expect(metric_value(page, "Noise scale b = Δ/ε")).to_have_text("5,000")
    window = page.locator('[data-testid="stSlider"]').filter(has_text=WINDOW_LABEL)
    upper = window.get_by_role("slider").nth(1)
    with expect_rerun(page):
        upper.focus()
        upper.press("ArrowRight")  # one step of 500: U = 5,500
    expect(metric_value(page, "Noise scale b = Δ/ε")).to_have_text("5,500")
    bias = dp.clamping_bias(_sample(), 0.0, 5_500.0)
    expect(metric_value(page, "Bias (clamped − true)")).to_have_text(text.number(bias))
    # one parameter for the range (Streamlit's own binding repeats it: ?k=0&k=5500)
    expect_url = re.compile(r"[?&]clamp_window_0=0\.\.5500(&|$)")
    expect(page).to_have_url(expect_url)
    assert link_params(page).get("clamp_window_0") == ["0..5500"], page.url
    # the copied link reopens the same window
    page.goto(page.url, wait_until="domcontentloaded")
    wait_for_run(page)
    expect(metric_value(page, "Noise scale b = Δ/ε")).to_have_text("5,500")
    assert_no_exception(page)
