"""A chart's texts stay readable in the states a student reaches with its sliders: none
written over another, none cut at the chart's edge (browser_helpers.CHART_TEXT_CLASHES;
every lesson at its defaults on three screens: tests/ui/test_browser_sweeps.py).

Each case below was found by pressing every slider of every lesson to both ends and reading
the same check, and failed before its chart was mended."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from playwright.sync_api import Page

from browser_helpers import (
    CHART_TEXT_CLASHES,
    PHONE,
    PROJECTOR,
    assert_no_exception,
    move_slider_with_keyboard,
    open_page,
)

SCREENS = {"laptop": {"width": 1280, "height": 800}, "phone": PHONE, "presenter": PROJECTOR}

# Any chart of the page reads `shows` once the state's run has been drawn.
DRAWN = """(shows) => [...document.querySelectorAll('[data-testid=stVegaLiteChart] svg')]
  .some((svg) => svg.textContent.includes(shows))"""


@dataclass(frozen=True)
class Case:
    lesson: str  # its url path
    slider: str  # part of the slider's label ("" for the defaults)
    key: str  # Home: its most private end; End: its other end
    shows: str  # a chart's text in that state
    screen: str = "laptop"  # a key of SCREENS; "presenter" is presenter mode at 1280×720


CASES = {
    # the chosen ε's label, left of its diamond at the plot's left edge, over the y axis's
    # "50%" (and the coin's label under the diamond): now right of it, the coin's at the right
    "laplace-accuracy": Case("laplace", "Privacy loss of this answer", "Home", "ε = 0.01:"),
    # "+ε" and "−ε" both above their lines, which all but meet at ε = 0.01
    "definition-edges": Case("definition", "ε for the privacy loss", "Home", "±0.01"),
    # "your E: 88.6%" over "E = √n", written at the top of its rule
    "reconstruction-root": Case("reconstruction", "People n", "End", "500 people"),
    # "shown half the time: 3,316 users" cut at the chart's right edge
    "group-by-rule": Case("group-by", "Total budget", "Home", "ε = 0.01"),
    # ZIP5's noise "4.47" over its median count "6"
    "census-levels": Case("census-topdown", "Total ρ", "Home", "ρ = 0.05"),
    # a deployment's long name over the ε of the row below it ("2.64")
    "epsilon-deployments": Case("epsilon-meaning", "", "", "Mobility Reports"),
    # the window's last tick, "32,600", half past the histogram's edge on a phone
    "laplace-window-phone": Case("laplace", "Minimum age", "Home", "32,600", "phone"),
    # the first ZIP's label pushed inside the axis (Streamlit's labelFlush) onto the second's
    # at the projector's font
    "large-domains-zips-presenter": Case("large-domains", "", "", "98475", "presenter"),
    # occupation's 14 labels in 19-px rows at the projector's 19-px font
    "kary-occupations-presenter": Case("kary-rr", "", "", "Transport-moving", "presenter"),
    # the crossover's label a 14-px line above the attribute's, at a 17-px font
    "unary-rules-presenter": Case("unary-encoding", "", "", "k* = 10.15", "presenter"),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_no_chart_text_is_written_over_another_or_cut(
    page: Page, app_server: str, case: Case
) -> None:
    page.set_viewport_size(SCREENS[case.screen])
    open_page(
        page, app_server, case.lesson + ("?present=true" if case.screen == "presenter" else "")
    )
    if case.screen == "presenter":  # its style sheet lands a moment after the elements
        page.wait_for_function(
            "() => getComputedStyle(document.documentElement).fontSize === '21px'"
        )
    if case.slider:
        move_slider_with_keyboard(page, case.slider, case.key)
    page.wait_for_function(DRAWN, arg=case.shows)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate(CHART_TEXT_CLASHES) == []
    assert_no_exception(page)
