"""Display formulas are not clipped. Streamlit gives st.latex boxes overflow-y: hidden (for
sideways scrolling on phones) and KaTeX draws tall fractions a little above that box, so
numerators lost their tops until ui/style.css padded the box."""

import contextlib

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from browser_helpers import open_page
from lessons.catalogue import LESSONS
from ui import browser as browser_module

LESSON = next(lesson for lesson in LESSONS if lesson.file == "unary_encoding/page.py")

GLYPH_OVERHANG_PX = """() => [...document.querySelectorAll('.katex-display')].map(box => {
    const top = box.getBoundingClientRect().top;
    let glyphs = Infinity;
    box.querySelectorAll('span').forEach(s => {
        const r = s.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) glyphs = Math.min(glyphs, r.top);
    });
    return top - glyphs;
})"""


def test_no_formula_draws_above_its_clipping_box(page: Page, app_server: str) -> None:
    open_page(page, app_server, LESSON.url_path)
    # KaTeX draws after the run, its web fonts move the glyphs once they load, and the
    # padding arrives with the app's style sheet a moment after the first elements: wait
    # (bounded) until every formula sits inside its box; one that stays clipped fails.
    page.locator(".katex-display").nth(4).wait_for(state="attached")
    with contextlib.suppress(PlaywrightTimeoutError):  # the assertion below reports it
        page.wait_for_function(f"() => Math.max(...({GLYPH_OVERHANG_PX})()) <= 0.5", timeout=15_000)
    overhangs = page.evaluate(GLYPH_OVERHANG_PX)
    assert len(overhangs) >= 5, "the page should show its formulas"
    assert max(overhangs) <= 0.5, f"glyphs reach above their box by {max(overhangs):.1f} px"


WIDE_FORMULAS = """() => [...document.querySelectorAll('.katex-display')]
  .filter(box => box.offsetParent !== null).map(box => ({
    px: parseFloat(getComputedStyle(box.querySelector('.katex')).fontSize),
    need: box.scrollWidth,
    room: box.clientWidth,
    scale: box.querySelector('.katex').style.fontSize,
    text: box.textContent.slice(0, 40),
}))"""


def test_no_formula_is_wider_than_a_phone(browser, app_server: str) -> None:
    """Issue 27, item 10: at 390 px some formulas were 425-504 px wide. A formula wider than
    its box is now scaled down to fit (never below 60%), on every lesson. Issue 48, item
    15: scaled formulas read 9.6-10.5 px; none is now below 12 px, a formula that would be
    shows its narrow form on lines instead (the OLH parameters, the shuffle bound, PTR's
    rule, MWEM's update), and no formula is shown twice."""
    from browser_helpers import FINISHED

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    scaled = narrow = 0
    for lesson in LESSONS:
        open_page(page, app_server, lesson.url_path)
        page.wait_for_selector(FINISHED)
        # KaTeX and its fonts, then the fitting script (next animation frame): wait, bounded,
        # until every formula fits; one that never does fails below.
        with contextlib.suppress(PlaywrightTimeoutError):
            page.wait_for_function(
                f"() => ({WIDE_FORMULAS})().every(f => f.need <= f.room + 6)", timeout=10_000
            )
        for formula in page.evaluate(WIDE_FORMULAS):
            assert formula["need"] <= formula["room"] + 6, (lesson.url_path, formula)
            assert formula["px"] >= browser_module.MIN_FORMULA_PX - 0.05, (lesson, formula)
            if formula["scale"]:
                scaled += 1
                assert float(formula["scale"].rstrip("%")) >= 60.0, formula
        shown = page.evaluate(
            """() => [...document.querySelectorAll('[class*="-formula-"]')]
                .filter(e => e.offsetParent !== null)
                .map(e => e.className.match(/pp-(wide|narrow)-formula-\\w+/)[0])"""
        )
        narrow += sum(name.startswith("pp-narrow") for name in shown)
        assert not [name for name in shown if name.startswith("pp-wide")], (lesson, shown)
    assert scaled >= 2  # reconstruction's and the class survey's widest were scaled
    assert narrow == 4  # large domains (2), beyond global sensitivity, synthetic data
    context.close()
