"""Classroom features in Chromium: shareable links reproduce the view in a fresh browser,
presenter mode (?present=true) enlarges the lesson, an invalid link setting is explained."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from browser_helpers import (
    CLASSROOM,
    CLASSROOM_SEED,
    assert_no_exception,
    enter_seed,
    expect_rerun,
    lesson_url,
    link_params,
    metric_value,
    move_slider_with_keyboard,
    open_classroom,
    open_page,
)

LAPLACE = lesson_url("laplace/page.py")
EPSILON_LABEL = "Privacy loss ε"
METRICS = ("Scale b = 1/ε", "Typical error (SD)", "95% of answers within")


def slider_value(page: Page, label: str) -> str:
    slider = page.locator('[data-testid="stSlider"]').filter(has_text=label)
    return slider.get_by_role("slider").first.get_attribute("aria-valuetext") or ""


def metric_numbers(page: Page) -> list[str]:
    return [metric_value(page, label).inner_text() for label in METRICS]


def open_in_another_browser(another_device: Callable[..., Page], url: str) -> Page:
    """The copied link `url`, opened in another browser (another student's)."""
    page = another_device(viewport={"width": 1280, "height": 800})
    base, _, rest = url.partition(f"/{LAPLACE}")
    open_page(page, base, f"{LAPLACE}{rest}")
    return page


def test_a_copied_link_reproduces_seed_slider_and_numbers(page: Page, app_server, another_device):
    open_page(page, app_server, LAPLACE)
    enter_seed(page, "4242")
    move_slider_with_keyboard(page, EPSILON_LABEL, "ArrowLeft", times=2)
    before_value, before_numbers = slider_value(page, EPSILON_LABEL), metric_numbers(page)
    assert before_value == "0.5"  # 1 -> 0.7 -> 0.5 on the log grid
    params = link_params(page)
    assert params.get("seed") == ["4242"], page.url
    assert params.get("lap_eps") == ["0.5"], page.url  # the ε slider is bound (key lap_eps)

    other = open_in_another_browser(another_device, page.url)
    assert_no_exception(other)
    assert slider_value(other, EPSILON_LABEL) == before_value
    assert metric_numbers(other) == before_numbers
    assert other.locator(CLASSROOM_SEED).input_value() == "4242"  # (the first input is the upload)


def test_the_seed_alone_round_trips(page: Page, app_server, another_device):
    open_page(page, app_server, LAPLACE)
    enter_seed(page, "31337")
    assert link_params(page).get("seed") == ["31337"]
    other = open_in_another_browser(another_device, page.url)
    other_seed = other.locator(CLASSROOM_SEED)
    expect(other_seed).to_have_value("31337")
    assert_no_exception(other)


def title_font_px(page: Page) -> float:
    size = page.locator('[data-testid="stMain"] h1').first.evaluate(
        "element => getComputedStyle(element).fontSize"
    )
    return float(size.removesuffix("px"))


def test_present_flag_enlarges_the_title_and_hides_the_toolbar(page: Page, app_server):
    open_page(page, app_server, LAPLACE)
    normal = title_font_px(page)
    open_page(page, app_server, f"{LAPLACE}?present=true")
    # The presenter style sheet arrives a moment after the first elements: wait (bounded)
    # for it to take effect; a title that never grows fails the assertion below.
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(
            """limit => {
                const title = document.querySelector('[data-testid="stMain"] h1');
                return title && parseFloat(getComputedStyle(title).fontSize) > limit;
            }""",
            arg=1.3 * normal,
            timeout=15_000,
        )
    presenting = title_font_px(page)
    assert presenting > 1.3 * normal, (normal, presenting)
    expect(page.locator('[data-testid="stMainMenu"]')).to_be_hidden()
    # The presenter toggle is the classroom panel's only checkbox-like input, and it is on.
    expect(page.locator(f'{CLASSROOM} input[type="checkbox"]')).to_be_checked()
    assert_no_exception(page)


def _sidebar_width(page: Page) -> float:
    box = page.locator('[data-testid="stSidebar"]').bounding_box()
    return 0.0 if box is None else max(box["width"] + min(box["x"], 0.0), 0.0)


def test_presenter_mode_collapses_the_sidebar_and_it_can_be_reopened(page: Page, app_server):
    open_page(page, app_server, LAPLACE)
    expect(page.locator('[data-testid="stSidebar"]')).to_be_visible()
    assert _sidebar_width(page) > 200
    # turning presenter mode on gives the projector the whole width
    with expect_rerun(page):
        open_classroom(page).get_by_text("Presenter mode", exact=True).click()
    page.wait_for_function(
        """() => {
            const box = document.querySelector('[data-testid="stSidebar"]').getBoundingClientRect();
            return box.right <= 1;
        }""",
        timeout=15_000,
    )
    # a link with ?present=true opens that way, and the sidebar's button still opens it
    open_page(page, app_server, f"{LAPLACE}?present=true")
    assert _sidebar_width(page) == 0.0
    page.locator('[data-testid="stExpandSidebarButton"]').click()
    sidebar = page.get_by_test_id("stSidebarUserContent")
    expect(sidebar.get_by_text("Dataset", exact=True)).to_be_visible()  # the picker's heading
    assert_no_exception(page)


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1280, "height": 720}, {"width": 1280, "height": 800}, {"width": 390, "height": 844}],
    ids=["720p-presenter", "desk", "phone"],
)
def test_the_presenter_toggle_and_the_seed_are_on_the_first_screen(
    page: Page, app_server, viewport
):
    """The presenter toggle sat at y = 1,637 px, below the 25-link menu
    in a 720 px sidebar. The classroom panel is the first thing atop every page (in the
    header strip on a wide screen): one click shows the toggle and the seed, on screen,
    whether or not presenter mode is on, and however far the page is scrolled."""
    present = "?present=true" if viewport["height"] == 720 else ""
    page.set_viewport_size(viewport)
    open_page(page, app_server, f"{LAPLACE}{present}")
    page.mouse.wheel(0, 1500)  # a lecturer halfway down the page
    panel = open_classroom(page)
    for part in (panel.get_by_text("Presenter mode", exact=True), page.locator(CLASSROOM_SEED)):
        box = part.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
    assert_no_exception(page)


def test_an_invalid_link_setting_is_explained_not_an_error(page: Page, app_server):
    open_page(page, app_server, f"{LAPLACE}?seed=abc")
    expect(page.get_by_text("Ignored an invalid link setting: seed=abc").first).to_be_visible()
    assert_no_exception(page)
    assert "seed" not in link_params(page)


def test_re_roll_prints_no_stack_trace_in_the_server_terminal(
    page: Page, fresh_app_server: str, tmp_path
) -> None:
    # The seed box has a default and "Re-roll" sets its value through st.session_state, on
    # purpose; Streamlit would log a ~30-line stack trace for that in `make run`'s terminal
    # unless .streamlit/config.toml turns the duplication warning off.
    open_page(page, fresh_app_server, LAPLACE)
    with expect_rerun(page):
        open_classroom(page).get_by_role("button", name="Re-roll").click()
    assert_no_exception(page)
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert "set via the Session State API" not in log
    assert "Traceback" not in log and 'File "' not in log
