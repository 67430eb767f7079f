"""Display formulas are not clipped. Streamlit gives st.latex boxes overflow-y: hidden (for
sideways scrolling on phones) and KaTeX draws tall fractions a little above that box, so
numerators lost their tops until ui/style.css padded the box. (No formula wider than a
phone: tests/ui/test_browser_sweeps.py.)"""

import contextlib

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from browser_helpers import open_page
from lessons.catalogue import LESSONS

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
