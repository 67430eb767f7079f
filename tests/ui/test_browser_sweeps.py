"""Every lesson, looked at on the three screens the course is used on, with each lesson opened
once per screen and every check below read off that one visit:

- a laptop, 1280×800: no Vega warning in the console; the main control and its chart on one
  screen;
- a projector, presenter mode at 1280×720: the main control and its chart on one screen; no
  legend or title runs out of its chart;
- a phone, 390×844: no legend or title runs out of its chart; a slider and what it drives on
  one screen; no formula wider than the phone or set below 12 px.

These were seven passes over the catalogue, one per check (about 25 s each); the checks and
their assertions are unchanged (issue 50: the same assertions, three passes).
"""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from browser_helpers import HEADER_PX, control_to_chart_px, open_page
from lessons.catalogue import LESSONS
from ui import browser as browser_module

WITH_CONTROL = [lesson for lesson in LESSONS if lesson.main_control]
SLACK_PX = 1  # a legend or title may end this far outside its chart

# --- what is read off each visit -------------------------------------------------------------
# Issue 27, item 8: Vega logged "Conflicting legend property" warnings on 7 lessons (and a
# "Dropping fit-y" and a fillOpacity warning).
VEGA_MESSAGE = ("WARN", "ERROR", "[Vega")

# No chart's legend or title ends outside its chart. Found before: the sparse vector's "Where
# AboveThreshold stops" legend 196–267 px past the right edge (its second series never
# labelled), synthetic data's "naive, mean" and the sparse vector's "false positives
# reported" cut on a phone, a ROC legend 8 px out; and 11 titles cut to "…" where they are
# wider than the chart, losing their current values (issue 48, item 15).
OUT_OF_CHART = """(slack) => {
  const out = [];
  for (const chart of document.querySelectorAll('[data-testid=stVegaLiteChart]')) {
    const box = chart.getBoundingClientRect();
    if (box.width === 0) continue;
    const lines = [...chart.querySelectorAll('g.role-title text')].map((t) => t.textContent);
    const title = lines.join(' ') || '(untitled)';
    if (lines.some((line) => line.endsWith('…'))) out.push(`${title}: title cut with "…"`);
    for (const part of chart.querySelectorAll('g.role-legend, g.role-title')) {
      const r = part.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.right > box.right + slack || r.left < box.left - slack) {
        const over = Math.round(r.right - box.right);
        out.push(`${title}: ${part.getAttribute('class')} ends ${over} px out`);
      }
    }
  }
  return out;
}"""

# For each slider, what it drives: the first chart below it in its own section (up to the
# next section heading); in a section with no chart, the first table or metric; else
# nothing (a slider that drives only the sentence under it). [label, span px, kind].
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

# Axis labels that are numbers cut with "…": in presenter mode (19 px) Vega's default label
# limit cut unary encoding's variance axis to "10,000,00…" and "1,000,000,…".
CUT_NUMBERS = """() => [...document.querySelectorAll(
    '[data-testid=stVegaLiteChart] g.role-axis-label text')]
  .map((t) => t.textContent).filter((t) => /^[-−+]?[\\d,.]+…$/.test(t))"""

# Every display formula shown: its font size, the width it needs and has, its scale.
WIDE_FORMULAS = """() => [...document.querySelectorAll('.katex-display')]
  .filter(box => box.offsetParent !== null).map(box => ({
    px: parseFloat(getComputedStyle(box.querySelector('.katex')).fontSize),
    need: box.scrollWidth,
    room: box.clientWidth,
    scale: box.querySelector('.katex').style.fontSize,
    text: box.textContent.slice(0, 40),
}))"""
# The wide or narrow form of a formula written both ways (notebook.latex(..., narrow=...)).
FORMULA_FORMS = """() => [...document.querySelectorAll('[class*="-formula-"]')]
    .filter(e => e.offsetParent !== null)
    .map(e => e.className.match(/pp-(wide|narrow)-formula-\\w+/)[0])"""


@dataclass
class Visit:
    """What one lesson showed on one screen."""

    console: list[tuple[str, str]] = field(default_factory=list)  # (type, text)
    exceptions: int = 0  # Streamlit exception boxes (a traceback shown to the user)
    control_span: tuple[float, float] | None = None  # (span, room) of the main control
    out_of_chart: list[str] = field(default_factory=list)
    cut_numbers: list[str] = field(default_factory=list)
    phone_spans: list[tuple[str, float | None, str]] = field(default_factory=list)
    formulas: list[dict] = field(default_factory=list)
    formula_forms: list[str] = field(default_factory=list)


SCREENS = {
    "laptop": {"viewport": {"width": 1280, "height": 800}},
    "presenter": {"viewport": {"width": 1280, "height": 720}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True},
}


