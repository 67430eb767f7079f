"""A sign between two words never ends or starts a line on a phone: at 390 px Rényi DP put
"α" at the end of one line and "= 5.4" at the start of the next. ui/browser.py's
_KEEP_TOGETHER script turns the spaces beside each sign of text.KEEP_TOGETHER into no-break
spaces in all text Streamlit renders as markdown, before the browser paints it and again when
a press changes the text; formulas and code are left as they are."""

from __future__ import annotations

import re

from playwright.sync_api import Page

from browser_helpers import (
    PHONE,
    assert_no_exception,
    lines_of_text,
    move_slider_with_keyboard,
    open_page,
)
from lessons.catalogue import LESSONS
from ui import text

RENYI = next(lesson for lesson in LESSONS if lesson.folder == "renyi")
SIGN = f"[{re.escape(text.KEEP_TOGETHER)}]"
OPENS_A_LINE = re.compile(rf"^{SIGN}(\s|$)")  # "= 5.4" at a line's start
ENDS_A_LINE = re.compile(rf"(^|\s){SIGN}$")  # "α =" at a line's end
BREAKABLE = re.compile(rf" {SIGN} ")  # a sign with an ordinary space beside it

# Every text node under Streamlit's markdown, but inside formulas and code.
TEXTS = """() => {
  const out = [];
  const boxes = '[data-testid="stMain"] [data-testid="stMarkdownContainer"]';
  for (const box of document.querySelectorAll(boxes)) {
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentElement.closest(".katex, code, pre")) out.push(n.nodeValue);
    }
  }
  return out;
}"""


def breakable(page: Page) -> list[str]:
    return [t for t in page.evaluate(TEXTS) if BREAKABLE.search(t)]


def split_lines(page: Page) -> list[tuple[str, str]]:
    """(line, next line) wherever a laid-out line of a paragraph, caption or alert ends with
    a sign or the next one starts with it."""
    blocks = page.locator('[data-testid="stMain"] [data-testid="stMarkdownContainer"]')
    found = []
    for i in range(blocks.count()):
        block = blocks.nth(i)
        if not block.is_visible():
            continue
        lines = [line.strip() for line in lines_of_text(block)]
        for above, below in zip(lines, lines[1:], strict=False):
            if ENDS_A_LINE.search(above) or OPENS_A_LINE.search(below):
                found.append((above, below))
    return found


def test_no_sign_is_split_from_its_neighbours_on_a_phone(page: Page, app_server: str) -> None:
    page.set_viewport_size(PHONE)
    open_page(page, app_server, RENYI.url_path)
    page.get_by_text("Order α", exact=False).first.wait_for()
    texts = page.evaluate(TEXTS)
    assert sum("=" in t for t in texts) >= 5, "the page should show its equations"
    assert breakable(page) == []
    assert split_lines(page) == []
    # a press rewrites the text of its fragment: the new text is kept together too
    move_slider_with_keyboard(page, "Order α")
    assert breakable(page) == []
    assert split_lines(page) == []
    # formulas and code are left as written
    kept = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=stMain] code')]"
        ".map((c) => c.textContent).join(' ')"
    )
    assert "\u00a0" not in kept
    assert_no_exception(page)


# The text our own scripts draw (the progress line above a lesson), marked data-pp-text.
DRAWN = """() => [...document.querySelectorAll('[data-pp-text]')].flatMap((box) => {
  const out = [], walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(n.nodeValue);
  return out;
})"""


def test_the_progress_line_keeps_its_control_name_together(page: Page, app_server: str) -> None:
    """DP-SGD's status line names its main control, "Noise multiplier σ  (larger → more
    private)": drawn by ui/progress.py's script, outside Streamlit's markdown."""
    dpsgd = next(lesson for lesson in LESSONS if lesson.folder == "dpsgd")
    page.set_viewport_size(PHONE)
    open_page(page, app_server, dpsgd.url_path)
    line = page.locator(".pp-progress-here")
    line.get_by_text("larger", exact=False).wait_for()
    drawn = " ".join(page.evaluate(DRAWN))
    assert "larger\u00a0→\u00a0more private" in drawn
    assert not BREAKABLE.search(drawn), drawn
