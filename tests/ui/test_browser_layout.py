"""Every lesson's main control sits with the chart it drives (issue 11): in presenter mode
at 1280×720 (sidebar collapsed, projector fonts) and at 1280×800, the main slider and the
whole chart beside it (or, without one, the first chart after it) fit on one screen under
the header. The control is the catalogue's `main_control`; browser_helpers measures."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from browser_helpers import assert_no_exception, control_to_chart_px, open_page
from lessons.catalogue import LESSONS

WITH_CONTROL = [lesson for lesson in LESSONS if lesson.main_control]
# The sections that got a control of their own when each section became a fragment: (the
# lesson's url_path, part of the control's label). Each sits beside the chart it drives.
SECTION_CONTROLS = [
    ("laplace", "Privacy loss of this answer"),
    ("definition", "ε for the privacy loss"),
    ("definition", "ε of the output the attacker sees"),
    ("choosing", "ε for the trait question"),
    ("choosing", "ε for the Gumbel comparison"),
    ("kary-rr", "ε for the variance curve"),
    ("central-vs-local", "ε for the comparison by n"),
    ("private-ml", "ε for the coefficients"),
    ("clamping", "ε for the visit count"),
]
SCREENS = [(1280, 720, True), (1280, 800, False)]


@pytest.mark.parametrize(("width", "height", "presenting"), SCREENS, ids=["720p", "800"])
def test_each_main_control_and_its_whole_chart_fit_on_one_screen(
    page: Page, app_server: str, width: int, height: int, presenting: bool
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    too_far = []
    for lesson in WITH_CONTROL:
        open_page(page, app_server, lesson.url_path + ("?present=true" if presenting else ""))
        assert_no_exception(page)
        if presenting:  # the presenter style sheet lands a moment after the first elements
            page.wait_for_function(
                "() => getComputedStyle(document.documentElement).fontSize === '21px'"
            )
        span, room = control_to_chart_px(page, lesson.main_control)
        if span > room:
            too_far.append(f"{lesson.title}: {span:.0f} px > {room:.0f} px")
    assert not too_far, too_far


@pytest.mark.parametrize(("width", "height", "presenting"), SCREENS, ids=["720p", "800"])
def test_each_section_control_and_its_chart_fit_on_one_screen(
    page: Page, app_server: str, width: int, height: int, presenting: bool
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    too_far = []
    for url_path, control in SECTION_CONTROLS:
        open_page(page, app_server, url_path + ("?present=true" if presenting else ""))
        if presenting:
            page.wait_for_function(
                "() => getComputedStyle(document.documentElement).fontSize === '21px'"
            )
        span, room = control_to_chart_px(page, control)
        if span > room:
            too_far.append(f"{url_path} / {control}: {span:.0f} px > {room:.0f} px")
    assert not too_far, too_far


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
    """Issue 27, items 8-9: Choosing privately had its controls on the right, where every
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


PHONE_SPANS = """() => {
  const out = [];
  const rects = (selector) => [...document.querySelectorAll(selector)]
    .map((element) => element.getBoundingClientRect()).filter((r) => r.width > 0);
  const sections = rects('[data-testid="stHeading"] h2').map((r) => r.top);
  const charts = rects('[data-testid="stVegaLiteChart"]');
  const outputs = rects('[data-testid="stVegaLiteChart"], [data-testid="stTable"], '
                        + '[data-testid="stMetric"], [data-testid="stDataFrame"]');
  for (const slider of document.querySelectorAll('[data-testid="stSlider"]')) {
    const s = slider.getBoundingClientRect();
    if (s.width === 0) continue;
    const end = Math.min(Infinity, ...sections.filter((top) => top > s.bottom));
    const mine = (found) => found.filter((r) => r.bottom > s.top && r.top < end);
    let under = mine(charts), kind = 'chart';
    if (!under.length) { under = mine(outputs); kind = 'output'; }
    const label = slider.querySelector('[data-testid="stWidgetLabel"]')?.textContent || '';
    if (!under.length) { out.push([label, null, 'text']); continue; }
    const r = under.reduce((a, b) => (b.top < a.top ? b : a));
    out.push([label, Math.max(r.bottom, s.bottom) - Math.min(r.top, s.top), kind]);
  }
  return out;
}"""


def test_on_a_phone_a_slider_and_its_chart_fit_on_one_screen(browser, app_server: str) -> None:
    """Issue 48, item 14: on a 390×844 phone a slider and what it drives fit on one screen.

    Two columns [controls | chart] stacked as the whole first column (sliders, then their
    numbers), then the chart: 50 of the course's 88 sliders and their chart did not fit. The
    phone rule of ui/style.css puts each chart right under its controls; the pages put rows
    of numbers after their charts.

    What a slider drives is the first chart below it in its own section (up to the next
    section heading); in a section with no chart, the first table or metric (reconstruction's
    block size drives the published tables); a slider that drives only the sentence under it
    (Laplace's minimum age, clamping's sample size, whose charts are a section further) has
    no output to measure, and at most two such sliders exist."""
    from browser_helpers import HEADER_PX

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    room = 844 - HEADER_PX
    kinds: dict[str, int] = {"chart": 0, "output": 0, "text": 0}
    too_long = []
    for lesson in LESSONS:
        open_page(page, app_server, lesson.url_path)
        page.wait_for_timeout(500)  # the last charts' layout
        for label, span, kind in page.evaluate(PHONE_SPANS):
            kinds[kind] += 1
            if span is not None and span > room:
                too_long.append((lesson.folder, label[:40], kind, round(span)))
    context.close()
    assert kinds["chart"] >= 75 and kinds["output"] >= 3 and kinds["text"] <= 2, kinds
    assert not too_long, too_long
