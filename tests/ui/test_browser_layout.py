"""Controls sit with the charts they drive: Choosing privately's controls on the
left, and tables that keep each cell on one line. (Every lesson's main control and each
section's own control at 1280×720 and 1280×800, and a phone's sliders:
tests/ui/test_browser_sweeps.py, one visit per lesson and screen.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from browser_helpers import assert_no_exception, open_page

CHOOSING_SECTIONS = [
    ("Privacy loss ε", "Who wins report noisy max"),
    ("ε for the trait question", "Most common trait"),
    ("Budget ε for the quantile", "Private median"),
    ("ε for the Gumbel comparison", "Noisy max with Gumbel noise"),
    ("Total budget ε", "Where the private U lands"),
]


def test_choosing_has_its_controls_on_the_left_beside_both_section_one_charts(
    page: Page, app_server: str
) -> None:
    """Choosing privately had its controls on the right, where every
    other lesson has them on the left, and section 1's second chart far below its ε."""
    page.set_viewport_size({"width": 1280, "height": 800})
    open_page(page, app_server, "choosing")
    for control, title in CHOOSING_SECTIONS:
        slider = page.locator('[data-testid="stSlider"]').filter(has_text=control).first
        slider.scroll_into_view_if_needed()
        chart = page.locator('[data-testid="stVegaLiteChart"]').filter(has_text=title).first
        s, c = slider.bounding_box(), chart.bounding_box()
        assert s["x"] + s["width"] <= c["x"] + 1, (control, s, c)  # the control on the left
    slider = page.locator('[data-testid="stSlider"]').filter(has_text="Privacy loss ε").first
    slider.scroll_into_view_if_needed()
    top = slider.bounding_box()["y"]
    for title in ("Who wins report noisy max", "The chance of each winner"):
        box = page.locator('[data-testid="stVegaLiteChart"]').filter(has_text=title).first
        bottom = box.bounding_box()["y"] + box.bounding_box()["height"]
        assert bottom - top <= 800, (title, bottom - top)
    assert_no_exception(page)


@pytest.mark.parametrize("width", [1280, 390], ids=["1280", "phone"])
def test_rows_tables_keep_each_cell_on_one_line_and_scroll_sideways(
    page: Page, app_server: str, width: int
) -> None:
    """Rows of data drawn as static tables (ui/tables.show): a date or "Married-civ-spouse"
    stays on one line (ui/style.css: Streamlit wraps a table cell at its hyphens), and the
    17-column release scrolls sideways inside its own box instead of widening the page."""
    page.set_viewport_size({"width": width, "height": 844 if width < 500 else 800})
    open_page(page, app_server, "anonymisation")
    assert_no_exception(page)
    page.wait_for_function(  # the table component mounts after the run (loaded lazily)
        """() => [...document.querySelectorAll('[class*="st-key-pp-rows-"]')]
                     .every(box => box.querySelector('td'))"""
    )
    rows = page.evaluate(
        """() => [...document.querySelectorAll('[class*="st-key-pp-rows-"]')].map(box => {
            const scroller = box.querySelector('table').parentElement;
            const cells = [...box.querySelectorAll('td')];
            const lines = cells.map(cell => {
                const p = cell.querySelector('p') || cell;
                return Math.round(p.getBoundingClientRect().height
                                  / parseFloat(getComputedStyle(p).lineHeight));
            });
            return {key: box.className.match(/st-key-(pp-rows-[\\w-]+)/)[1],
                    cells: cells.length, most_lines: Math.max(...lines),
                    scroll: scroller.scrollWidth, width: scroller.clientWidth};
        })"""
    )
    assert {row["key"] for row in rows} == {"pp-rows-release", "pp-rows-roll", "pp-rows-matches"}
    for row in rows:
        assert row["cells"] > 0, row
        assert row["most_lines"] == 1, row  # no cell wraps
    release = next(row for row in rows if row["key"] == "pp-rows-release")
    assert release["scroll"] > release["width"], release  # wider than its column: it scrolls
    page_width = page.evaluate("document.documentElement.scrollWidth")
    assert page_width <= width, f"the page is {page_width} px wide at {width} px"
