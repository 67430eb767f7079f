"""DP group-by in real Chromium: the heatmap's colour legend survives a control's move (which
rewrites the page's address)."""

from playwright.sync_api import Page

from browser_helpers import assert_no_exception, move_slider_with_keyboard, open_lesson

# Every SVG reference (a legend's gradient, a clip path) names this page's current address
# and an element that exists: what the browser draws the colour bar from.
BROKEN_REFERENCES = """() => {
  const here = location.href.replace(/#.*$/, "");
  const broken = [];
  let seen = 0;
  for (const node of document.querySelectorAll('svg [fill^="url("], svg [clip-path^="url("]')) {
    for (const name of ["fill", "clip-path"]) {
      const value = node.getAttribute(name);
      if (!value || !value.startsWith("url(")) continue;
      seen += 1;
      const found = /^url\\((['"]?)(.*)#([^)'"]+)\\1\\)$/.exec(value);
      if (!found || found[2] !== here || !document.getElementById(found[3])) broken.push(value);
    }
  }
  return {seen, broken};
}"""


def test_the_heatmaps_legend_keeps_its_gradient_after_a_control_moves(
    page: Page, app_server: str
) -> None:
    open_lesson(page, app_server, "group_by/page.py")
    before = page.evaluate(BROKEN_REFERENCES)
    assert before["seen"] > 0 and before["broken"] == []
    move_slider_with_keyboard(page, "Privacy loss ε", "ArrowRight", times=2)
    assert "gb_eps=" in page.url  # the move went into the address
    page.wait_for_timeout(300)  # Vega's redraw of this run's changes
    after = page.evaluate(BROKEN_REFERENCES)
    assert after["seen"] > 0 and after["broken"] == [], after
    assert_no_exception(page)
