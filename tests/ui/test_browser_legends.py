"""No chart's legend or title ends outside its chart, on every lesson, on a phone (390×844,
the narrowest) and in presenter mode (1280×720, the largest fonts). Found before: the sparse
vector's "Where AboveThreshold stops" legend 196–267 px past the right edge (its second
series never labelled), synthetic data's "naive, mean" and the sparse vector's "false
positives reported" cut on a phone, a ROC legend 8 px out; and 11 titles cut to "…" where
they are wider than the chart, losing their current values (issue 48, item 15)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from browser_helpers import open_page
from lessons.catalogue import LESSONS

VIEWPORTS = {"phone": (390, 844), "presenter": (1280, 720)}
SLACK_PX = 1

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


@pytest.mark.parametrize("view", list(VIEWPORTS))
def test_no_legend_or_title_runs_out_of_its_chart(
    browser: Browser, app_server: str, view: str
) -> None:
    width, height = VIEWPORTS[view]
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    found = {}
    for lesson in LESSONS:
        query = "?present=true" if view == "presenter" else ""
        open_page(page, app_server, f"{lesson.url_path}{query}")
        page.wait_for_timeout(300)  # the last charts' SVG
        out = page.evaluate(OUT_OF_CHART, SLACK_PX)
        if out:
            found[lesson.folder] = out
    assert not found, found