@functools.cache
def _visits(browser: Browser, app_server: str, screen: str) -> dict[str, Visit]:
    """Open every lesson once on `screen` and read everything the tests below check."""
    context = browser.new_context(**SCREENS[screen])
    page = context.new_page()
    visits: dict[str, Visit] = {}
    current: list[Visit] = []
    page.on(
        "console",
        lambda message: (
            current[-1].console.append((message.type, message.text))
            if current and message.type in ("warning", "error")
            else None
        ),
    )
    try:
        for lesson in LESSONS:
            visit = visits[lesson.folder] = Visit()
            current.append(visit)
            query = "?present=true" if screen == "presenter" else ""
            open_page(page, app_server, f"{lesson.url_path}{query}")
            if screen == "presenter":  # its style sheet lands a moment after the elements
                page.wait_for_function(
                    "() => getComputedStyle(document.documentElement).fontSize === '21px'"
                )
            if screen == "phone":
                # KaTeX, its fonts, then the fitting script (next animation frame): wait,
                # bounded, until every formula fits; one that never does fails below.
                with contextlib.suppress(PlaywrightTimeoutError):
                    page.wait_for_function(
                        f"() => ({WIDE_FORMULAS})().every(f => f.need <= f.room + 6)",
                        timeout=10_000,
                    )
            # Vega compiles (and logs) and lays out the last charts after the run.
            page.wait_for_timeout(1_000 if screen == "laptop" else 500)
            if screen != "laptop":
                visit.out_of_chart = page.evaluate(OUT_OF_CHART, SLACK_PX)
                visit.cut_numbers = page.evaluate(CUT_NUMBERS)
            if screen == "phone":
                visit.phone_spans = [tuple(row) for row in page.evaluate(PHONE_SPANS)]
                visit.formulas = page.evaluate(WIDE_FORMULAS)
                visit.formula_forms = page.evaluate(FORMULA_FORMS)
            visit.exceptions = page.locator('[data-testid="stException"]').count()
            if screen != "phone" and lesson.main_control:  # last: it scrolls the page
                visit.control_span = control_to_chart_px(page, lesson.main_control)
    finally:
        context.close()
    return visits


@pytest.fixture
def visits(browser: Browser, app_server: str):
    return lambda screen: _visits(browser, app_server, screen)


# --- laptop ------------------------------------------------------------------------------------
def test_no_lesson_logs_a_vega_warning(visits) -> None:
    seen = visits("laptop")
    # A chart that failed to build logs nothing either: no exception box.
    assert not {folder: visit.exceptions for folder, visit in seen.items() if visit.exceptions}
    logged = {
        folder: [entry for entry in visit.console if entry[1].startswith(VEGA_MESSAGE)]
        for folder, visit in seen.items()
    }
    assert not {folder: found for folder, found in logged.items() if found}


# --- laptop and projector ------------------------------------------------------------------------
@pytest.mark.parametrize("screen", ["presenter", "laptop"], ids=["720p", "800"])
def test_each_main_control_and_its_whole_chart_fit_on_one_screen(visits, screen: str) -> None:
    """Every lesson's main control sits with the chart it drives (issue 11): in presenter
    mode at 1280×720 (sidebar collapsed, projector fonts) and at 1280×800, the main slider
    and the whole chart beside it (or, without one, the first chart after it) fit on one
    screen under the header. The control is the catalogue's `main_control`."""
    seen = visits(screen)
    too_far = []
    for lesson in WITH_CONTROL:
        span, room = seen[lesson.folder].control_span
        if span > room:
            too_far.append(f"{lesson.title}: {span:.0f} px > {room:.0f} px")
    assert not too_far, too_far
    assert not {folder: visit.exceptions for folder, visit in seen.items() if visit.exceptions}


# --- projector and phone -------------------------------------------------------------------------
@pytest.mark.parametrize("screen", ["phone", "presenter"])
def test_no_legend_or_title_runs_out_of_its_chart(visits, screen: str) -> None:
    found = {folder: visit.out_of_chart for folder, visit in visits(screen).items()}
    assert not {folder: out for folder, out in found.items() if out}


@pytest.mark.parametrize("screen", ["phone", "presenter"])
def test_no_axis_number_is_cut(visits, screen: str) -> None:
    found = {folder: visit.cut_numbers for folder, visit in visits(screen).items()}
    assert not {folder: cut for folder, cut in found.items() if cut}


# --- phone --------------------------------------------------------------------------------------
def test_on_a_phone_a_slider_and_its_chart_fit_on_one_screen(visits) -> None:
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
    room = 844 - HEADER_PX
    kinds: dict[str, int] = {"chart": 0, "output": 0, "text": 0}
    too_long = []
    for folder, visit in visits("phone").items():
        for label, span, kind in visit.phone_spans:
            kinds[kind] += 1
            if span is not None and span > room:
                too_long.append((folder, label[:40], kind, round(span)))
    assert kinds["chart"] >= 75 and kinds["output"] >= 3 and kinds["text"] <= 2, kinds
    assert not too_long, too_long


def test_no_formula_is_wider_than_a_phone(visits) -> None:
    """Issue 27, item 10: at 390 px some formulas were 425-504 px wide. A formula wider than
    its box is now scaled down to fit (never below 60%), on every lesson. Issue 48, item
    15: scaled formulas read 9.6-10.5 px; none is now below 12 px, a formula that would be
    shows its narrow form on lines instead (the OLH parameters, the shuffle bound, PTR's
    rule, MWEM's update), and no formula is shown twice."""
    scaled = narrow = 0
    for folder, visit in visits("phone").items():
        for formula in visit.formulas:
            assert formula["need"] <= formula["room"] + 6, (folder, formula)
            assert formula["px"] >= browser_module.MIN_FORMULA_PX - 0.05, (folder, formula)
            if formula["scale"]:
                scaled += 1
                assert float(formula["scale"].rstrip("%")) >= 60.0, formula
        narrow += sum(name.startswith("pp-narrow") for name in visit.formula_forms)
        assert not [name for name in visit.formula_forms if name.startswith("pp-wide")], (
            folder,
            visit.formula_forms,
        )
    assert scaled >= 2  # reconstruction's and the class survey's widest were scaled
    assert narrow == 4  # large domains (2), beyond global sensitivity, synthetic data
